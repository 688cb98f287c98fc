#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The verdict on a part of an input read on its own (stanzaq(1),
/// "Parallelism"): whether its reader read it as one reader of the whole input
/// does, so that what it found is kept; else the input is read again another way.
extension InputSearch {
    /// How many stanzas of `part` counted, and whether it was read as one reader
    /// of the whole input reads it: a part of a log that depends on nothing
    /// before it and ends at a clean cut, a part of a stream that ends where the
    /// scanner said with as many stanzas.
    func partVerdict(_ part: PartOfInput) -> (count: Int, clean: Bool) {
        if let format = part.log {
            // Stopped by the search (-q): what was read up to there is right.
            if !searcher.goesOn(sink) { return (count, true) }
            guard let logReader else { return (count, false) }
            if part.endsInput, let enveloped = part.enveloped { warn(logReader.format, envelope: enveloped.envelope) }
            searcher.cutLog = logReader.cutLog
            // Read as one reader of the whole log reads it if its start depends on
            // nothing before (the part before ended at a clean cut) — stanza numbers
            // included, which a part after the first does not know — and the next
            // part can start afresh where it ends.
            let start = part.offset == 0 || (!logReader.dependsOnEarlierLines && !evaluator.reportedStanzaNumber)
            let endTrouble = part.endsInput ? nil : logReader.format != format ? "another format" : logReader.cleanCutTrouble
            if !start {
                searcher.cutLog?.trouble = logReader.dependsOnEarlierLines ? "its start depends on earlier lines" : "a stanza number"
            } else if let endTrouble {
                searcher.cutLog?.trouble = "its end (line \(logReader.currentLine)) is no clean cut: " + endTrouble
            }
            return (count, start && endTrouble == nil)
        }
        if part.silentThrough > 0, let envelopeReader {
            // The rest of an enveloped log, whose parts gave no warning.
            warned = false
            warn(envelopeReader.formats.first, envelope: envelopeReader.envelope)
        }
        guard let expected = part.stanzas else { return (count, true) }
        // Stopped by the search (-q): what was read up to there is right.
        if !searcher.goesOn(sink) { return (count, true) }
        let clean = xmlReader.map {
            part.sequence ? $0.isAfterSequenceElement : $0.isInsideStreamBetweenStanzas && $0.streamStartTag == part.header
        } ?? false
        return (count, clean && number - part.stanzasBefore == expected)
    }
}
