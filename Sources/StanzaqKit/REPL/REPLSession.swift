#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The REPL's state and commands (stanzaq(1), REPL), apart from line editing: it
/// takes whole lines and writes results, so the same code serves a terminal, a
/// script on standard input, and the tests.
public final class REPLSession {
    /// A loaded stanza: kept (pasted, or read from a stream that cannot be read
    /// again), or where it is in a file read lazily.
    enum LoadedStanza {
        /// `fields`: what the log it was read from says of it (line, time, direction…).
        case element(Element, source: String, fields: StanzaSource? = nil)
        case place(StanzaFile, Int)

        var source: String {
            switch self {
            case .element(_, let source, _): return source
            case .place(let file, _): return file.path
            }
        }

        /// The stanza's log fields; `nil` for XML.
        var fields: StanzaSource? {
            if case .element(_, _, let fields) = self { return fields }
            return nil
        }
    }

    /// In load order: stanza N (as every command numbers them) is `stanzas[N - 1]`.
    var stanzas: [LoadedStanza] = []
    var current: Int? {
        didSet { cached = nil }
    }
    /// The current stanza, when it was read again from its file.
    var cached: Element?
    public var arguments: [String] = []
    public var format: OutputFormat = .text
    /// How values are written (--epoch, --pretty).
    public var render = RenderOptions()
    public var firstOnly = false
    public var defaultNamespace: String?
    /// How files are read (`--xml`, `--log[=FORMAT]`); `nil`: recognised, as the command line does.
    public var input: InputKind?
    /// Only the stanzas a log shows going this way, for `:all` and `:list` (`:direction`, `--direction`).
    public var direction: LogDirection?
    /// Whether a stanza read from a log was loaded: `:all` then prints the log fields.
    var hasLogFields = false
    /// The fields `:all`, `:list` and `:show` print (`:fields`, `--fields`);
    /// `nil`: a log's line, time, direction and session once a log is loaded.
    public var fields: [LogFieldName]?
    /// The fields printed now.
    var shownFields: [LogFieldName] { fields ?? (hasLogFields ? LogFieldName.logged : []) }
    /// How queries are compiled (--case-sensitive, --monal).
    public var options = QueryOptions()
    /// The zone of a log's times written without one (`--tz`), for `:load --merge`.
    public var timeZone = TimeZoneChoice.local
    /// Where relative paths are opened.
    public var directory: Int32 = AT_FDCWD
    /// The environment variables (HOME, for `~` in file names).
    public var environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
    /// Whether any line failed (the exit status of a script).
    public internal(set) var failed = false
    /// XML being pasted over several lines, and what it gave so far.
    var pasteReader: StanzaReader?
    var pasted: [Element] = []
    var pasteCount = 0

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
    var namespaces = Set<String>()

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
        case .element(let element, _, _):
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
            case .element(let element, _, _):
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
