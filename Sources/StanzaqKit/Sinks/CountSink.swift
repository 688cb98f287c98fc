#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The number of stanzas that have a result (or, inverted, none) (`-c`): one
/// total, or one count per input with `-H`. After Ctrl-C nothing is printed
/// for the input being read, as a count of part of it would be wrong.
final class CountSink: SearchSink {
    let formatter: RecordFormatter
    let output: Output
    let evaluation: Evaluation

    init(formatter: RecordFormatter, output: Output, invert: Bool) {
        self.formatter = formatter
        self.output = output
        evaluation = .test(invert: invert)
    }

    func endInput(_ file: String, count: Int) throws(OutputError) {
        if formatter.withFilename { try output.write(formatter.countRecord(file: file, count: count)) }
    }

    func endSearch(count: Int) throws(OutputError) {
        if !formatter.withFilename { try output.write(formatter.countRecord(file: nil, count: count)) }
    }

    func endStanza() throws(OutputError) { try output.endStanza() }
    func flush() throws(OutputError) { try output.flush() }
}
