import StanzaQuery

/// One row per stanza that has any result: the first result of each query,
/// tab-separated or as a JSON array (several queries, or `-o tsv`).
final class RowSink: SearchSink {
    let formatter: RecordFormatter
    let output: Output
    var evaluation: Evaluation { .rows }

    init(formatter: RecordFormatter, output: Output) {
        self.formatter = formatter
        self.output = output
    }

    func row(_ values: [QueryValue?], in stanza: StanzaPlace) throws(OutputError) {
        try output.writeRecord { formatter.writeRow(file: stanza.file, stanza: stanza.number, source: stanza.source, values: values, into: &$0) }
    }

    func endStanza() throws(OutputError) { try output.endStanza() }
    func flush() throws(OutputError) { try output.flush() }
}
