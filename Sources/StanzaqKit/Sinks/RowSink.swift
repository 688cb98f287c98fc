#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// One row per stanza (or, with `--each`, per element) that has any result:
/// the first result of each query, tab-separated, or as a JSON array, or an
/// object keyed by the columns' names (several queries, named columns,
/// `--each`, or `-o tsv`); `--header` first.
final class RowSink: SearchSink {
    let formatter: RecordFormatter
    let output: Output
    var evaluation: Evaluation { .rows }
    /// The header record, until it is written before the first row.
    private var header: [UInt8]?

    init(formatter: RecordFormatter, output: Output, header: [UInt8]?) {
        self.formatter = formatter
        self.output = output
        self.header = header
    }

    func row(_ values: [QueryValue?], in stanza: StanzaPlace) throws(OutputError) {
        if let header {
            self.header = nil
            try output.write(header)
        }
        try output.writeRecord { formatter.writeRow(file: stanza.file, stanza: stanza.number, source: stanza.source, values: values, into: &$0) }
    }

    func endStanza() throws(OutputError) { try output.endStanza() }
    func flush() throws(OutputError) { try output.flush() }
}
