#if canImport(StanzaXML)
import StanzaXML
#endif

/// ejabberd's log. The XMPP library ejabberd uses (processone/xmpp,
/// src/xmpp_socket.erl) logs every read and write of a stream:
/// `?dbg("(~s) Send XML on stream = ~p", [pp(SocketData), Data])` in `send/2`
/// and `send_xml/2`, `?dbg("(~s) Received XML on stream = ~p", …)` in `parse/2`,
/// where `pp/1` is `"~s|~w"` of the transport and the receiving process
/// (`tls|<0.1234.0>`). ejabberd's logger (src/ejabberd_logger.erl,
/// `file_template/0`) writes `TIME [LEVEL] PID MESSAGE`, with `~p` wrapping a
/// long term onto further lines. Older ejabberd (ejabberd_receiver.erl) wrote
/// the same message without the `(…)` part; its session is then the process id.
/// Older still (ejabberd_receiver.erl, and MongooseIM 2's), `Received XML on
/// stream = "~s"` wrote the data as it was read between quotes, its quotes
/// not escaped and its newlines as they are: such a record (``rawData(_:from:)``)
/// goes on in the lines after it up to the next line with a time stamp.
final class EjabberdLogParser: LogLineParser {
    private var decoder = ErlangTermDecoder()
    /// In a record of raw data: its lines go on up to one with a time stamp.
    private var raw = false
    /// Outside a term, every line is read as a new parser reads it: an indented
    /// line continues nothing, any other starts afresh.
    var isAtRest: Bool { !decoder.isInsideTerm && !raw }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.firstRange(of: " XML on stream = ") != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        if raw {
            if leadingTimestamp(in: line) == nil { return ParsedLine(kind: .more, payload: Self.rawData(line, from: 0)) }
            raw = false
        }
        // `~p` indents the lines a term is wrapped onto: a line that is not indented
        // ends a term left open (a log cut or garbled), and is read as itself.
        if decoder.isInsideTerm && line.count > 0 && isXMLSpace(line[0]) {
            let (bytes, _) = decoder.decode(line, from: 0)
            return ParsedLine(kind: .more, payload: line.skippingBlanks(from: 0)..<line.count, decoded: bytes)
        }
        decoder.start()
        guard let marker = line.firstRange(of: " XML on stream = ") else { return .text }
        var header = RecordHeader()
        if marker.lowerBound >= 8, line.has("Received", at: marker.lowerBound - 8) {
            header.direction = .incoming
        } else if marker.lowerBound >= 4, line.has("Send", at: marker.lowerBound - 4) {
            header.direction = .outgoing
        } else {
            return .text
        }
        header.session = Self.session(line, before: marker.lowerBound)
        if let time = leadingTimestamp(in: line) { header.setTime(line, time) }
        header.shape = .stream
        if Self.isRawData(line, from: marker.upperBound) {
            raw = true
            return ParsedLine(record: header, payload: Self.rawData(line, from: marker.upperBound + 1))
        }
        decoder.start()
        let (bytes, _) = decoder.decode(line, from: marker.upperBound)
        return ParsedLine(record: header, payload: marker.upperBound..<line.count, decoded: bytes)
    }

    /// Whether the data at `start` is raw (`"~s"`): a quote, then a quote that is
    /// not escaped before the line's last byte, or none (`~p` writes `\"` and
    /// ends a string on its line).
    private static func isRawData(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        let end = line.contentEnd
        guard start < end, line[start] == 0x22 else { return false }
        var index = start + 1
        while index < end, line[index] != 0x22 { index += line[index] == 0x5C ? 2 : 1 }
        return index < end ? index < end - 1 : true
    }

    /// A line of raw data from `start`, without the quote that ends the record
    /// after a tag's `>`.
    private static func rawData(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int> {
        let end = line.contentEnd
        return start..<(end >= start + 2 && line[end - 1] == 0x22 && line[end - 2] == 0x3E ? end - 1 : end)
    }

    /// The `(tls|<0.1234.0>)` before the message, or else the first process id on the line.
    private static func session(_ line: UnsafeBufferPointer<UInt8>, before marker: Int) -> String? {
        var close = marker - 1
        while close > 0, line[close] != 0x29 && line[close] != 0x20 { close -= 1 }   // back over "Received"/"Send"
        while close > 0, line[close] == 0x20 { close -= 1 }
        if close > 0, line[close] == 0x29 {
            var depth = 0, open = close
            while open >= 0 {
                if line[open] == 0x29 { depth += 1 } else if line[open] == 0x28 { depth -= 1; if depth == 0 { break } }
                open -= 1
            }
            if open >= 0 { return line.string((open + 1)..<close) }
        }
        var index = 0
        while let start = line.firstIndex(of: 0x3C, from: index), start < marker {
            if start + 1 < line.count, isASCIIDigit(line[start + 1]), let end = line.firstIndex(of: 0x3E, from: start), end < marker {
                return line.string(start..<(end + 1))
            }
            index = start + 1
        }
        return nil
    }
}

// MARK: - The format

extension LogFormat {
    public static let ejabberd = LogFormat(EjabberdLogParser.self)
}

extension EjabberdLogParser: SkippableLogFormat {
    static let name = "ejabberd"
    static let detectionRank: Int? = 1
    static func makeParser() -> any LogLineParser { EjabberdLogParser() }

    /// A record's data is a binary written by `~p` (``ErlangTermSpelling``),
    /// one line long unless written as numbers: a needle is in its string as
    /// `~p` writes it. The records a needle may be hidden in are read
    /// (``mustRead(_:_:)``): those that are not whole stanzas (a read of a
    /// socket that ended inside one, maybe inside a needle), and those written
    /// as numbers that hold a needle (a few in ten stanzas of a real log: any
    /// byte 0x80–0x9F makes numbers of a binary, and UTF-8 writes most
    /// characters past Latin-1 with one). Each term that ends a line is checked.
    /// A needle found in another message (ejabberd's debugging terms of the
    /// stanzas it routes) is not the data of a record. (The marks are a `>` that
    /// ends a line, the check wants `>>`: searched for by its two rarest bytes,
    /// `>>\n` was searched for by `>>`, which ejabberd's debugging terms hold
    /// far more often than lines end with `>`; checking those candidates was
    /// much of a selective search.)
    static let recordSpelling: RecordSpelling = RecordSpelling(
        spellings: { ErlangTermSpelling.spellings($0) },
        marks: [Array(">\n".utf8), Array(">\r\n".utf8)],
        mustRead: { mustRead($0, $1) },
        mayBeStanzaBytes: { mayBeStanzaBytes($0) })

    /// A part starts at a line that continues no term (every term `~p` wraps
    /// goes on in indented lines): a record, or another message, which the
    /// parser reads as text, holding nothing over it (so that a window ends
    /// after the record it is for). Not after a record that ends inside a
    /// stanza, as far as its tags tell (a read of a socket; a guess, as every
    /// part start is), nor after a record's term wrapped onto lines (numbers,
    /// strings) whose last byte is not a tag's end (likely the same). (Other
    /// messages' terms, which are wrapped too, are no stanza's.)
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard line.count > 0, !isXMLSpace(line[0]) else { return nil }
        let first = previous.skippingBlanks(from: 0)
        if let text = recordString(in: previous) {
            guard endsBetweenStanzas(text, escaped: true) else { return nil }
        } else if first > 0 && first < previous.count && (isASCIIDigit(previous[first]) || previous[first] == 0x22)
                    || previous.firstRange(of: " XML on stream = ") != nil {
            let end = previous.contentEnd
            let tail = UnsafeBufferPointer(rebasing: previous[max(0, end - 5)..<end])
            guard tail.has(">\">>", at: max(0, tail.count - 4)) || tail.has(",62>>", at: 0) || tail.has("<62>>", at: 0) else { return nil }
        }
        return carried
    }
}
