import ArgumentParser
import StanzaQuery
import StanzaqKit

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

extension OutputFormat: ExpressibleByArgument {}
extension LogDirection: ExpressibleByArgument {}

/// The `stanzaq` command line (stanzaq(1), OPTIONS): parsed here, run by
/// StanzaqKit's ``Searcher`` (or the REPL) against the process's streams.
struct StanzaqCommand: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "stanzaq",
        abstract: "Query XMPP stanzas with Monal's XML query language.",
        usage: """
            stanzaq [OPTIONS] QUERY [FILE...]
              stanzaq [OPTIONS] -e QUERY [-e QUERY]... [FILE...]
              stanzaq -i [FILE...]
              stanzaq --explain QUERY...
            """,
        discussion: """
            Reads stanzas (a single element, a sequence of elements, or XMPP streams) \
            from the FILEs or standard input and prints what QUERY selects in each.

            Examples:
              stanzaq 'body#' capture.xml
              stanzaq '{urn:xmpp:delay}delay@stamp|datetime' message-delay.xml
              stanzaq -e /@from -e /@id -e 'body#' capture.xml
              stanzaq --each '{jabber:iq:roster}query/item' -e jid=@jid -e name=@name \\
                --header capture.xml
              stanzaq -s -H --line-number '/<type=error>' capture.xml
              stanzaq -s '/<type=error>' capture.xml
              stanzaq -a romeo@montague.lit/orchard '/<from=%@>/body#' capture.xml
              stanzaq -c '/{jabber:client}message' capture.xml
              stanzaq -l '/<type=error>' *.xml
              stanzaq -r -l -g '*.xml' -g '!logs/' '/<type=error>'
              stanzaq -s -n -C 1 '{urn:xmpp:http:upload:0}request' upload-error.log
              stanzaq -s --pair '/iq<type=error>' upload-error.log
              stanzaq -j '{*}event/items/item/{urn:xmpp:avatar:data}data#|base64' \\
                avatar-data.xml > avatar.png

            Exit status: 0 if something was found, 1 if not, 2 on an error.
            The query language is described in stanzaq-query(7).
            """,
        version: versionText
    )

    /// What `--version` prints: stanzaq's version, then those of the libraries whose
    /// behaviour shows in its output, for bug reports (stanzaq(1), `--version`).
    static var versionText: String {
        "stanzaq \(version)\nlibxml2 \(LibraryVersions.libxml2)\nICU \(LibraryVersions.icu)"
    }

    // Shells complete file names here (the query first is typed, not completed).
    @Argument(help: ArgumentHelp("The query, then the files to read (standard input if none, or -).", valueName: "QUERY|FILE"),
              completion: .file())
    var positionals: [String] = []

    @Option(name: [.customShort("e"), .customLong("query")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A query; repeat for several (one TSV row or JSON array per stanza). NAME=QUERY names the column (JSON objects, --header).", valueName: "[NAME=]QUERY"))
    var queries: [String] = []

    @Option(name: .customLong("each"), parsing: .unconditional,
            help: ArgumentHelp("One row per element PATH selects in each stanza, every query read from that element (--each '{jabber:iq:roster}query/item' -e @jid -e @name).", valueName: "PATH"))
    var each: String?

    @Flag(help: "Print a header row (the columns' names) before the first TSV row.")
    var header = false

    @Option(name: [.customShort("a"), .customLong("arg")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A format argument for %@, %s, %d… in attribute filters; repeat, in order.", valueName: "VALUE"))
    var arguments: [String] = []

    @Flag(help: "Per stanza, only the first result of each query.")
    var first = false

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Print nothing; exit 0 as soon as a stanza has a result.")
    var quiet = false

    @Flag(name: [.customShort("c"), .customLong("count")], help: "Print the number of stanzas with a result (per file with -H).")
    var count = false

    @Flag(name: [.customShort("s"), .customLong("select")], help: "Print the whole stanzas that have a result.")
    var select = false

    @Flag(name: [.customShort("l"), .customLong("files-with-matches")],
          help: "Print only the names of the files that have a selected stanza (reading each stops at its first).")
    var filesWithMatches = false

    @Flag(name: [.customShort("L"), .customLong("files-without-match")], help: "Print only the names of the files that have no selected stanza.")
    var filesWithoutMatch = false

    @Option(name: [.customShort("m"), .customLong("max-count")],
            help: ArgumentHelp("Stop reading a file after N stanzas with a result (per file).", valueName: "N"))
    var maxCount: Int?

    @Option(name: [.customShort("A"), .customLong("after-context")],
            help: ArgumentHelp("With -s: also print the N stanzas after each selected one (-- between groups).", valueName: "N"))
    var afterContext: Int?

    @Option(name: [.customShort("B"), .customLong("before-context")],
            help: ArgumentHelp("With -s: also print the N stanzas before each selected one.", valueName: "N"))
    var beforeContext: Int?

    @Option(name: [.customShort("C"), .customLong("context")],
            help: ArgumentHelp("With -s: also print N stanzas before and after each selected one.", valueName: "N"))
    var context: Int?

    @Flag(help: "With -s: also print, for each selected iq, the request it answers or the response it got (same id).")
    var pair = false

    @Flag(name: [.customShort("r"), .customLong("recursive")],
          help: "Search the files under directory operands (or the working directory), in name order; links inside are not followed.")
    var recursive = false

    @Option(name: [.customShort("g"), .customLong("glob")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("With -r: search only the files that match GLOB (!GLOB: skip them); repeatable, the last match decides.",
                               valueName: "GLOB"))
    var globs: [String] = []

    @Flag(name: [.customShort("v"), .customLong("invert")], help: "Select, count or test the stanzas that have no result (alone: like -s -v).")
    var invert = false

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Output format: text, json (JSON Lines) or tsv.", valueName: "FORMAT"))
    var output: OutputFormat?

    @Flag(name: .customLong("json"), help: "The same as -o json.")
    var json = false

    @Flag(name: [.customShort("0"), .customLong("null")], help: "End records with NUL instead of newline.")
    var null = false

    @Flag(name: [.customShort("j"), .customLong("join")], help: "End records with nothing (for raw output such as -j …|base64 > file).")
    var join = false

    @Flag(name: [.customShort("H"), .customLong("with-filename")], help: "Prefix each record with its file name.")
    var withFilename = false

    @Flag(name: [.customShort("n"), .customLong("stanza-number")], help: "Prefix each record with its stanza number (from 1, per input).")
    var stanzaNumber = false

    @Option(name: [.customShort("N"), .customLong("default-namespace")], help: ArgumentHelp("Read stanzas with no namespace in scope as if NS were the default.", valueName: "NS"))
    var defaultNamespace: String?

    @Option(name: .customLong("ns"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Bind PREFIX for prefixed names in queries (stream:features, @p:a); repeatable.", valueName: "PREFIX=URI"))
    var namespaceAliases: [String] = []

    @Flag(help: "Conversions must succeed on the whole value; a failure is an error for that stanza.")
    var strict = false

    @Flag(help: "Print datetimes as seconds since 1970.")
    var epoch = false

    @Flag(help: "Indent XML output.")
    var pretty = false

    @Flag(help: "Write each element on one line (-s: one stanza a line): whitespace between elements dropped, newlines in text as &#10;.")
    var compact = false

    @Option(help: ArgumentHelp("Colour XML and prefixes: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "WHEN"))
    var color: ColorChoice?

    @Flag(help: "Flush the output after each stanza (the default on a terminal).")
    var lineBuffered = false

    @Flag(name: [.customShort("i"), .customLong("interactive")], help: "Start the interactive REPL.")
    var interactive = false

    @Flag(help: "Print the parsed query as a readable outline and evaluate nothing.")
    var explain = false

    @Flag(help: "'=' and '~' filters compare case (Monal ignores it).")
    var caseSensitive = false

    @Flag(help: "Reject stanzaq's extensions of Monal's language (**, text filters, %@ in '~'), for queries meant for Monal or Prosody.")
    var monal = false

    /// How queries are compiled.
    private var queryOptions: QueryOptions {
        // --ns is checked in validate().
        QueryOptions(caseSensitive: caseSensitive, extensions: !monal, namespaces: (try? namespaces()) ?? [:])
    }

    @Option(name: .customLong("log"), help: ArgumentHelp(
        "Read the input as a log: --log, or --log=FORMAT (\(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))).",
        valueName: "FORMAT"))
    var log: String?

    @Flag(name: .customLong("xml"), help: "Read the input as XML, never as a log.")
    var xml = false

    @Option(help: ArgumentHelp("Only the stanzas a log shows received (in) or sent (out).", valueName: "in|out"))
    var direction: LogDirection?

    @Option(help: ArgumentHelp("Print these fields of stanzas read from a log: line, time, direction, session, or an archive column (comma-separated).", valueName: "LIST"))
    var fields: String?

    @Flag(name: .customLong("line-number"), help: "Print the line where each stanza starts, for vim +N (the same as --fields line); with -s on each of its lines.")
    var lineNumber = false

    @Flag(help: "Follow a growing file as tail -F does: from its end, across rotation, line-buffered.")
    var follow = false

    @Option(help: ArgumentHelp("Search with N threads (default: the number of CPUs); 1 reads strictly in order. The output is the same.",
                               valueName: "N"))
    var threads: Int?

    /// `--log` without a value: the format is detected.
    static let detectedLogFormat = "auto"

    /// `--log` may stand alone (`--log`) or name a format (`--log=prosody`): a bare
    /// `--log` becomes `--log=auto` before parsing, unless it is another option's value.
    static func normalising(_ arguments: [String]) -> [String] {
        let takingValues: Set<String> = ["-e", "--query", "-a", "--arg", "-o", "--output", "-N", "--default-namespace",
                                         "--color", "--direction", "--fields", "--log", "-m", "--max-count",
                                         "-A", "--after-context", "-B", "--before-context", "-C", "--context",
                                         "-g", "--glob", "--each"]
        var result: [String] = []
        var afterTerminator = false
        for argument in arguments {
            let isValue = result.last.map(takingValues.contains) ?? false
            if !afterTerminator, argument == "--log", !isValue {
                result.append("--log=" + detectedLogFormat)
            } else if !afterTerminator, !isValue, let (option, number) = attachedNumber(argument) {
                // grep's `-C2`, `-m1`: the number attached to its option.
                result.append(option)
                result.append(number)
            } else {
                if argument == "--" { afterTerminator = true }
                result.append(argument)
            }
        }
        return result
    }

    /// The arguments to parse, and the operands at their end that can be taken
    /// out first: ArgumentParser takes quadratic time over positionals (each one
    /// copies all before it: 14% of `stanzaq body#` over 1,000 files, callgrind).
    /// Taken out are those of the trailing run of arguments that do not start
    /// with `-` but its first two, since every option takes at most one value:
    /// the first may be an option's value, the second the query; the rest are
    /// files. Short runs are left to the parser.
    static func splittingTrailingOperands(_ arguments: [String]) -> (arguments: [String], operands: [String]) {
        var start = arguments.endIndex
        while start > arguments.startIndex && !arguments[start - 1].hasPrefix("-") { start -= 1 }
        let cut = start + 2
        guard arguments.endIndex - cut > 16 else { return (arguments, []) }
        return (Array(arguments[..<cut]), Array(arguments[cut...]))
    }

    /// `-A2`, `-B2`, `-C2`, `-m2`, as grep takes them: the option and its number.
    private static func attachedNumber(_ argument: String) -> (String, String)? {
        guard argument.count > 2, ["-A", "-B", "-C", "-m"].contains(String(argument.prefix(2))),
              argument.dropFirst(2).allSatisfy(\.isASCII), argument.dropFirst(2).allSatisfy(\.isNumber) else { return nil }
        return (String(argument.prefix(2)), String(argument.dropFirst(2)))
    }

    func validate() throws {
        if [quiet, count, select, filesWithMatches, filesWithoutMatch].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of -q, -c, -s, -l and -L")
        }
        // (The REPL refuses them all, in execute(in:).)
        if !interactive { try validateGrepOptions() }
        if null && join { throw ValidationError("choose one of -0 and -j") }
        if compact && pretty { throw ValidationError("choose one of --compact and --pretty") }
        if header && (json || output == .json) {
            throw ValidationError("--header is for TSV; JSON rows are objects keyed by the names of -e NAME=QUERY")
        }
        if header && (quiet || count || select || invert || filesWithMatches || filesWithoutMatch) {
            throw ValidationError("--header goes with rows, not with -q, -c, -s, -v, -l or -L")
        }
        if json, let output, output != .json { throw ValidationError("--json contradicts -o \(output.rawValue)") }
        if monal && caseSensitive {
            throw ValidationError("--case-sensitive is a stanzaq extension, which --monal rejects (Monal's '=' and '~' ignore case)")
        }
        if xml && log != nil { throw ValidationError("choose one of --log and --xml") }
        if let log, log != Self.detectedLogFormat, LogFormat(rawValue: log) == nil {
            throw ValidationError("unknown log format '\(log)' (one of: \(LogFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        if let fields, fields.split(separator: ",", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw ValidationError("--fields: an empty field name in '\(fields)'")
        }
        _ = try namespaces()
        if let threads, threads < 1 { throw ValidationError("--threads: N must be at least 1") }
    }

    /// The options of grep's habits (stanzaq(1), `-l`, `-m`, `-A`, `-r`, `--pair`):
    /// numbers in range, and nothing they cannot go with.
    private func validateGrepOptions() throws {
        for (name, value) in [("-m", maxCount), ("-A", afterContext), ("-B", beforeContext), ("-C", context)] {
            if let value, value < 0 { throw ValidationError("\(name) needs a number of 0 or more, not \(value)") }
        }
        let listsFiles = filesWithMatches || filesWithoutMatch
        let listing = filesWithMatches ? "-l" : "-L"
        let selects = select || (invert && !quiet && !count && !listsFiles)
        let contextOption = afterContext != nil ? "-A" : beforeContext != nil ? "-B" : context != nil ? "-C" : nil
        // The modes that print no stanza.
        let summary = listsFiles ? listing : count ? "-c" : quiet ? "-q" : nil
        if let contextOption {
            if let summary { throw ValidationError("\(contextOption) prints stanzas around selected ones, which \(summary) does not print") }
            if !selects { throw ValidationError("\(contextOption) prints stanzas around selected ones: add -s") }
            if pair { throw ValidationError("choose one of \(contextOption) and --pair") }
        }
        if pair && !selects {
            throw ValidationError(summary.map { "--pair prints stanzas, which \($0) does not print" } ?? "--pair prints the partners of selected stanzas: add -s")
        }
        if listsFiles {
            if stanzaNumber { throw ValidationError("\(listing) prints file names, which have no stanza number (-n)") }
            if lineNumber || fields != nil { throw ValidationError("\(listing) prints file names, which have no log fields (--line-number, --fields)") }
        }
        if !globs.isEmpty && !recursive { throw ValidationError("-g filters the files -r finds: add -r") }
        do {
            _ = try GlobFilter(globs)
        } catch {
            throw ValidationError(error.description)
        }
        if recursive && follow { throw ValidationError("--follow follows one file, not a directory (-r)") }
    }

    /// How many stanzas to print around selected ones: `-A`/`-B` win over `-C`, as in grep.
    private var stanzaContext: StanzaContext? {
        guard afterContext != nil || beforeContext != nil || context != nil else { return nil }
        return StanzaContext(before: beforeContext ?? context ?? 0, after: afterContext ?? context ?? 0)
    }

    /// How to read the inputs: `--xml`, `--log[=FORMAT]`, or recognise each.
    private var inputKind: InputKind? {
        if xml { return .xml }
        guard let log else { return nil }
        return .log(LogFormat(rawValue: log))
    }

    /// The fields to print with each record.
    private var fieldNames: [LogFieldName] {
        var names = (fields ?? "").split(separator: ",").map { LogFieldName(String($0)) }
        if lineNumber && !names.contains(.line) { names.insert(.line, at: 0) }
        return names
    }

    /// The `--ns PREFIX=URI` aliases.
    func namespaces() throws -> [String: String] {
        try parseNamespaceAliases(namespaceAliases)
    }

    /// Runs the parsed command against `environment`; returns the exit status.
    /// Throws ``Diagnostic`` and ArgumentParser's errors, which ``Stanzaq/main(_:in:)`` prints.
    func execute(in environment: CommandEnvironment) throws -> Int32 {
        var texts = queries
        var paths = positionals
        let notForTheREPL = optionsNotForTheREPL
        if interactive && !notForTheREPL.isEmpty {
            let list = notForTheREPL.joined(separator: ", ")
            throw Diagnostic("\(list) \(notForTheREPL.count == 1 ? "does" : "do") not apply to the REPL (-i)")
        }
        // With no query on a terminal, the REPL starts, unless an option says a search was meant.
        if interactive || (texts.isEmpty && paths.isEmpty && environment.stdinIsTerminal && notForTheREPL.isEmpty) {
            return runREPL(files: paths, arguments: arguments, defaultNamespace: defaultNamespace,
                           firstOnly: first, format: output ?? (json ? .json : .text),
                           render: RenderOptions(epoch: epoch, pretty: pretty), options: queryOptions,
                           in: environment)
        }
        if texts.isEmpty {
            guard !paths.isEmpty else { throw ValidationError("missing QUERY (or -e QUERY)") }
            texts = [paths.removeFirst()]
        }

        let (names, unnamed) = try Self.columns(texts)
        texts = unnamed
        if explain {
            // Every argument is a query here: --explain reads no input.
            // Format arguments are checked only when some are given.
            let syntaxes = arguments.isEmpty ? try (texts + paths).map(parse) : try compile(texts + paths).map(\.syntax)
            for syntax in syntaxes {
                try environment.output.write(syntax.explanation(options: queryOptions) + "\n")
            }
            try environment.output.flush()
            return 0
        }
        // --each's path takes the first format arguments: it is evaluated first.
        var compiled = try compile((each.map { [$0] } ?? []) + texts)
        var options = try searchOptions(queries: Array(compiled.dropFirst(each == nil ? 0 : 1)), environment: environment)
        if each != nil {
            let path = compiled.removeFirst()
            if path.syntax.extraction != nil {
                throw ValidationError("--each takes a path to elements; '\(path.text)' gives values (it ends in @, @@, #, $ or \\…\\)")
            }
            options.each = path
        }
        options.columnNames = names
        if follow && paths.count > 1 { throw ValidationError("--follow follows one file") }
        if environment.handlesSignals { Interruption.install(.search) }

        let searcher = Searcher(options: options, sink: options.makeSink(output: environment.output),
                                diagnostics: environment.diagnostics, standardInput: environment.standardInput,
                                output: environment.output)
        do {
            try searcher.run(paths: paths)
        } catch OutputError.brokenPipe {
            // The reader went away (`stanzaq … | head -1`): what it read was found.
        } catch {
            environment.diagnostics.report(error.diagnostic)
            return 2
        }
        return searcher.status
    }

    /// The options given that mean nothing in the REPL, which takes only -a, -o/--json,
    /// --first, -N, --ns, --case-sensitive, --monal, --epoch and --pretty (stanzaq(1), REPL).
    private var optionsNotForTheREPL: [String] {
        let given: [(Bool, String)] = [
            (!queries.isEmpty, "-e/--query"), (quiet, "-q/--quiet"), (count, "-c/--count"), (select, "-s/--select"),
            (invert, "-v/--invert"), (null, "-0/--null"), (join, "-j/--join"), (withFilename, "-H/--with-filename"),
            (stanzaNumber, "-n/--stanza-number"), (strict, "--strict"), (color != nil, "--color"),
            (lineBuffered, "--line-buffered"), (explain, "--explain"), (log != nil, "--log"), (xml, "--xml"),
            (direction != nil, "--direction"), (fields != nil, "--fields"), (lineNumber, "--line-number"),
            (follow, "--follow"), (filesWithMatches, "-l/--files-with-matches"),
            (filesWithoutMatch, "-L/--files-without-match"), (maxCount != nil, "-m/--max-count"),
            (afterContext != nil, "-A/--after-context"), (beforeContext != nil, "-B/--before-context"),
            (context != nil, "-C/--context"), (pair, "--pair"), (recursive, "-r/--recursive"), (!globs.isEmpty, "-g/--glob"),
            (each != nil, "--each"), (header, "--header"), (compact, "--compact"), (threads != nil, "--threads"),
        ]
        return given.filter(\.0).map(\.1)
    }

    /// Splits the names off `-e NAME=QUERY` (stanzaq(1), OUTPUT): a NAME is
    /// letters, digits, `_` and `-` followed by `=`, which no query can start
    /// with (a name in a query is followed by `/`, `<`, `@`, `#`, `$`, `\`, `|`
    /// or its end, never `=`), so `type=/@type` is a named column and
    /// `/<type=error>` a query. Every column is named, or none.
    static func columns(_ texts: [String]) throws -> (names: [String], queries: [String]) {
        var names: [String] = [], queries: [String] = []
        for text in texts {
            if let equals = text.firstIndex(of: "="), equals > text.startIndex,
               text[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
                let name = String(text[..<equals])
                if names.contains(name) { throw ValidationError("the column name '\(name)' is given twice") }
                names.append(name)
                queries.append(String(text[text.index(after: equals)...]))
            } else {
                queries.append(text)
            }
        }
        if !names.isEmpty && names.count != queries.count {
            throw ValidationError("name every column (NAME=QUERY) or none")
        }
        return (names, queries)
    }

    /// The options of a search, from the command line and the terminal.
    private func searchOptions(queries: [Query], environment: CommandEnvironment) throws -> SearchOptions {
        let color = self.color ?? .auto
        let useColor = color == .always || (color == .auto && environment.stdoutIsTerminal && !environment.noColor)
        var options = SearchOptions(queries: queries)
        options.report = quiet ? .quiet : count ? .count : filesWithMatches ? .files(without: false)
            : filesWithoutMatch ? .files(without: true) : (select || invert) ? .stanzas : .results
        options.invert = invert
        options.firstOnly = first
        options.strict = strict
        options.defaultNamespace = defaultNamespace
        options.format = output ?? (json ? .json : nil)
        let colored = useColor && options.effectiveFormat != .json
        options.render = RenderOptions(epoch: epoch, pretty: pretty, highlight: colored ? .ansi : nil, compact: compact)
        options.colors = colored ? PrefixColors() : nil
        options.separator = null ? [0] : join ? [] : [UInt8(ascii: "\n")]
        options.header = header
        options.withFilename = withFilename
        options.withStanzaNumber = stanzaNumber
        options.namespaceAliases = queryOptions.namespaces
        options.fields = fieldNames
        options.input = inputKind
        options.direction = direction
        options.follow = follow
        environment.output.lineBuffered = lineBuffered || environment.stdoutIsTerminal || follow
        options.lineBuffered = environment.output.lineBuffered
        options.threads = threads ?? environment.processorCount
        if let size = environment.partSize { options.partSize = size }
        options.directory = environment.directory
        options.recursive = recursive
        do {
            options.globs = try GlobFilter(globs)
        } catch {
            throw ValidationError(error.description)
        }
        options.maxCount = maxCount
        options.context = stanzaContext
        options.pairs = pair
        return options
    }

    private func parse(_ text: String) throws(Diagnostic) -> QuerySyntax {
        do {
            let syntax = try QuerySyntax(parsing: text)
            if monal { try syntax.rejectExtensions() }
            return syntax
        } catch {
            throw Diagnostic("\(error)")
        }
    }

    /// Compiles the queries, which take the format arguments in order.
    private func compile(_ texts: [String]) throws(Diagnostic) -> [Query] {
        do {
            return try Query.compile(texts, arguments: arguments, options: queryOptions)
        } catch {
            throw Diagnostic("\(error)")
        }
    }
}
