#if canImport(StanzaXML)
import StanzaXML
#endif

/// Profanity's log (`profanity -l DEBUG`, ~/.local/share/profanity/logs/profanity.log).
/// src/log.c, `log_msg()`, writes every line as `TIME: AREA: LEVEL: MESSAGE`:
/// the local time of `g_date_time_format_iso8601` (`2024-01-05T12:00:00.123456+01`,
/// `Z` in UTC; in older versions `%d/%m/%Y %H:%M:%S`), the area, `DBG`, `INF`,
/// `WRN` or `ERR`. src/xmpp/connection.c,
/// `connection_init()`, gives libstrophe `_xmpp_file_logger` as its logger,
/// which hands libstrophe's own area and message to `log_msg()`: libstrophe's
/// `SENT: DATA` (area `conn`, the bytes written) and `RECV: STANZA` (area
/// `xmpp`, its re-serialisation of each stanza received, as in
/// ``LibstropheLogParser``), so both directions, at debug level. A stanza with
/// newlines goes on in lines without the prefix. Profanity's own lines (area
/// `prof`; `stderr`) are text, and so are the lines that go on after them:
/// `Input received: TEXT` logs every line typed, chat text included.
final class ProfanityLogParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let message = messageStart(line) else { return false }
        return line.has("conn: DBG: SENT: <", at: message) || line.has("xmpp: DBG: RECV: <", at: message)
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        guard let message = Self.messageStart(line) else {
            return ParsedLine(kind: .maybeMore, payload: 0..<line.contentEnd)
        }
        let direction: LogDirection
        if line.has("conn: DBG: SENT: ", at: message) { direction = .outgoing }
        else if line.has("xmpp: DBG: RECV: ", at: message) { direction = .incoming }
        else { return .text }
        var header = LineHeader(shape: .wholeStanzas)
        header.direction = direction
        header.time = 0..<(message - 2)
        return ParsedLine(record: header, payload: min(message + 17, line.contentEnd)..<line.contentEnd)
    }

    /// Where the area starts, after the ISO 8601 time and `: ` that start each
    /// of Profanity's lines; `nil` for a line without them.
    private static func messageStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        if let message = oldMessageStart(line) { return message }
        guard line.count > 20, line[10] == 0x54, let time = leadingTimestamp(in: line), time.upperBound > 19,
              let end = line.firstRange(of: ": ", from: time.upperBound) else { return nil }
        // Only the time's offset (`+01`, which leadingTimestamp leaves) before the `: `.
        for index in time.upperBound..<end.lowerBound where !(isASCIIDigit(line[index]) || line[index] == 0x2B
                                                               || line[index] == 0x2D || line[index] == 0x3A) {
            return nil
        }
        return end.upperBound
    }

    /// Where the area starts after the time older versions of Profanity wrote
    /// (`%d/%m/%Y %H:%M:%S`, `22/09/2016 05:04:19: `); `nil` for a line without it.
    private static func oldMessageStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let shape = Array("00/00/0000 00:00:00: ".utf8)
        guard line.count > shape.count else { return nil }
        for (index, byte) in shape.enumerated() where byte == 0x30 ? !isASCIIDigit(line[index]) : line[index] != byte {
            return nil
        }
        return shape.count
    }
}

// MARK: - The format

extension LogFormat {
    public static let profanity = LogFormat(ProfanityLogParser.self)
}

extension ProfanityLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "profanity"
    /// Before slixmpp's, whose `RECV: <` its received lines hold; no other
    /// format's lines have its prefix, nor it theirs.
    static let detectionRank: Int? = 3
    static func makeParser() -> any LogLineParser { ProfanityLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true
}
