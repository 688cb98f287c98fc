#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// What a search does, decided once from the command line: which queries, how
/// their results count, and how they are printed.
public struct SearchOptions {
    /// What to print for the stanzas that have (or, with ``invert``, lack) results.
    public enum Report: Equatable, Sendable {
        /// The results (one record each, or one row per stanza).
        case results
        /// Each such stanza whole (`-s`).
        case stanzas
        /// How many there are (`-c`).
        case count
        /// Nothing; stop at the first one (`-q`).
        case quiet
        /// The names of the inputs that have one (`-l`), or, `without`, none (`-L`).
        case files(without: Bool)
    }

    public var queries: [Query]
    /// The names of the columns (`-e NAME=QUERY`), one per query; empty: unnamed.
    public var columnNames: [String] = []
    /// What selects the stanzas (or, with ``each``, the elements) the queries
    /// are evaluated on (`--where`): every one must have a result. The others
    /// give nothing, count for nothing (with ``invert`` too) and are shown only
    /// as context.
    public var wheres: [Query] = []
    /// The elements rows are read from (`--each PATH`): each query is evaluated
    /// on every element this selects in a stanza, one row per element.
    public var each: Query?
    /// A header row before the first row (`--header`).
    public var header = false
    public var report: Report = .results
    /// With ``Report/count``: count each distinct row (several columns, named
    /// columns or `--fields`) instead of the stanzas (``ValueCountSink``).
    public var countsByValue = false
    /// Count the stanzas without results instead (`-v`).
    public var invert = false
    /// Per stanza, only the first result of each query (`--first`).
    public var firstOnly = false
    /// Conversions must succeed on the whole value (`--strict`).
    public var strict = false
    /// The namespace of stanzas with none in scope (`-N`).
    public var defaultNamespace: String?
    /// `nil`: text for one query, TSV for several.
    public var format: OutputFormat?
    public var render = RenderOptions()
    /// What ends each record (`-0`, `-j`).
    public var separator: [UInt8] = [UInt8(ascii: "\n")]
    public var withFilename = false
    public var withStanzaNumber = false
    public var colors: PrefixColors?
    /// Write out at the end of every stanza.
    public var lineBuffered = false
    /// The prefixes `--ns` binds for the queries (they need no binding in the input).
    public var namespaceAliases: [String: String] = [:]
    /// The fields of stanzas read from a log to print with them (`--fields`, `--line-number`).
    public var fields: [LogFieldName] = []
    /// Give every stanza the JID bound in its session (``StanzaSource/jid``)
    /// even where ``fields`` does not name it: the REPL's loading, whose
    /// `:fields` may ask for it later.
    public var findsJIDs = false
    /// How to read the inputs (`--xml`, `--log[=FORMAT]`); `nil`: recognise each.
    public var input: InputKind?
    /// The envelope every input is in (`--envelope=NAME`); `nil`: recognised
    /// (unless ``recognisesEnvelopes`` is off: `--envelope=none`, `--xml`).
    public var envelope: Envelope?
    public var recognisesEnvelopes = true
    /// Only the stanzas a log shows going this way (`--direction`).
    public var direction: LogDirection?
    /// Only the stanzas a log shows at or after this time (`--since`).
    public var since: TimeBound?
    /// Only the stanzas a log shows at or before this time (`--until`).
    public var until: TimeBound?
    /// The zone of the times a log writes without an offset (`--tz`).
    public var timeZone = TimeZoneChoice.local
    /// Print a log's times as ISO 8601 in ``timeZone`` rather than as written (`--time-format=iso`).
    public var isoTimes = false
    /// Write the records of all inputs in the order of their stanzas' times, at
    /// the end (`--merge`, ``TimeOrder``).
    public var merge = false
    /// Follow the (one) file as it grows (`--follow`).
    public var follow = false
    /// Where relative paths are opened (`AT_FDCWD`: the working directory).
    public var directory: Int32 = AT_FDCWD
    /// Search the files under directory operands (`-r`).
    public var recursive = false
    /// Which files found under directories are searched (`-g`).
    public var globs = GlobFilter()
    /// Stop reading an input after this many stanzas that count (`-m`).
    public var maxCount: Int?
    /// With ``Report/stanzas``: the stanzas to print before and after each one
    /// (`-B`, `-A`, `-C`), with `--` between groups.
    public var context: StanzaContext?
    /// With ``Report/stanzas``: print the request or response of each iq (`--pair`).
    public var pairs = false
    /// With ``Report/stanzas``: print, at the end, only the selected iq requests
    /// that no response answers (`--unanswered`).
    public var unanswered = false
    /// How many threads search (`--threads`). 1: one thread, strictly in order.
    public var threads = 1
    /// How a search on several threads splits its inputs (``ParallelOptions``).
    public var parallel = ParallelOptions()
    /// Read every stanza (`--read-all`): no log records are skipped for lacking
    /// the literals every result needs (``Prefilter``).
    public var readAll = false
    /// Whether what the search read and found is written on standard error at
    /// its end (`--stats`, ``SearchStatistics``).
    public var reportsStatistics = false
    /// What is removed from every stanza as soon as it is read (`--redact`,
    /// ``Redactor``); `nil`: nothing, and no stanza is looked at for it.
    public var redaction: RedactionKinds?

    public init(queries: [Query]) {
        self.queries = queries
    }

    /// Whether the stanzas are given the JID bound in their session (the `jid` field).
    var tracksSessionJIDs: Bool { findsJIDs || fields.contains(.jid) }

    /// Whether the results make a table whatever the format: several queries,
    /// named columns, `--each` or `--header`.
    private var makesTable: Bool {
        queries.count > 1 || !columnNames.isEmpty || each != nil || header
    }

    /// The format results are printed in: as asked, else TSV for a table.
    public var effectiveFormat: OutputFormat {
        format ?? (makesTable ? .tsv : .text)
    }

    /// Whether results are printed as rows (one per stanza, or per element of
    /// `--each`): a table, or TSV.
    public var printsRows: Bool {
        makesTable || effectiveFormat == .tsv
    }

    /// The formatter for records.
    public var formatter: RecordFormatter {
        var formatter = RecordFormatter(format: effectiveFormat, render: render, separator: separator,
                                        withFilename: withFilename, withStanzaNumber: withStanzaNumber, colors: colors)
        formatter.fields = fields
        formatter.marksContext = report == .stanzas && (context != nil || pairs)
        formatter.columnNames = columnNames
        return formatter
    }

    /// The sink for this report: the one place the kind of output is chosen.
    public func makeSink(output: Output) -> any SearchSink {
        switch report {
        case .results where printsRows:
            return RowSink(formatter: formatter, output: output,
                           header: header ? formatter.headerRecord(queries: queries.map(\.text)) : nil)
        case .results: return ResultSink(formatter: formatter, output: output, firstOnly: firstOnly)
        case .stanzas where unanswered: return UnansweredSink(formatter: formatter, output: output, invert: invert)
        case .stanzas where pairs: return PairSink(formatter: formatter, output: output, invert: invert)
        case .stanzas:
            if let context { return ContextSink(formatter: formatter, output: output, invert: invert, context: context) }
            return StanzaSink(formatter: formatter, output: output, invert: invert)
        case .files(let without): return FileNameSink(formatter: formatter, output: output, invert: invert, without: without)
        case .count where countsByValue && !invert: return ValueCountSink(formatter: formatter, output: output)
        case .count: return CountSink(formatter: formatter, output: output, invert: invert)
        case .quiet: return QuietSink(invert: invert)
        }
    }
}

/// How many stanzas to print around each selected one (`-B`, `-A`, `-C`).
public struct StanzaContext: Equatable, Sendable {
    public var before: Int
    public var after: Int

    public init(before: Int, after: Int) {
        self.before = before
        self.after = after
    }
}
