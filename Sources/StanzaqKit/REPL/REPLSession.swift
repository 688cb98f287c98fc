import StanzaQuery

/// The REPL's state and commands (stanzaq(1), REPL), apart from line editing: it
/// takes whole lines and writes results, so the same code serves a terminal, a
/// script on standard input, and the tests.
public final class REPLSession {
    struct LoadedStanza {
        let element: Element
        let source: String
        let number: Int
    }

    private(set) var stanzas: [LoadedStanza] = []
    private(set) var current: Int?
    public var arguments: [String] = []
    public var format: OutputFormat = .text
    /// How values are written (--epoch, --pretty).
    public var render = RenderOptions()
    public var firstOnly = false
    public var defaultNamespace: String?
    /// How queries are compiled (--case-sensitive, --monal).
    public var options = QueryOptions()
    /// Where relative paths are opened.
    public var directory: Int32 = AT_FDCWD
    /// The environment variables (HOME, for `~` in file names).
    public var environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
    /// Whether any line failed (the exit status of a script).
    public private(set) var failed = false
    /// XML being pasted over several lines, and what it gave so far.
    private var pasteReader: StanzaReader?
    private var pasted: [Element] = []
    private var pasteCount = 0

    public let output: Output
    public let diagnostics: Diagnostics
    /// Whether a person reads standard output: remarks are made only then.
    public let isTerminal: Bool

    public init(output: Output, diagnostics: Diagnostics, isTerminal: Bool, defaultNamespace: String? = nil) {
        self.output = output
        self.diagnostics = diagnostics
        self.isTerminal = isTerminal
        self.defaultNamespace = defaultNamespace
    }

    /// What Tab may complete `line` (the text before the cursor) with.
    public func complete(_ line: String) -> Completion {
        Completion.complete(line, stanza: currentStanza, namespaces: namespaces.sorted(), options: options, arguments: arguments)
    }

    /// The namespaces of every loaded stanza (elements and attributes), for completion after `{`.
    private var namespaces = Set<String>()

    /// Whether the next line continues XML being pasted (prompt `...> `).
    public var isContinuingXML: Bool { pasteReader != nil }

    public var currentStanza: Element? { current.map { stanzas[$0].element } }

    /// `N stanzas loaded, current: N <name>`, for the banner.
    public var summary: String {
        let count = stanzas.count
        let currentPart = currentStanza.map { ", current: \(count) <\($0.qualifiedName)>" } ?? ""
        return "\(count) stanza\(count == 1 ? "" : "s") loaded\(currentPart)"
    }

    // MARK: Commands

    static let commands: [REPLCommand] = [
        REPLCommand(name: ":help", arguments: .none, usage: ":help", help: "this list") { (session: REPLSession, _: REPLArguments) throws(OutputError) -> Bool in
            for command in commands {
                try session.say(command.usage.padding(to: 26) + command.help)
            }
            try session.say("Any other line is a query on the current stanza; a line starting with '<' is XML to load.")
            return true
        },
        REPLCommand(name: ":load", arguments: .words, usage: ":load FILE",
                    help: "load the stanzas of FILE (the last becomes current)", completion: .files) { (session: REPLSession, arguments: REPLArguments) throws(OutputError) -> Bool in
            guard arguments.words.count == 1 else { return try session.usage(":load FILE") }
            let before = session.stanzas.count
            if try session.load(path: arguments.path(0, environment: session.environment)),
               let current = session.current {
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
            try session.note("current: \(number) <\(session.stanzas[number - 1].element.qualifiedName)>")
            return true
        },
        REPLCommand(name: ":show", arguments: .none, usage: ":show", help: "the current stanza, indented") { (session: REPLSession, _: REPLArguments) throws(OutputError) -> Bool in
            guard let stanza = session.currentStanza else { return try session.noStanza() }
            try session.say(XMLSerializer(options: .init(pretty: true)).string(for: stanza))
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
            try session.evaluate(arguments.text, on: session.stanzas.map { ($0.element, $0) }, prefixes: true)
            return true
        },
        REPLCommand(name: ":quit", aliases: [":q", ":exit"], arguments: .none, usage: ":quit",
                    help: "leave (Ctrl-D too)") { (_: REPLSession, _: REPLArguments) throws(OutputError) -> Bool in false },
    ]

    /// The command called `name` (or one of its aliases).
    static func command(named name: String) -> REPLCommand? {
        commands.first { $0.name == name || $0.aliases.contains(name) }
    }

    // MARK: Loading

    /// Loads the stanzas of a file (or "-"); returns false after reporting an error.
    @discardableResult
    public func load(path: String) throws(OutputError) -> Bool {
        let fd = openat(directory, path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            try fail(.opening(path, errno: errno))
            return false
        }
        Interruption.reading(fd)
        defer {
            Interruption.reading(-1)
            close(fd)
        }
        var loaded: [Element] = []
        let reader = StanzaReader(defaultNamespace: defaultNamespace) { loaded.append($0); return true }
        var ok = true
        do {
            try reader.read(fileDescriptor: fd)
        } catch {
            try fail(.reading(path, error))
            ok = false
        }
        add(loaded, source: path)
        return ok
    }

    /// Stanzas are numbered once, in the order they were loaded, whatever their
    /// source: `:all`'s prefixes, `:list` and `:use` agree.
    private func add(_ elements: [Element], source: String) {
        for element in elements {
            stanzas.append(LoadedStanza(element: element, source: source, number: stanzas.count + 1))
            namespaces.formUnion(Completion.namespaces(element))
        }
        if !elements.isEmpty { current = stanzas.count - 1 }
    }

    private func noteLoaded(_ count: Int, current: Int) throws(OutputError) {
        try note("loaded \(count) stanza\(count == 1 ? "" : "s"); current: \(current + 1) <\(stanzas[current].element.qualifiedName)>")
    }

    // MARK: Lines

    /// Handles one line; returns false when the session should end.
    public func handle(line: String) throws(OutputError) -> Bool {
        let goesOn = try dispatch(line)
        try output.flush()
        return goesOn
    }

    private func dispatch(_ line: String) throws(OutputError) -> Bool {
        if pasteReader != nil || line.first == "<" {
            try continuePaste(line)
            return true
        }
        let trimmed = line.trimmingSpaces
        if trimmed.isEmpty { return true }
        if trimmed.first == ":" { return try command(trimmed) }
        try evaluate(trimmed, on: currentStanza.map { [($0, nil)] } ?? nil, prefixes: false)
        return true
    }

    /// The end of the input: a paste left open is an error.
    public func finish() throws(OutputError) {
        if let reader = pasteReader {
            pasteReader = nil
            do {
                try reader.finish()
            } catch {
                try fail(.reading("(paste \(pasteCount))", error))
            }
        }
        try output.flush()
    }

    private func continuePaste(_ line: String) throws(OutputError) {
        if pasteReader == nil {
            pasteCount += 1
            pasted = []
            pasteReader = StanzaReader(defaultNamespace: defaultNamespace) { [unowned self] in
                self.pasted.append($0)
                return true
            }
        }
        guard let reader = pasteReader else { return }
        let source = "(paste \(pasteCount))"
        do {
            try reader.feed(Array((line + "\n").utf8))
        } catch {
            pasteReader = nil
            try fail(.reading(source, error))
            add(pasted, source: source)
            return
        }
        // An empty line ends the paste of a stream left open.
        if reader.isBetweenDocuments || (line.trimmingSpaces.isEmpty && reader.isBetweenStanzas) {
            pasteReader = nil
            add(pasted, source: source)
            if let current { try noteLoaded(pasted.count, current: current) }
        }
    }

    /// Abandons a paste in progress (Ctrl-C).
    public func cancelPaste() {
        pasteReader = nil
    }

    private func command(_ line: String) throws(OutputError) -> Bool {
        let name = String(line.prefix { $0 != " " && $0 != "\t" })
        let rest = String(line.dropFirst(name.count)).trimmingSpaces
        guard let command = Self.command(named: name) else {
            let names = Self.commands.map(\.name).joined(separator: " ")
            try fail(Diagnostic("unknown command '\(name)' (commands: \(names))"))
            return true
        }
        var arguments = REPLArguments()
        switch command.arguments {
        case .none:
            break
        case .words:
            do {
                let words = try shellWordsMarkingTildes(rest)
                arguments.words = words.map(\.word)
                arguments.tildes = words.map(\.tilde)
            } catch {
                try fail(error)
                return true
            }
        case .text:
            arguments.text = rest
        }
        return try command.action(self, arguments)
    }

    private func list() throws(OutputError) {
        if stanzas.isEmpty { try say("no stanzas loaded") }
        for (index, stanza) in stanzas.enumerated() {
            let mark = index == current ? "*" : " "
            let details = ["id", "from", "type"].compactMap { key in
                stanza.element.attribute(key).map { "\(key)=\($0)" }
            }.joined(separator: " ")
            try say("\(mark) \(index + 1)\t<\(stanza.element.qualifiedName)>" + (details.isEmpty ? "" : "\t" + details))
        }
    }

    private func usage(_ text: String) throws(OutputError) -> Bool {
        try fail(Diagnostic("usage: \(text)"))
        return true
    }

    private func noStanza() throws(OutputError) -> Bool {
        try fail(Diagnostic("no stanza loaded: paste XML (a line starting with '<') or :load FILE"))
        return true
    }

    // MARK: Queries

    private func evaluate(_ text: String, on targets: [(Element, LoadedStanza?)]?, prefixes: Bool) throws(OutputError) {
        let query: Query
        do {
            // The session's arguments serve every query: each takes the ones it has specifiers for.
            let syntax = try QuerySyntax(parsing: text)
            query = try Query(syntax: syntax, arguments: Array(arguments.prefix(syntax.formatSpecifierCount)), options: options)
        } catch {
            try fail(Diagnostic("\(error)"))
            return
        }
        guard let targets else { _ = try noStanza(); return }
        let formatter = RecordFormatter(format: format, render: render, withFilename: prefixes, withStanzaNumber: prefixes)
        var any = false
        for (element, loaded) in targets {
            // Ctrl-C ends `:all` between stanzas, as it ends a search (on a terminal
            // the output is line-buffered: what was found so far is shown, no more).
            if Interruption.isRequested {
                try note("(interrupted)")
                return
            }
            let results: [QueryValue]
            do {
                results = firstOnly ? (try query.findFirst(in: element)).map { [$0] } ?? [] : try query.find(in: element)
            } catch {
                let message = "query '\(text)': \(error)"
                try fail(loaded.map { Diagnostic(.stanza(file: $0.source, number: $0.number), message) } ?? Diagnostic(message))
                continue
            }
            for value in results {
                any = true
                try output.writeRecord {
                    if format == .tsv {
                        formatter.writeRow(file: loaded?.source ?? "", stanza: loaded?.number ?? 0, values: [value], into: &$0)
                    } else {
                        formatter.writeRecord(file: loaded?.source ?? "", stanza: loaded?.number ?? 0, value: value, into: &$0)
                    }
                }
            }
            try output.endStanza()
        }
        if !any && !prefixes { try note("(no result)") }
    }

    // MARK: Messages

    /// Says something to the person (standard output).
    public func say(_ text: String) throws(OutputError) {
        try output.write(text + "\n")
    }

    /// A remark that is no result: on a terminal only, so scripts see results alone.
    func note(_ text: String) throws(OutputError) {
        if isTerminal { try say(text) }
    }

    func fail(_ diagnostic: Diagnostic) throws(OutputError) {
        failed = true
        try output.flush()
        diagnostics.report(diagnostic)
    }
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

extension REPLSession {
    /// Runs a script: every line of `fileDescriptor` (the REPL without a terminal),
    /// then ``finish()``.
    public func run(script fileDescriptor: Int32) throws(OutputError) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        while !ended {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = true
                if pending.isEmpty { break }
                pending.append(UInt8(ascii: "\n"))
            } else {
                pending.append(contentsOf: buffer[..<count])
            }
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start && pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: pending[start..<end], as: UTF8.self)
                start = newline + 1
                if try !handle(line: line) {
                    try finish()
                    return
                }
            }
            pending.removeFirst(start)
        }
        try finish()
    }
}
