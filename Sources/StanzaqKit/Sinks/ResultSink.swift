#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// One record per result: the default output.
final class ResultSink: SearchSink {
    let formatter: RecordFormatter
    let output: Output
    let evaluation: Evaluation

    init(formatter: RecordFormatter, output: Output, firstOnly: Bool) {
        self.formatter = formatter
        self.output = output
        evaluation = .results(firstOnly: firstOnly)
    }

    func result(_ value: QueryValue, in stanza: StanzaPlace) throws(OutputError) {
        try output.writeRecord { formatter.writeRecord(file: stanza.file, stanza: stanza.number, source: stanza.source, value: value, into: &$0) }
    }

    func endStanza() throws(OutputError) { try output.endStanza() }
    func flush() throws(OutputError) { try output.flush() }
}
