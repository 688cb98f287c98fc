#if canImport(StanzaXML)
import StanzaXML
#endif

/// Follows the depth of a stanza through lines of a log read as its text, tag by
/// tag (comments, CDATA sections and processing instructions skipped): whether
/// the lines close the stanza. A log reader asks it when a line that looks like
/// a record comes while a stanza is open in a log whose record prefix has no
/// time stamp (stanzaq(1), LOGS, "Records").
///
/// Only tags are counted, not checked: the stanza's reader checks them when the
/// lines are read as its text.
struct StanzaCloseScan {
    /// Elements open: the stanza's, at first; 0 once it is closed.
    private(set) var depth: Int
    private enum Place { case text, tag(start: Bool, slash: Bool, quote: UInt8?), skipping(end: [UInt8], matched: Int) }
    private var place = Place.text
    /// The bytes of a `<!` or `<?` opening seen so far (to tell a comment from CDATA).
    private var opening: [UInt8] = []

    init(depth: Int) {
        self.depth = depth
    }

    /// Reads the next line (a line break before it); true once the stanza is closed.
    mutating func read(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line {
            step(byte)
            if depth <= 0 { return true }
        }
        step(0x0A)
        return depth <= 0
    }

    private mutating func step(_ byte: UInt8) {
        switch place {
        case .text:
            if !opening.isEmpty {
                opening.append(byte)
                decideOpening()
            } else if byte == 0x3C {
                opening = [byte]
            }
        case .tag(let start, let slash, let quote):
            if let quote {
                if byte == quote { place = .tag(start: start, slash: false, quote: nil) }
            } else if byte == 0x22 || byte == 0x27 {
                place = .tag(start: start, slash: false, quote: byte)
            } else if byte == 0x3E {
                if start && !slash { depth += 1 } else if !start { depth -= 1 }
                place = .text
            } else {
                place = .tag(start: start, slash: byte == 0x2F, quote: nil)
            }
        case .skipping(let end, let matched):
            let next = byte == end[matched] ? matched + 1 : (byte == end[0] ? 1 : 0)
            place = next == end.count ? .text : .skipping(end: end, matched: next)
        }
    }

    /// What follows a `<`: a start or end tag, or something skipped to its end.
    private mutating func decideOpening() {
        let second = opening[1]
        if second == 0x2F { place = .tag(start: false, slash: false, quote: nil); opening = []; return }
        if second == 0x3F { place = .skipping(end: [0x3F, 0x3E], matched: 0); opening = []; return }
        if second != 0x21 {
            if isXMLSpace(second) || second == 0x3C { opening = second == 0x3C ? [0x3C] : []; return }   // a `<` in text: damage, not a tag
            place = .tag(start: true, slash: false, quote: nil)
            opening = []
            return
        }
        // `<!--` or `<![CDATA[`; anything else after `<!` ends at `>`.
        if opening.count == 3 && opening[2] == 0x5B {
            place = .skipping(end: Array("]]>".utf8), matched: 0)
        } else if opening.count == 3 && opening[2] != 0x2D || opening.count == 4 && opening[3] != 0x2D {
            place = .skipping(end: [0x3E], matched: 0)
        } else if opening.count == 4 {
            place = .skipping(end: Array("-->".utf8), matched: 0)
        } else {
            return
        }
        opening = []
    }
}
