#if canImport(StanzaXML)
import StanzaXML
#endif

/// aioxmpp's log, at DEBUG. aioxmpp/protocol.py logs the bytes of the stream,
/// not stanzas: `XMLStream.data_received` logs `self._logger.debug("RECV %r",
/// blob)`, each read of the socket, and `DebugWrapper._emit` logs
/// `self.logger.debug("SENT %r", b"".join(self._pieces))`, what was written
/// since the last flush (or once 4096 bytes are held), on the logger
/// `aioxmpp.XMLStream` (a child of the client's: `aioxmpp.node.Client.XMLStream`).
/// `%r` of bytes is a Python bytes literal on one line: `b'…'` (or `b"…"` when
/// the bytes hold a `'` and no `"`), with `\\`, `\'`, `\t`, `\n`, `\r` and
/// `\xHH` for every other byte outside printable ASCII (so UTF-8 as its
/// bytes, `\xc3\xa9` for é), which the parser undoes. A stanza may end in a
/// later record of its direction, and one record may hold several. During
/// SASL aioxmpp/sasl.py mutes the log (`xmlstream.mute()`): what it sends is
/// written `SENT b'<!-- some bytes omitted -->'`, a comment. The line prefix
/// is the program's Python logging format (`DEBUG:aioxmpp.XMLStream:` by
/// default); aioxmpp's other lines are text.
final class AioxmppLogParser: LogLineParser {
    /// It keeps nothing from one line to the next: every record is one line.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let found = marker(line) else { return false }
        return found.payload < line.contentEnd && line[found.payload] == 0x3C
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        guard let found = Self.marker(line) else { return .text }
        var header = LineHeader(shape: .stream)
        header.direction = found.direction
        header.time = leadingTimestamp(in: line)
        var end = line.contentEnd
        if end > found.payload, line[end - 1] == found.quote { end -= 1 }
        return ParsedLine(record: header, payload: found.payload..<end, decoded: Self.unescaped(line, found.payload..<end))
    }

    /// `SENT b'` or `RECV b'` (or with `"`) at the start of the message, after
    /// the prefix: where the bytes start, and the literal's quote.
    private static func marker(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, payload: Int, quote: UInt8)? {
        for (needle, direction) in [("SENT b" as StaticString, LogDirection.outgoing), ("RECV b", .incoming)] {
            guard let range = line.firstRange(of: needle), range.upperBound < line.count else { continue }
            let before = range.lowerBound == 0 ? 0x20 : line[range.lowerBound - 1]
            let quote = line[range.upperBound]
            if (before == 0x20 || before == 0x3A || before == 0x09) && (quote == 0x27 || quote == 0x22) {
                return (direction, range.upperBound + 1, quote)
            }
        }
        return nil
    }

    /// The bytes a Python bytes literal's text stands for. An escape Python does
    /// not know is kept as written, backslash and all, as Python keeps it.
    static func unescaped(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = line[index]
            guard byte == 0x5C, index + 1 < range.upperBound else {
                bytes.append(byte)
                index += 1
                continue
            }
            let next = line[index + 1]
            index += 2
            switch next {
            case 0x6E: bytes.append(0x0A)                                  // \n
            case 0x74: bytes.append(0x09)                                  // \t
            case 0x72: bytes.append(0x0D)                                  // \r
            case 0x5C, 0x27, 0x22: bytes.append(next)                      // \\ \' \"
            case 0x78 where index + 2 <= range.upperBound:                 // \xHH
                if let high = hexValue(line[index]), let low = hexValue(line[index + 1]) {
                    bytes.append(high << 4 | low)
                    index += 2
                } else {
                    bytes += [0x5C, next]
                }
            default: bytes += [0x5C, next]
            }
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        case 0x41...0x46: return byte - 0x41 + 10
        default: return nil
        }
    }
}

// MARK: - The format

extension LogFormat {
    public static let aioxmpp = LogFormat(AioxmppLogParser.self)
}

extension AioxmppLogParser: CuttableLogFormat {
    static let name = "aioxmpp"
    /// Its marker (`SENT b'<`, `RECV b"<`) is no other format's.
    static let detectionRank: Int? = 4
    static func makeParser() -> any LogLineParser { AioxmppLogParser() }
    /// The stream header is in the log, but a part read on its own starts after it.
    static let streamNamespace: StaticString? = "jabber:client"
}
