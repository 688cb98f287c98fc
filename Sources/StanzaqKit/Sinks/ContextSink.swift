#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Each stanza that counts printed whole, with the stanzas before and after it
/// (`-s` with `-B`, `-A`, `-C`). Memory stays bounded: only the last `before`
/// stanzas are kept, in a ring.
final class ContextSink: SearchSink {
    let evaluation: Evaluation
    let context: StanzaContext
    var needsWholeStanzas: Bool { true }
    var wantsMoreStanzas: Bool { afterLeft > 0 }

    private let groups: StanzaGroups
    /// The last stanzas that did not count, oldest first: (ordinal, stanza, place).
    private var ring: [(Int, Element, StanzaPlace)] = []
    private var ringStart = 0
    /// How many stanzas after the last one that counted are still to be printed.
    private var afterLeft = 0
    /// The ordinal of the stanza being shown (from 1 in each input).
    private var ordinal = 0

    init(formatter: RecordFormatter, output: Output, invert: Bool, context: StanzaContext) {
        groups = StanzaGroups(formatter: formatter, output: output)
        self.context = context
        evaluation = .test(invert: invert)
        // Not more: -B 1000000000 must not allocate before a stanza is read.
        ring.reserveCapacity(min(context.before, 1024))
    }

    func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        ordinal += 1
        for index in 0..<ring.count {
            let (number, before, place) = ring[(ringStart + index) % ring.count]
            try groups.print(before, in: place, ordinal: number, context: true)
        }
        ring.removeAll(keepingCapacity: true)
        ringStart = 0
        try groups.print(element, in: stanza, ordinal: ordinal, context: false)
        afterLeft = context.after
    }

    func passed(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        ordinal += 1
        if afterLeft > 0 {
            afterLeft -= 1
            try groups.print(element, in: stanza, ordinal: ordinal, context: true)
        } else if context.before > 0 {
            if ring.count < context.before {
                ring.append((ordinal, element, stanza))
            } else {
                ring[ringStart] = (ordinal, element, stanza)
                ringStart = (ringStart + 1) % ring.count
            }
        }
    }

    /// How many stanzas the sink holds (at most `before`).
    var heldStanzas: Int { ring.count }

    func endInput(_ file: String, count: Int) throws(OutputError) {
        ring.removeAll(keepingCapacity: true)
        ringStart = 0
        afterLeft = 0
        ordinal = 0
        groups.endInput()
    }

    func endStanza() throws(OutputError) { try groups.output.endStanza() }
    func flush() throws(OutputError) { try groups.output.flush() }
}
