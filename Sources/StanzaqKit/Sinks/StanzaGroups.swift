#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Prints whole stanzas in groups, as grep prints lines with context: `--`
/// between two stanzas that do not follow each other in their input (or that come
/// from different inputs), context stanzas marked (``RecordFormatter/marksContext``).
/// Stanzas are told apart by their ordinal: the how-manieth stanza of its input
/// the sink was shown.
final class StanzaGroups {
    let formatter: RecordFormatter
    let output: Output
    /// Whether anything was printed yet (in any input).
    private var printedAny = false
    /// The ordinal of the stanza printed last in this input.
    private(set) var lastPrinted: Int?

    init(formatter: RecordFormatter, output: Output) {
        self.formatter = formatter
        self.output = output
    }

    /// Prints a stanza; `follows`: the ordinal of a stanza it belongs with (an iq's
    /// partner), after which it needs no `--` either.
    func print(_ element: Element, in place: StanzaPlace, ordinal: Int, context: Bool, follows partner: Int? = nil) throws(OutputError) {
        if printedAny, let last = lastPrinted, last + 1 == ordinal || last == partner {
            // The same group.
        } else if printedAny {
            try output.write(formatter.groupSeparator())
        }
        printedAny = true
        lastPrinted = ordinal
        try output.writeRecord {
            formatter.writeStanza(file: place.file, stanza: place.number, source: place.source, element: element,
                                  context: context, into: &$0)
        }
    }

    /// A new input: nothing in it follows what was printed before.
    func endInput() {
        lastPrinted = nil
    }
}
