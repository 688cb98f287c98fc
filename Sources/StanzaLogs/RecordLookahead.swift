#if canImport(StanzaXML)
import StanzaXML
#endif

/// Lines held after a line that looks like a record came while a stanza was open,
/// in a log whose record prefix has no time stamp (stanzaq(1), LOGS, "Records"):
/// if, read as the open stanza's text, they close it within ``lineLimit`` lines
/// and ``byteLimit`` bytes, they are its text; otherwise the line starts a record,
/// and the stanza left open is damaged.
struct RecordLookahead {
    static let lineLimit = 64, byteLimit = 1 << 16

    enum Verdict {
        /// Still open: hold on.
        case undecided
        /// The first `count` lines held are text of the open stanza.
        case text(count: Int)
        /// The first line held starts a record.
        case record
    }

    private(set) var lines: [(number: Int, bytes: [UInt8])] = []
    private var bytes = 0
    private var scan: StanzaCloseScan

    /// Starts with the stanza `depth` elements deep.
    init(depth: Int) {
        scan = StanzaCloseScan(depth: depth)
    }

    /// Holds the next line and says what is known.
    mutating func hold(_ line: UnsafeBufferPointer<UInt8>, number: Int) -> Verdict {
        lines.append((number, Array(line)))
        bytes += line.count
        if scan.read(line) { return .text(count: lines.count) }
        return lines.count >= Self.lineLimit || bytes >= Self.byteLimit ? .record : .undecided
    }
}
