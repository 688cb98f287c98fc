#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Reads every input, evaluates the queries on each stanza, and hands what it
/// finds to a ``SearchSink``: the searcher of ripgrep's searcher/sink split. It
/// decides what counts as a match and the exit status; the sink decides what
/// is printed.
public final class Searcher {
    public let options: SearchOptions
    public let sink: any SearchSink
    public let diagnostics: Diagnostics
    /// The descriptor read for the path `-`.
    public let standardInput: Int32
    /// Where what is read from standard input is kept, to search it again
    /// for a hint (``noResultHint(paths:compile:)``); `nil`: not kept.
    public var standardInputCopy: KeptInput?

    /// What evaluates the queries on every stanza, and knows what matched.
    let evaluator: StanzaEvaluator
    /// What redacts every stanza read (`--redact`); one for the whole run, so
    /// that a JID has one pseudonym in every input.
    let redactor: Redactor?
    /// Whether some stanza counted (had a result, or, inverted, none).
    public internal(set) var matched: Bool {
        get { evaluator.matched }
        set { evaluator.matched = newValue }
    }
    /// Whether an error was reported.
    public internal(set) var failed: Bool {
        get { evaluator.failed }
        set { evaluator.failed = newValue }
    }
    /// Whether a parallel search no longer wants what this searcher finds
    /// (checked between stanzas, as Ctrl-C is).
    var isCancelled: (() -> Bool)?
    /// The ledger of the last log reader that kept one (``LogReader/keepLedger()``).
    var ledger: LogLedger?
    /// What this searcher read and found (`--stats`).
    var statistics = SearchStatistics()
    /// When the search started (`--stats`).
    private let started = monotonicSeconds()
    /// What the last log reader left for the next (``LogReaderScratch``), when
    /// one searcher reads several stretches of a log one after the other.
    var logScratch: LogReaderScratch?

    /// Where `sink` writes: given, the search may run on several threads
    /// (``SearchOptions/threads``), the records of each input kept apart and
    /// written here in order.
    public let output: Output?

    public init(options: SearchOptions, sink: any SearchSink, diagnostics: Diagnostics, standardInput: Int32 = 0,
                output: Output? = nil) {
        self.options = options
        self.sink = sink
        self.output = output
        if options.merge { output?.timeOrder = TimeOrder() }
        self.diagnostics = diagnostics
        self.standardInput = standardInput
        evaluator = StanzaEvaluator(options: options, diagnostics: diagnostics)
        redactor = options.redaction.map(Redactor.init)
        unboundPrefixes = UnboundPrefixes(queries: options.queries + options.wheres, aliases: options.namespaceAliases)
    }

    /// The prefixes of prefixed names not yet seen bound in the input.
    @exclusivity(unchecked) var unboundPrefixes: UnboundPrefixes

    /// The exit status so far, as grep's: 0 something matched, 1 nothing, 2 an error
    /// (`-q` exits 0 once something matched, even after an error, as `grep -q` does);
    /// 130 after Ctrl-C.
    public var status: Int32 {
        if Interruption.isRequested { return Interruption.status }
        return sink.stopsAtFirstMatch && matched ? 0 : failed ? 2 : (matched ? 0 : 1)
    }

    /// Searches the inputs the operands name, in order ("-" is standard input; no
    /// operand: standard input, or with `-r` the working directory), then ends the
    /// search (a total count). Throws when the output cannot be written; ``status``
    /// still tells what was found until then.
    public func run(paths: [String]) throws(OutputError) {
        let walk = FileWalk(operands: paths, recursive: options.recursive, filter: options.globs, directory: options.directory)
        // One input named (or none: standard input) is worth threads only if a parallel search can split it.
        let single = options.recursive || paths.count > 1 ? nil : paths.first ?? "-"
        if let parallel = ParallelSearch(searcher: self, walk: walk, single: single) {
            try parallel.run()
            return
        }
        try run(walk)
    }

    /// Searches the inputs of `walk`, in its order.
    public func run(_ walk: some Sequence<WalkItem>) throws(OutputError) {
        try run(walk, sink: sink)
    }

    // Generic over the sink so that release builds call it directly.
    private func run<Sink: SearchSink>(_ walk: some Sequence<WalkItem>, sink: Sink) throws(OutputError) {
        var total = 0
        for item in walk {
            switch item {
            case .input(let path):
                let count = try search(path: path, sink: sink)
                statistics.noteInput(count: count)
                total += count
            case .unreadableDirectory:
                if let diagnostic = Self.diagnostic(for: item) { try evaluator.report(diagnostic, sink: sink) }
            }
            if sink.stopsAtFirstMatch && matched { return }
            // Ctrl-C: the records written so far are whole; a count would not be.
            if Interruption.isRequested {
                try sink.flush()
                try output?.writeInTimeOrder()
                return
            }
        }
        try sink.endSearch(count: total)
        if let printed = sink.printedCount { matched = printed > 0 }
        try sink.flush()
        try output?.writeInTimeOrder()
        unboundPrefixes.warnings.forEach(diagnostics.report)
        reportStatistics()
    }

    /// With `--stats`: what the search read and found, on standard error.
    func reportStatistics() {
        guard options.reportsStatistics else { return }
        statistics.lines(seconds: monotonicSeconds() - started).forEach(diagnostics.write)
    }

    /// What is reported for an item of the walk that cannot be searched.
    static func diagnostic(for item: WalkItem) -> Diagnostic? {
        switch item {
        case .input: return nil
        case .unreadableDirectory(let path, let code): return .opening(path, errno: code)
        }
    }

    /// Searches one input; returns how many of its stanzas counted.
    private func search<Sink: SearchSink>(path: String, sink: Sink) throws(OutputError) -> Int {
        try search(SearchedInput(path: path), sink: sink).count
    }

    /// Searches one input, from its start or from a place inside it; returns
    /// how many of its stanzas counted, and whether it was read cleanly
    /// (``InputSearch/run()``).
    func search<Sink: SearchSink>(_ input: SearchedInput, sink: Sink) throws(OutputError) -> (count: Int, clean: Bool) {
        try InputSearch(input, searcher: self, sink: sink).run()
    }

    /// Whether reading goes on after a stanza: checked between stanzas, so that
    /// output ends with a whole record.
    func goesOn<Sink: SearchSink>(_ sink: Sink) -> Bool {
        !(sink.stopsAtFirstMatch && matched) && !Interruption.isRequested && !(isCancelled?() ?? false)
    }
}
