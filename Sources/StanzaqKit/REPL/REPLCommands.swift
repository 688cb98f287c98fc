#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The REPL's commands (stanzaq(1), REPL): the table `:help`, completion and dispatch read.
extension REPLSession {
    static let commands: [REPLCommand] = [
        REPLCommand(name: ":help", arguments: .none, usage: ":help", help: "this list") { (session: REPLSession, _: REPLArguments) throws(OutputError) -> Bool in
            let width = commands.map(\.usage.count).max() ?? 0
            for command in commands {
                try session.say(command.usage.padding(to: width + 1) + command.help)
            }
            try session.say("Any other line is a query on the current stanza; a line starting with '<' is XML to load.")
            return true
        },
        REPLCommand(name: ":load", arguments: .words, usage: REPLSession.loadUsage,
                    help: "load each FILE's stanzas: XML or a log, compressed or not (--merge: on one time line)",
                    completion: .files) { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            let request: LoadRequest
            do throws(Diagnostic) {
                request = try loadRequest(arguments.words)
            } catch {
                try session.fail(error)
                return true
            }
            let before = session.stanzas.count
            let paths = request.files.map { arguments.path($0, environment: session.environment) }
            if request.merge {
                try session.load(merging: paths, as: request.kind)
            } else {
                for path in paths { try session.load(path: path, as: request.kind) }
            }
            if let current = session.current, session.stanzas.count > before {
                try session.noteLoaded(session.stanzas.count - before, current: current)
            }
            return true
        },
        REPLCommand(name: ":list", arguments: .none, usage: ":list", help: "the loaded stanzas (* marks the current one)") { (session: REPLSession, _: REPLArguments) throws(OutputError) -> Bool in
            try session.list()
            return true
        },
        REPLCommand(name: ":use", arguments: .words, usage: ":use N", help: "make stanza N (as :list numbers them) current") { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            let count = session.stanzas.count
            guard arguments.words.count == 1, let number = Int(arguments.words[0]), number >= 1, number <= count else {
                try session.fail(Diagnostic(":use takes a stanza number from 1 to \(count)"))
                return true
            }
            session.current = number - 1
            if let stanza = session.currentStanza { try session.note("current: \(number) <\(stanza.qualifiedName)>") }
            return true
        },
        REPLCommand(name: ":show", arguments: .none, usage: ":show", help: "the current stanza, indented (after its log fields)") { (session: REPLSession, _: REPLArguments) throws(OutputError) -> Bool in
            guard let stanza = session.currentStanza else { return try session.noStanza() }
            if let index = session.current, let source = session.stanzas[index].fields, !session.shownFields.isEmpty {
                try session.say(REPLSession.fieldsText(source, session.shownFields))
            }
            try session.say(XMLSerializer(options: .init(pretty: true)).string(for: stanza))
            return true
        },
        REPLCommand(name: ":fields", arguments: .words, usage: ":fields [LIST|none|log]",
                    help: "the fields :all, :list and :show print, as --fields (log: a log's; none: show it)") { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            switch arguments.words {
            case []:
                try session.say("fields: " + (session.fields.map { $0.isEmpty ? "none" : $0.map(\.key).joined(separator: ",") } ?? "log"))
                return true
            case ["none"]: session.fields = []
            case ["log"]: session.fields = nil
            case let words where words.count == 1:
                let names = words[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                let known = LogFieldName.known.map(\.key)
                // (A name that is none of these is an archive row's column, unless it is a typo of one.)
                if let typo = names.first(where: { $0.isEmpty || (!known.contains($0) && NameSuggestion.suggestion(for: $0, among: known) != nil) }) {
                    let suggestion = NameSuggestion.suggestion(for: typo, among: known).map { ". Did you mean '\($0)'?" } ?? ""
                    try session.fail(Diagnostic(typo.isEmpty ? ":fields: an empty field name in '\(words[0])'"
                                                : ":fields: unknown field '\(typo)' (the fields are line, time, direction, session and jid, "
                                                    + "and the columns of archive rows)" + suggestion))
                    return true
                }
                session.fields = names.map(LogFieldName.init)
            default: return try session.usage(":fields [LIST|none|log]")
            }
            try session.note("fields: " + arguments.words[0])
            return true
        },
        REPLCommand(name: ":args", arguments: .words, usage: ":args [A ...]",
                    help: "set (or show) the format arguments for %@, %d, ...") { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            if !arguments.words.isEmpty {
                session.arguments = arguments.words
            } else if session.arguments.isEmpty {
                try session.say("no format arguments")
            } else {
                try session.say("arguments: " + session.arguments.map { "'\($0)'" }.joined(separator: " "))
            }
            return true
        },
        REPLCommand(name: ":output", arguments: .words, usage: ":output [text|json|tsv]", help: "how results are printed (none: show it)",
                    completion: .choices(OutputFormat.allCases.map(\.rawValue))) { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            if arguments.words.isEmpty {
                try session.say("output: \(session.format.rawValue)")
                return true
            }
            guard arguments.words.count == 1, let format = OutputFormat(rawValue: arguments.words[0]) else {
                return try session.usage(":output [text|json|tsv]")
            }
            session.format = format
            try session.note("output: \(format.rawValue)")
            return true
        },
        REPLCommand(name: ":first", arguments: .words, usage: ":first [on|off]", help: "only the first result of each query (none: show it)",
                    completion: .choices(["off", "on"])) { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            switch arguments.words {
            case []:
                try session.say("first: \(session.firstOnly ? "on" : "off")")
                return true
            case ["on"]: session.firstOnly = true
            case ["off"]: session.firstOnly = false
            default: return try session.usage(":first [on|off]")
            }
            try session.note("first: \(arguments.words[0])")
            return true
        },
        REPLCommand(name: ":default-namespace", arguments: .words, usage: ":default-namespace [NS|-]",
                    help: "namespace for stanzas loaded without one (-: none; none: show it)") { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            switch arguments.words.count {
            case 0:
                try session.say(session.defaultNamespace.map { "default namespace: \($0)" } ?? "no default namespace")
            case 1:
                session.defaultNamespace = arguments.words[0] == "-" ? nil : arguments.words[0]
                try session.note(session.defaultNamespace.map { "default namespace for new stanzas: \($0)" } ?? "no default namespace")
            default:
                return try session.usage(":default-namespace [NS|-]")
            }
            return true
        },
        REPLCommand(name: ":direction", arguments: .words, usage: ":direction [in|out|both]",
                    help: "only the stanzas a log shows received or sent, in :all and :list (none: show it)",
                    completion: .choices(["both", "in", "out"])) { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            if arguments.words.isEmpty {
                try session.say("direction: \(session.direction?.rawValue ?? "both")")
                return true
            }
            guard arguments.words.count == 1, arguments.words[0] == "both" || LogDirection(rawValue: arguments.words[0]) != nil else {
                return try session.usage(":direction [in|out|both]")
            }
            session.direction = LogDirection(rawValue: arguments.words[0])
            try session.note("direction: \(arguments.words[0])")
            return true
        },
        REPLCommand(name: ":explain", arguments: .text, usage: ":explain QUERY", help: "how QUERY is read",
                    completion: .query) { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            guard !arguments.text.isEmpty else { return try session.usage(":explain QUERY") }
            let syntax: QuerySyntax
            do {
                syntax = try QuerySyntax(parsing: arguments.text)
                if !session.options.extensions { try syntax.rejectExtensions() }
            } catch {
                try session.fail(Diagnostic("\(error)"))
                return true
            }
            try session.say(syntax.explanation(options: session.options))
            return true
        },
        REPLCommand(name: ":all", arguments: .text, usage: ":all QUERY",
                    help: "QUERY on every stanza, with file and stanza number", completion: .query) { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            guard !arguments.text.isEmpty else { return try session.usage(":all QUERY") }
            try session.evaluate(arguments.text, all: true)
            return true
        },
        REPLCommand(name: ":quit", aliases: [":q", ":exit"], arguments: .none, usage: ":quit",
                    help: "leave (Ctrl-D too)") { (_: REPLSession, _: REPLArguments) throws(OutputError) -> Bool in false },
    ]

    /// The command called `name` (or one of its aliases).
    static func command(named name: String) -> REPLCommand? {
        commands.first { $0.name == name || $0.aliases.contains(name) }
    }


    static let loadUsage = ":load [--log[=FORMAT]|--xml] [--merge] FILE..."

    /// What `:load`'s words ask: how the files are read, whether on one time
    /// line, and the indices of the words that name the files.
    struct LoadRequest {
        var kind: InputKind?
        var merge = false
        var files: [Int] = []
    }

    /// Reads `:load`'s words: options first (`--log[=FORMAT]` or `--xml`, and
    /// `--merge`), then one file or more.
    static func loadRequest(_ words: [String]) throws(Diagnostic) -> LoadRequest {
        var request = LoadRequest()
        var index = 0
        while index < words.count - 1, words[index].hasPrefix("--") {
            if words[index] == "--merge" {
                guard !request.merge else { throw Diagnostic("usage: \(loadUsage)") }
                request.merge = true
            } else {
                guard request.kind == nil else { throw Diagnostic("usage: \(loadUsage)") }
                request.kind = try inputKind(words[index], usage: loadUsage)
            }
            index += 1
        }
        guard index < words.count, !["--xml", "--log", "--merge"].contains(where: words[index].hasPrefix) else {
            throw Diagnostic("usage: \(loadUsage)")
        }
        request.files = Array(index..<words.count)
        return request
    }

    /// The input kind an option of `:load` names (`--log`, `--log=FORMAT`, `--xml`),
    /// as on the command line.
    static func inputKind(_ option: String, usage: String) throws(Diagnostic) -> InputKind {
        switch option {
        case "--xml": return .xml
        case "--log": return .log(nil)
        case _ where option.hasPrefix("--log="):
            let name = String(option.dropFirst("--log=".count))
            guard let format = LogFormat(rawValue: name) else {
                throw Diagnostic("unknown log format '\(name)' (one of: \(LogFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .log(format)
        default: throw Diagnostic("usage: \(usage)")
        }
    }
}
