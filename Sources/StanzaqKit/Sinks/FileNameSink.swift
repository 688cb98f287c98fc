import StanzaQuery

/// The names of the inputs that have a stanza that counts (`-l`), or that have
/// none (`-L`), as grep prints them: reading an input ends at its first such
/// stanza, and its name is printed once it has been searched.
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

    func endInput(_ file: String, count: Int) throws(OutputError) {
        guard (count == 0) == without else { return }
        try output.write(formatter.fileNameRecord(file))
        try output.endStanza()
    }

    func flush() throws(OutputError) { try output.flush() }
}
