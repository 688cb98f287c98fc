#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// `-c` with several columns, named columns or `--fields`: each distinct row
/// once, with how many times it came, as `sort | uniq -c` would count them but
/// in the order rows first came (so that the output is the same with any number
/// of threads): `42<TAB>in<TAB>message<TAB>chat`, or in JSON the row's object
/// (an array: `{"count":42,"value":[…]}`) with `count` first. One table for all
/// the inputs, or one per input with `-H`, its name first.
final class ValueCountSink: SearchSink {
    let formatter: RecordFormatter
    let output: Output
    var evaluation: Evaluation { .rows }
    /// Lays rows out as keys: no file or stanza prefixes (they would make every
    /// row distinct), no separator.
    private let rowFormatter: RecordFormatter
    /// The rows seen, in the order they first came, and how often each came.
    private var rows: [[UInt8]] = []
    private var counts: [[UInt8]: Int] = [:]

    init(formatter: RecordFormatter, output: Output) {
        self.formatter = formatter
        self.output = output
        var rowFormatter = formatter
        rowFormatter.withFilename = false
        rowFormatter.withStanzaNumber = false
        rowFormatter.colors = nil
        rowFormatter.separator = []
        self.rowFormatter = rowFormatter
    }

    func row(_ values: [QueryValue?], in stanza: StanzaPlace) throws(OutputError) {
        var row: [UInt8] = []
        if values.count == 1, let value = values[0], rowFormatter.columnNames.isEmpty, rowFormatter.format == .json {
            // One unnamed query with --fields: its value, as the command without -c prints it.
            rowFormatter.writeRecord(file: stanza.file, stanza: stanza.number, source: stanza.source, value: value, into: &row)
        } else {
            rowFormatter.writeRow(file: stanza.file, stanza: stanza.number, source: stanza.source, values: values, into: &row)
        }
        add(row, count: 1)
    }

    private func add(_ row: [UInt8], count: Int) {
        if let known = counts[row] {
            counts[row] = known + count
        } else {
            counts[row] = count
            rows.append(row)
        }
    }

    /// A part of the input read by another sink (a parallel search), in order.
    func absorb(_ other: any SearchSink) {
        guard let other = other as? ValueCountSink else { return }
        for row in other.rows { add(row, count: other.counts[row] ?? 0) }
    }

    func endInput(_ file: String, count: Int) throws(OutputError) {
        if formatter.withFilename { try writeTable(file: file) }
    }

    func endSearch(count: Int) throws(OutputError) {
        if !formatter.withFilename { try writeTable(file: nil) }
    }

    private func writeTable(file: String?) throws(OutputError) {
        for row in rows {
            try output.write(formatter.valueCountRecord(file: file, count: counts[row] ?? 0, row: row))
        }
        rows = []
        counts = [:]
    }

    func endStanza() throws(OutputError) { try output.endStanza() }
    func flush() throws(OutputError) { try output.flush() }
}
