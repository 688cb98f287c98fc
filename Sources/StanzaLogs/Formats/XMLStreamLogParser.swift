#if canImport(StanzaXML)
import StanzaXML
#endif

/// The debug output of Perl's XML::Stream, the stream layer of Net::XMPP (and
/// Net::Jabber), as sendxmpp writes it with `-d` (on standard error).
/// XML/Stream.pm's `debug()` prints `XML::Stream: MESSAGE` and a line feed
/// (with `debugtime`, `[HH:MM:SS] ` before it); at debug level 1 `Send()` logs
/// `Send: (DATA)`, DATA the bytes it writes to the socket (a stream's header,
/// stanzas, `</stream:stream>`), and `Read()` logs `Read: buff(DATA)`, DATA
/// the bytes one `sysread` of the socket returned (a stream header with the
/// features after it, several stanzas, or part of one). A stanza with newlines
/// goes on in lines without the prefix, and the `)` that closes the message is
/// the last byte of the record's last line. Net::XMPP's own messages
/// (Net/XMPP/Debug.pm's `Log()`: `XMPP::Conn: SendXML: sent(…)`,
/// `CallBack: sid(…) received(…)`, parsed copies of the same stanzas) and the
/// program's (`sendxmpp: …`) are text, and so are the lines that go on after
/// them. A line starts a message when it starts with a logger's name: a Perl
/// package name (`XML::Stream`, `XMPP::Conn`) or `sendxmpp`, and `: `.
final class XMLStreamLogParser: LogLineParser {
    /// In a `Send:` or `Read:` record: its lines go on up to the next message.
    private var inRecord = false
    /// The record's line so far ended with `)`: the end of the message, unless
    /// the record goes on, when it was a byte of the data.
    private var heldParen = false
    var isAtRest: Bool { !inRecord }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = timeEnd(line)
        return line.has("XML::Stream: Send: (<", at: start) || line.has("XML::Stream: Read: buff(<", at: start)
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let start = Self.timeEnd(line)
        guard Self.startsMessage(line, at: start) else {
            guard inRecord else { return .text }
            let previous = heldParen
            let data = dataEnd(line, from: 0)
            heldParen = data.held
            // The `)` held from the line before was data: it goes back before the line break.
            guard previous else { return ParsedLine(kind: .more, payload: 0..<data.end) }
            return ParsedLine(kind: .more, payload: 0..<data.end, decoded: [0x29, 0x0A] + Array(line[0..<data.end]))
        }
        inRecord = false
        heldParen = false
        var header = RecordHeader(shape: .stream)
        let payload: Int
        if line.has("XML::Stream: Send: (", at: start) {
            header.direction = .outgoing
            payload = start + 20
        } else if line.has("XML::Stream: Read: buff(", at: start) {
            header.direction = .incoming
            payload = start + 24
        } else {
            return .text
        }
        if start > 0 { header.setTime(line, 1..<(start - 2)) }
        inRecord = true
        let data = dataEnd(line, from: payload)
        heldParen = data.held
        return ParsedLine(record: header, payload: payload..<data.end)
    }

    /// Where the data of a record's line ends: before a last `)`, which is held
    /// (the message's end, or data if the record goes on).
    private func dataEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, held: Bool) {
        let end = line.contentEnd
        let held = end > start && line[end - 1] == 0x29
        return (held ? end - 1 : end, held)
    }

    /// Where the message starts: after `[HH:MM:SS] ` (`debugtime`), or 0.
    private static func timeEnd(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        guard line.count > 11, line[0] == 0x5B, line[9] == 0x5D, line[10] == 0x20 else { return 0 }
        for index in 1..<9 where !(index % 3 == 0 ? line[index] == 0x3A : isASCIIDigit(line[index])) { return 0 }
        return 11
    }

    /// Whether a logger's name and `: ` start the line at `start`: a Perl
    /// package name (letters, digits, `_`, with at least one `::`) or `sendxmpp`.
    private static func startsMessage(_ line: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        if line.has("sendxmpp: ", at: start) { return true }
        guard start < line.count, isASCIILetter(line[start]) else { return false }
        var index = start, package = false
        while index < line.count {
            let byte = line[index]
            if byte == 0x3A {
                if line.has(": ", at: index) { return package }
                guard line.has("::", at: index), index + 2 < line.count, isASCIILetter(line[index + 2]) else { return false }
                package = true
                index += 2
            } else if isASCIILetter(byte) || isASCIIDigit(byte) || byte == 0x5F {
                index += 1
            } else {
                return false
            }
        }
        return false
    }
}

// MARK: - The format

extension LogFormat {
    public static let xmlstream = LogFormat(XMLStreamLogParser.self)
}

extension XMLStreamLogParser: CuttableLogFormat {
    static let name = "xmlstream"
    static let detectionRank: Int? = 14
    static func makeParser() -> any LogLineParser { XMLStreamLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
}
