import StanzaQuery

/// The REPL's state and commands (stanzaq(1), REPL), apart from line editing: it
/// takes whole lines and writes results, so the same code serves a terminal, a
/// script on standard input, and the tests.
public final class REPLSession {
    /// A loaded stanza: kept (pasted, or read from a stream that cannot be read
    /// again), or where it is in a file read lazily.
    enum LoadedStanza {
        case element(Element, source: String)
        case place(StanzaFile, Int)

        var source: String {
            switch self {
            case .element(_, let source): return source
            case .place(let file, _): return file.path
            }
        }
    }

    /// In load order: stanza N (as every command numbers them) is `stanzas[N - 1]`.
    private(set) var stanzas: [LoadedStanza] = []
    private(set) var current: Int? {
        didSet { cached = nil }
    }
    /// The current stanza, when it was read again from its file.
    private var cached: Element?
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

    /// The current stanza (read again from its file if need be; an error then is
    /// reported and gives `nil`).
    public var currentStanza: Element? {
        guard let current else { return nil }
        if let cached { return cached }
        let element = try? stanza(current)
        cached = element ?? nil
        return element ?? nil
    }

    /// Stanza `index` (from 0): nil after reporting why it could not be read again.
    func stanza(_ index: Int) throws(OutputError) -> Element? {
        switch stanzas[index] {
        case .element(let element, _):
            return element
        case .place(let file, let position):
            if index == current, let cached { return cached }
            do {
                let element = try file.element(at: position)
                if index == current { cached = element }
                return element
            } catch {
                try fail(error)
                return nil
            }
        }
    }

    /// Hands over the loaded stanzas from `first` (from 0) in order, reading lazily
    /// loaded files again from their start, until `body` returns false; a stanza
    /// that cannot be read again is reported and the rest of its file skipped.
    func forEachStanza(from first: Int = 0, _ body: (Int, Element) throws(OutputError) -> Bool) throws(OutputError) {
        var index = first
        while index < stanzas.count {
            switch stanzas[index] {
            case .element(let element, _):
                if try !body(index, element) { return }
                index += 1
            case .place(let file, let position):
                let base = index - position
                var goOn = true
                if let error = try file.forEach(from: position, { (position: Int, element: Element) throws(OutputError) -> Bool in
                    goOn = try body(base + position, element)
                    return goOn
                }) {
                    try fail(error)
                }
                if !goOn { return }
                index = base + file.places.count
            }
        }
    }

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
            if let stanza = session.currentStanza { try session.note("current: \(number) <\(stanza.qualifiedName)>") }
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

    // MARK: Loading

    /// Loads the stanzas of a file (or "-"); returns false after reporting an error.
    @discardableResult
    public func load(path: String) throws(OutputError) -> Bool {
        let fd = openat(directory, path.fileSystemPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            try fail(.opening(path, errno: errno))
            return false
        }
        Interruption.reading(fd)
        defer {
            Interruption.reading(-1)
            close(fd)
        }
        var info = stat()
        // A regular file can be read again: only where its stanzas are is kept.
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            let file = StanzaFile(path: path, directory: directory, defaultNamespace: defaultNamespace)
            var places: [StanzaByteRange] = []
            var last: Element?
            var found = Set<String>()
            var reader: StanzaReader!
            reader = StanzaReader(defaultNamespace: defaultNamespace) { element in
                if let place = reader.currentPlace { places.append(place) }
                Completion.collectNamespaces(of: element, into: &found)
                last = element
                return true
            }
            var failure: (any Error)?
            do { try reader.read(fileDescriptor: fd) } catch { failure = error }
            file.seal(info, places: places)
            // Read again only what the offsets give back as it was read: not gzip
            // (offsets in its decompressed bytes), and the last stanza the same.
            if !reader.isCompressedInput, places.count == reader.stanzaCount,
               let last, let again = try? file.element(at: places.count - 1),
               XMLSerializer().string(for: again) == XMLSerializer().string(for: last) {
                if let failure { try fail(.reading(path, failure)) }
                let first = stanzas.count
                stanzas.reserveCapacity(first + places.count)
                for position in places.indices { stanzas.append(.place(file, position)) }
                namespaces.formUnion(found)
                current = stanzas.count - 1
                cached = last
                _ = first
                return failure == nil
            }
            if places.isEmpty && failure == nil { return true }
            // Otherwise the stanzas are kept: read the file again from its start.
            guard lseek(fd, 0, SEEK_SET) == 0 else {
                if let failure { try fail(.reading(path, failure)) }
                return false
            }
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
            stanzas.append(.element(element, source: source))
            namespaces.formUnion(Completion.namespaces(element))
        }
        if !elements.isEmpty { current = stanzas.count - 1 }
    }

    private func noteLoaded(_ count: Int, current: Int) throws(OutputError) {
        try note("loaded \(count) stanza\(count == 1 ? "" : "s"); current: \(current + 1) <\(currentStanza?.qualifiedName ?? "?")>")
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
        try evaluate(trimmed, all: false)
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
        try forEachStanza { (index: Int, element: Element) throws(OutputError) -> Bool in
            if Interruption.isRequested { return false }
            let mark = index == current ? "*" : " "
            let details = ["id", "from", "type"].compactMap { key in
                element.attribute(key).map { "\(key)=\($0)" }
            }.joined(separator: " ")
            try say("\(mark) \(index + 1)\t<\(element.qualifiedName)>" + (details.isEmpty ? "" : "\t" + details))
            return true
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

    /// Evaluates a query on the current stanza, or with `all` on every stanza (with
    /// the file and stanza number before each result).
    private func evaluate(_ text: String, all prefixes: Bool) throws(OutputError) {
        let query: Query
        do {
            // The session's arguments serve every query: each takes the ones it has specifiers for.
            let syntax = try QuerySyntax(parsing: text)
            query = try Query(syntax: syntax, arguments: Array(arguments.prefix(syntax.formatSpecifierCount)), options: options)
        } catch {
            try fail(Diagnostic("\(error)"))
            return
        }
        let formatter = RecordFormatter(format: format, render: render, withFilename: prefixes, withStanzaNumber: prefixes)
        var any = false
        var interrupted = false
        let each = { [self] (index: Int?, element: Element) throws(OutputError) -> Bool in
            // Ctrl-C ends `:all` between stanzas, as it ends a search (on a terminal
            // the output is line-buffered: what was found so far is shown, no more).
            if Interruption.isRequested {
                interrupted = true
                return false
            }
            let source = index.map { stanzas[$0].source } ?? "", number = index.map { $0 + 1 } ?? 0
            let results: [QueryValue]
            do {
                results = firstOnly ? (try query.findFirst(in: element)).map { [$0] } ?? [] : try query.find(in: element)
            } catch {
                let message = "query '\(text)': \(error)"
                try fail(index == nil ? Diagnostic(message) : Diagnostic(.stanza(file: source, number: number), message))
                return true
            }
            for value in results {
                any = true
                try output.writeRecord {
                    if format == .tsv {
                        formatter.writeRow(file: source, stanza: number, values: [value], into: &$0)
                    } else {
                        formatter.writeRecord(file: source, stanza: number, value: value, into: &$0)
                    }
                }
            }
            try output.endStanza()
            return true
        }
        if prefixes {
            try forEachStanza { (index: Int, element: Element) throws(OutputError) -> Bool in try each(index, element) }
        } else {
            guard current != nil else { _ = try noStanza(); return }
            guard let element = currentStanza else { return }
            _ = try each(nil, element)
        }
        if interrupted { try note("(interrupted)") }
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
            let count = buffer.withUnsafeMutableBytes { systemRead(fileDescriptor, $0.baseAddress, $0.count) }
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
                let line = FileNames.decode(pending[start..<end])   // a :load name may not be UTF-8
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
