#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Each stanza that has a result (or, inverted, none) printed whole (`-s`, `-v`).
final class StanzaSink: SearchSink {
    let formatter: RecordFormatter
    let output: Output
    let evaluation: Evaluation
    var needsWholeStanzas: Bool { true }
    var printsOnlyCountedStanzas: Bool { true }

    init(formatter: RecordFormatter, output: Output, invert: Bool) {
        self.formatter = formatter
        self.output = output
        evaluation = .test(invert: invert)
    }

    func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        try output.writeRecord {
            formatter.writeStanza(file: stanza.file, stanza: stanza.number, source: stanza.source, element: element, into: &$0)
        }
    }

    func endStanza() throws(OutputError) { try output.endStanza() }
    func flush() throws(OutputError) { try output.flush() }
}
