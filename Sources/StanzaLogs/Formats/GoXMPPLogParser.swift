#if canImport(StanzaXML)
import StanzaXML
#endif

/// The debug output of go-xmpp (github.com/mattn/go-xmpp, `Options.Debug`;
/// go-sendxmpp's `--debug`): xmpp.go's `startStream` reads the stream through
/// `tee{c.conn, DebugWriter}`, whose `Read` writes the bytes of every read of
/// the socket to standard error and a line feed after them. So the log is
/// what the client received (``LogDirection/incoming``), each read a line
/// (with the line breaks of its own data), and nothing it sent; no prefix, no
/// time, no session. encoding/xml reads through a bufio.Reader of 4096 bytes:
/// a read ends where the server's data ran out (between stanzas: Prosody
/// writes each whole) or after 4096 bytes (a long stanza goes on in the next
/// read). The line break after a line is the tee's, not data, when the data
/// so far is between stanzas or the read has 4096 bytes; otherwise it is the
/// stanza's own (a body's newline). A line that starts between stanzas and not
/// with `<` is the program's own (Go's `log`: `2026/11/28 04:08:55 failed to
/// read from stdin`), text.
final class GoXMPPLogParser: LogLineParser {
    /// The size of encoding/xml's bufio.Reader: the longest read.
    static let readSize = 4096
    /// Elements open in the data so far (not counting the stream's root, so
    /// that a parser started at any stanza counts as one from the start), and
    /// where a tag is left open: inside it, in a quoted value (its quote), at a
    /// `/`, in the root's tags.
    private var depth = 0
    private var inTag = false
    private var quote: UInt8 = 0
    private var closing = false
    private var slash = false
    private var root = false
    /// Bytes of the current read so far, and whether the line break before
    /// the next line is data (the current read goes on over it).
    private var readBytes = 0
    private var breakIsData = false

    var isAtRest: Bool { !breakIsData && !isInsideStanza }

    private var isInsideStanza: Bool { inTag || depth > 0 }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        // A server's stream header as a client reads it: the declaration, the header with its id, on one line.
        line.has("<?xml ") && line.firstRange(of: "?><stream:stream ") != nil && line.firstRange(of: " id=") != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.count
        let continuing = breakIsData
        let midStanza = !continuing && isInsideStanza
        if !continuing && !midStanza {
            // A read that starts between stanzas: a record, or the program's own text.
            readBytes = 0
            guard end > 0, line[0] == 0x3C else { return .text }
        }
        scan(line)
        readBytes += end
        breakIsData = isInsideStanza && readBytes < Self.readSize
        if breakIsData { readBytes += 1 } else { readBytes = 0 }
        if continuing { return ParsedLine(kind: .more, payload: 0..<end) }
        if midStanza { return ParsedLine(kind: .more, payload: 0..<end, decoded: Array(line)) }
        var header = RecordHeader(shape: .stream)
        header.direction = .incoming
        return ParsedLine(record: header, payload: 0..<end)
    }

    /// Follows the tags of `line`: enough to tell whether the data ends between stanzas.
    private func scan(_ line: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < line.count {
            let byte = line[index]
            if !inTag {
                if byte == 0x3C {
                    let next = index + 1 < line.count ? line[index + 1] : 0
                    if next == 0x3F || next == 0x21 {   // `<?…?>`, `<!--…-->`: no element
                        index = (line.firstIndex(of: 0x3E, from: index) ?? line.count - 1) + 1
                        continue
                    }
                    (inTag, closing, slash) = (true, next == 0x2F, false)
                    root = line.has("stream:stream", at: index + (closing ? 2 : 1))
                }
            } else if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x27 || byte == 0x22 {
                quote = byte
            } else if byte == 0x3E {
                inTag = false
                // (An end tag of nothing open, in damaged data, leaves the count at 0.)
                if root { depth = 0 } else if closing { depth = max(0, depth - 1) } else if !slash { depth += 1 }
            } else {
                slash = byte == 0x2F
            }
            index += 1
        }
    }
}

// MARK: - The format

extension LogFormat {
    public static let goxmpp = LogFormat(GoXMPPLogParser.self)
}

extension GoXMPPLogParser: CuttableLogFormat {
    static let name = "goxmpp"
    static let detectionRank: Int? = 15
    static func makeParser() -> any LogLineParser { GoXMPPLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
}
