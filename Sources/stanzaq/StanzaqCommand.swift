import ArgumentParser
import StanzaQuery
import StanzaqKit

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
              stanzaq --where '/message<type=chat>' -e /@from -e 'body#' capture.xml
              stanzaq -c --fields direction -e '/$' -e /@type logs/prosody.log
              stanzaq --fields time,direction 'body#' logs/prosody.log
              stanzaq -n '**<*~tybalt>$' capture.xml

            Exit status: 0 if something was found, 1 if not, 2 on an error.
            The query language is described in stanzaq-query(7).
            """
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

    @OptionGroup var query: QueryArguments
    @OptionGroup var mode: ModeOptions
    @OptionGroup var format: FormatOptions
    @OptionGroup var input: InputOptions

    // Declared for --help and the completion scripts; answered before parsing
    // (``requestsVersion(_:)``), whatever else the command line holds.
    @Flag(name: [.customShort("V"), .customLong("version")],
          help: "Print the versions of stanzaq, libxml2 and ICU, and exit.")
    var showsVersion = false

    /// The query among the operands, taken out of `paths` (stanzaq(1), SYNOPSIS).
    /// With `--where` and a mode that prints no value (`-s`, `-c`, `-q`, `-l`,
    /// `-L`), the query may be left out: a first operand that names a regular
    /// file (or is `-`) is a file, and the query is the stanza itself. A query operand that names a
    /// file while no file follows and standard input is a terminal is a mistake
    /// (the search would wait for typed input): said, not waited on.
    private func queryOperand(_ paths: inout [String], in environment: CommandEnvironment) throws -> String {
        let first = paths[0]
        var status = stat()
        // A regular file (a directory may be a query: `/`, `..`).
        let namesAFile = first == "-"
            || (fstatat(environment.directory, first.fileSystemPath, &status, 0) == 0 && status.st_mode & S_IFMT == S_IFREG)
        if namesAFile && !query.wheres.isEmpty && mode.report != .results { return "" }
        paths.removeFirst()
        if namesAFile && first != "-" && paths.isEmpty && environment.stdinIsTerminal {
            throw Diagnostic("the query '\(first)' names a file, and standard input is a terminal: "
                             + "write the query first (stanzaq QUERY \(first))")
        }
        return first
    }

    /// The checks that concern options of several groups (each group checks its own).
    func validate() throws {
        // (The REPL refuses them all, in execute(in:).)
        if !mode.interactive {
            try mode.validateGrepOptions()
            try validateWritingAtTheEnd()
            try input.validateWalk()
            if let listing = mode.listing {
                if format.stanzaNumber { throw ValidationError("\(listing) prints file names, which have no stanza number (-n)") }
                if input.lineNumber || input.fields != nil {
                    throw ValidationError("\(listing) prints file names, which have no log fields (--line-number, --fields)")
                }
            }
        }
        if format.header && mode.report != .results {
            throw ValidationError("--header goes with rows, not with -q, -c, -s, -v, -l or -L")
        }
    }

    /// The options that write at the end of the inputs (`--unanswered`, `--merge`):
    /// nothing they cannot go with.
    private func validateWritingAtTheEnd() throws {
        if input.follow && mode.unanswered { throw ValidationError("--unanswered prints at the end of the input, which --follow never reaches") }
        if format.merge {
            if input.follow { throw ValidationError("--merge writes at the end of the inputs, which --follow never reaches") }
            if let summary = mode.summary { throw ValidationError("--merge orders records, which \(summary) does not print") }
            if mode.unanswered { throw ValidationError("choose one of --merge and --unanswered") }
        }
    }

    /// Runs the parsed command against `environment`; returns the exit status.
    /// Throws ``Diagnostic`` and ArgumentParser's errors, which ``Stanzaq/main(_:in:)`` prints.
    func execute(in environment: CommandEnvironment) throws -> Int32 {
        var texts = query.queries
        var paths = positionals
        let notForTheREPL = optionsNotForTheREPL
        if mode.interactive && !notForTheREPL.isEmpty {
            let list = notForTheREPL.joined(separator: ", ")
            throw Diagnostic("\(list) \(notForTheREPL.count == 1 ? "does" : "do") not apply to the REPL (-i)")
        }
        // With no query on a terminal, the REPL starts, unless an option says a search was meant.
        if mode.interactive || (texts.isEmpty && paths.isEmpty && environment.stdinIsTerminal && notForTheREPL.isEmpty) {
            return runREPL(files: paths, arguments: query.arguments, defaultNamespace: query.defaultNamespace,
                           firstOnly: query.first, format: format.output ?? (format.json ? .json : .text),
                           render: RenderOptions(epoch: format.epoch, pretty: format.pretty), options: query.queryOptions,
                           input: input.inputKind, direction: input.direction, fields: input.fields.map { _ in input.fieldNames },
                           merge: format.merge, timeZone: input.timeBounds.zone, in: environment)
        }
        // (Every operand is the file: there is no query.)
        if format.rewrite { return try rewrite(paths, in: environment) }
        if texts.isEmpty {
            guard !paths.isEmpty else { throw ValidationError("missing QUERY (or -e QUERY)") }
            texts = [try queryOperand(&paths, in: environment)]
        }

        let (names, unnamed) = try Self.columns(texts)
        if let name = names.first(where: input.fieldNames.map(\.key).contains) {
            throw ValidationError("the column name '\(name)' is a field of --fields: choose another")
        }
        texts = unnamed
        if query.explain {
            // Every argument is a query here: --explain reads no input.
            // Format arguments are checked only when some are given.
            let all = query.wheres + texts + paths
            let syntaxes = query.arguments.isEmpty ? try all.map(parse) : try compile(all).map(\.syntax)
            for syntax in syntaxes {
                try environment.output.write(syntax.explanation(options: query.queryOptions) + "\n")
            }
            try environment.output.flush()
            return 0
        }
        // --each's path takes the first format arguments, then --where's: they
        // are evaluated first, in that order.
        var compiled = try compile((query.each.map { [$0] } ?? []) + query.wheres + texts)
        let path = query.each == nil ? nil : compiled.removeFirst()
        let wheres = Array(compiled.prefix(query.wheres.count))
        var options = try searchOptions(queries: Array(compiled.dropFirst(wheres.count)), environment: environment)
        options.wheres = wheres
        if let path {
            if path.syntax.extraction != nil {
                throw ValidationError("--each takes a path to elements; '\(path.text)' gives values (it ends in @, @@, #, $ or \\…\\)")
            }
            options.each = path
        }
        options.columnNames = names
        // -c with a table (several columns, named ones, or fields) counts its distinct rows.
        options.countsByValue = mode.count && (options.queries.count > 1 || !names.isEmpty || input.fields != nil)
        if options.countsByValue && !mode.invert && names.contains("count") {
            throw ValidationError("the column name 'count' is the key of -c's counts: choose another")
        }
        if input.follow && paths.count > 1 { throw ValidationError("--follow follows one file") }
        return try search(options, paths: paths, in: environment)
    }

    /// Searches `paths` with `options`, then gives a hint if nothing was found;
    /// returns the exit status.
    private func search(_ options: SearchOptions, paths: [String], in environment: CommandEnvironment) throws -> Int32 {
        if environment.handlesSignals { Interruption.install(.search) }
        // (A relative --since or --until reads the inputs once for their last record's time.)
        let (resolved, standardInput) = options.resolvingRelativeBounds(paths: paths, standardInput: environment.standardInput)
        defer { if standardInput != environment.standardInput { close(standardInput) } }
        let searcher = Searcher(options: resolved, sink: resolved.makeSink(output: environment.output),
                                diagnostics: environment.diagnostics, standardInput: standardInput,
                                output: environment.output)
        if givesHints { searcher.standardInputCopy = KeptInput() }
        do {
            try searcher.run(paths: paths)
        } catch OutputError.brokenPipe {
            // The reader went away (`stanzaq … | head -1`): what it read was found.
        } catch {
            environment.diagnostics.report(error.diagnostic)
            return 2
        }
        if givesHints && searcher.status == 1,
           let hint = searcher.noResultHint(paths: paths, compile: { text in try? compile([text]).first }) {
            environment.diagnostics.write(hint.line)
        }
        return searcher.status
    }

    /// Whether a search that finds nothing says what a near query would find
    /// (stanzaq(1), "No result"): not with `-q` (nothing is said), `-v` or `-L`
    /// (finding nothing is what they look for), `--unanswered` (every request
    /// answered), `--each` or `--follow`.
    private var givesHints: Bool {
        !mode.quiet && !mode.invert && !mode.filesWithoutMatch && !mode.unanswered && query.each == nil && !input.follow
    }

    /// The options given that mean nothing in the REPL, which takes only -a, -o/--json,
    /// --first, -N, --ns, --case-sensitive, --monal, --epoch, --pretty, --log, --xml,
    /// --direction and --fields (stanzaq(1), REPL).
    private var optionsNotForTheREPL: [String] {
        let given: [(Bool, String)] = [
            (!query.queries.isEmpty, "-e/--query"), (mode.quiet, "-q/--quiet"), (mode.count, "-c/--count"), (mode.select, "-s/--select"),
            (mode.invert, "-v/--invert"), (format.null, "-0/--null"), (format.join, "-j/--join"), (format.withFilename, "-H/--with-filename"),
            (format.stanzaNumber, "-n/--stanza-number"), (query.strict, "--strict"), (format.color != nil, "--color"),
            (format.lineBuffered, "--line-buffered"), (query.explain, "--explain"), (input.lineNumber, "--line-number"),
            (input.follow, "--follow"), (mode.filesWithMatches, "-l/--files-with-matches"),
            (mode.filesWithoutMatch, "-L/--files-without-match"), (mode.maxCount != nil, "-m/--max-count"),
            (mode.afterContext != nil, "-A/--after-context"), (mode.beforeContext != nil, "-B/--before-context"),
            (mode.context != nil, "-C/--context"), (mode.pair, "--pair"), (mode.unanswered, "--unanswered"), (input.recursive, "-r/--recursive"), (!input.globs.isEmpty, "-g/--glob"),
            (query.each != nil, "--each"), (!query.wheres.isEmpty, "--where"), (format.header, "--header"), (format.compact, "--compact"), (input.threads != nil, "--threads"), (input.stats, "--stats"),
            (format.redact != nil, "--redact"), (format.rewrite, "--rewrite"), (input.since != nil, "--since"), (input.until != nil, "--until"),
            (input.timeFormat != nil, "--time-format"),
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
        // A JSON row is one object of these keys and the columns (stanzaq(1), JSON).
        if let name = names.first(where: reservedColumnNames.contains) {
            throw ValidationError("the column name '\(name)' is a key of the records (\(reservedColumnNames.joined(separator: ", "))): choose another")
        }
        return (names, queries)
    }

    /// The keys that prefixes and fields give a JSON record, which no column may have.
    /// (`jid` is one only where `--fields` asks for it: a column named for the
    /// `jid` attribute of roster items is common.)
    static let reservedColumnNames = ["file", "stanza"] + LogFieldName.logged.map(\.key)

    /// The options of a search, from the command line and the terminal.
    private func searchOptions(queries: [Query], environment: CommandEnvironment) throws -> SearchOptions {
        let color = format.color ?? .auto
        let useColor = color == .always || (color == .auto && environment.stdoutIsTerminal && !environment.noColor)
        var options = SearchOptions(queries: queries)
        options.report = mode.report
        options.invert = mode.invert
        options.firstOnly = query.first
        options.strict = query.strict
        options.defaultNamespace = query.defaultNamespace
        options.format = format.format
        let colored = useColor && options.effectiveFormat != .json
        options.render = RenderOptions(epoch: format.epoch, pretty: format.pretty, highlight: colored ? .ansi : nil, compact: format.compact)
        options.colors = colored ? PrefixColors() : nil
        options.separator = format.null ? [0] : format.join ? [] : [UInt8(ascii: "\n")]
        options.header = format.header
        options.withFilename = format.withFilename || format.merge
        options.merge = format.merge
        options.withStanzaNumber = format.stanzaNumber
        options.namespaceAliases = query.queryOptions.namespaces
        options.fields = input.fieldNames
        options.input = input.inputKind
        (options.envelope, options.recognisesEnvelopes) = input.envelopeChoice
        options.direction = input.direction
        (options.since, options.until, options.timeZone) = input.timeBounds
        options.isoTimes = input.timeFormat == "iso"
        options.follow = input.follow
        environment.output.lineBuffered = format.lineBuffered || environment.stdoutIsTerminal || input.follow
        options.lineBuffered = environment.output.lineBuffered
        options.threads = input.threads ?? environment.processorCount
        options.readAll = input.readAll
        options.reportsStatistics = input.stats
        options.redaction = try format.redaction
        if let size = environment.partSize { options.parallel.partSize = size }
        options.parallel.reportsParts = environment.reportsParts
        options.directory = environment.directory
        options.recursive = input.recursive
        options.globs = try input.globFilter()
        options.maxCount = mode.maxCount
        options.context = mode.stanzaContext
        options.pairs = mode.pair
        options.unanswered = mode.unanswered
        return options
    }

    private func parse(_ text: String) throws(Diagnostic) -> QuerySyntax {
        do {
            let syntax = try QuerySyntax(parsing: text)
            if query.monal { try syntax.rejectExtensions() }
            return syntax
        } catch {
            throw Diagnostic("\(error)")
        }
    }

    /// Compiles the queries, which take the format arguments in order.
    private func compile(_ texts: [String]) throws(Diagnostic) -> [Query] {
        do {
            return try Query.compile(texts, arguments: query.arguments, options: query.queryOptions)
        } catch {
            throw Diagnostic("\(error)")
        }
    }
}
