#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The names of the inputs that have a stanza that counts (`-l`), or that have
/// none (`-L`), as grep prints them: reading an input ends at its first such
/// stanza. `-l` prints the name at once (so that Ctrl-C, or a reader of a
/// followed file, never misses it); `-L` once the input has been read.
final class FileNameSink: SearchSink {
    let formatter: RecordFormatter
    let output: Output
    let evaluation: Evaluation
    /// `-L`: the inputs without one.
    let without: Bool
    var stanzasPerInput: Int? { 1 }

    init(formatter: RecordFormatter, output: Output, invert: Bool, without: Bool) {
        self.formatter = formatter
        self.output = output
        self.without = without
        evaluation = .test(invert: invert)
    }

    func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        guard !without else { return }
        try output.write(formatter.fileNameRecord(stanza.file))
    }

    func endInput(_ file: String, count: Int) throws(OutputError) {
        guard without && count == 0 else { return }
        try output.write(formatter.fileNameRecord(file))
        try output.endStanza()
    }

    func endStanza() throws(OutputError) { try output.endStanza() }

    func flush() throws(OutputError) { try output.flush() }
}
