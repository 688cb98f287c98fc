#if canImport(StanzaXML)
import StanzaXML
#endif

/// mcabber's trace log (`set tracelog_level = 3`, `set tracelog_file`): every
/// line `[YYYY-MM-DD HH:MM:SS] MESSAGE` (logprint.c, `scr_LogPrint` writing to
/// the trace log), and loudmouth's debug messages handed on by xmpp.c's
/// `lm_debug_handler` as `LM-NET: …`, `LM-VERBOSE: …`, one line each, without
/// the line feeds that start and end them. Loudmouth writes a block for what
/// it sends (lm-connection.c: `SEND:`, a line of `-`, the data, a line of `-`)
/// and for each read of the socket (lm-old-socket.c, `socket_in_event`:
/// `RECV [N]:`, a line of `-`, `'DATA'`, a line of `-`; a read is at most 1023
/// bytes, so a stanza may go on in the next). The data is the bytes as they
/// crossed the socket; with newlines it goes on in lines without the prefix,
/// and a read's closing quote ends its last line. mcabber's own messages are
/// text (`Unhandled IQ result? <iq …>`, `Executing FIFO command: say_to …`).
final class McabberLogParser: LogLineParser {
    /// The block announced (`SEND:` out, `RECV [N]:` in), its `-` line read or
    /// not, its data being read, and whether that data is quoted (a read's).
    private var announced: LogDirection?
    private var dashed = false
    private var inData = false
    private var quoted = false
    /// The data's line so far ended with `'`: the read's end, unless the data goes on.
    private var heldQuote = false

    var isAtRest: Bool { announced == nil && !inData }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let message = messageStart(line) else { return false }
        return line.has("LM-NET: SEND:", at: message) || line.has("LM-NET: RECV [", at: message)
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        guard let message = Self.messageStart(line) else { return inData ? continuation(line) : .text }
        inData = false
        if let direction = announced, dashed, line.has("LM-NET: ", at: message) {
            // The block's data: its first line.
            (announced, dashed, inData) = (nil, false, true)
            var start = message + 8
            if quoted && start < line.contentEnd && line[start] == 0x27 { start += 1 }
            var header = RecordHeader(shape: .stream)
            header.direction = direction
            header.setTime(line, 1..<(message - 2))
            return ParsedLine(record: header, payload: start..<dataEnd(line, from: start))
        }
        if announced != nil && !dashed && line.has("LM-NET: --", at: message) {
            dashed = true
            return .text
        }
        (announced, dashed) = (nil, false)
        if line.has("LM-NET: SEND:", at: message) && message + 13 == line.contentEnd {
            (announced, quoted) = (.outgoing, false)
        } else if line.has("LM-NET: RECV [", at: message) {
            (announced, quoted) = (.incoming, true)
        }
        return .text
    }

    /// A line of the data after its first: with a line break before it, and
    /// the quote held from the line before put back, which was data.
    private func continuation(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let previous = heldQuote
        let end = dataEnd(line, from: 0)
        guard previous else { return ParsedLine(kind: .more, payload: 0..<end) }
        return ParsedLine(kind: .more, payload: 0..<end, decoded: [0x27, 0x0A] + Array(line[0..<end]))
    }

    /// Where a line of the data ends: before a last `'` of a read's data, which
    /// is held (the read's end, or data if the next line goes on).
    private func dataEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let end = line.contentEnd
        heldQuote = quoted && end > start && line[end - 1] == 0x27
        return heldQuote ? end - 1 : end
    }

    /// Where the message starts, after `[YYYY-MM-DD HH:MM:SS] `; `nil` for a
    /// line without that prefix.
    private static func messageStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let shape = Array("[0000-00-00 00:00:00] ".utf8)
        guard line.count > shape.count else { return nil }
        for (index, byte) in shape.enumerated() where byte == 0x30 ? !isASCIIDigit(line[index]) : line[index] != byte {
            return nil
        }
        return shape.count
    }
}

// MARK: - The format

extension LogFormat {
    public static let mcabber = LogFormat(McabberLogParser.self)
}

extension McabberLogParser: CuttableLogFormat {
    static let name = "mcabber"
    static let detectionRank: Int? = 16
    static func makeParser() -> any LogLineParser { McabberLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"

    /// A part starts at a block's first line (`SEND:`, `RECV [N]:`), which a
    /// parser at rest reads as one after the block before does; a block that
    /// left a stanza open (a read that ended inside one) keeps the part from
    /// being kept, as the reader of the part before hands that on.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        recognises(line) ? carried : nil
    }
}
