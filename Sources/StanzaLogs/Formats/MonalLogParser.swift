#if canImport(StanzaXML)
import StanzaXML
#endif

/// Monal's log. Monal/Classes/xmpp.m logs each stanza it sends in
/// `logStanza:withPrefix:` as `DDLogDebug(@"%@: %@", prefix, stanza)` with the
/// prefix `SEND` (or `IDEMPOTENT_SEND` for the stream's start), and each stanza
/// it receives as `DDLogInfo(@"RECV Stanza: %@", parsedStanza)`; a stanza is
/// printed by MLXMLNode's `description`, its `XMLString`. SASL elements and
/// password changes are redacted by Monal and so not read; `ADD UNACKED
/// STANZA:` and `NOT ADDING STANZA TO SEND QUEUE:` lines are not sent stanzas.
///
/// The line as text: Monal's UDP log server (UDPLogServer/server.py,
/// `formatLogline`) prints `COUNTER: TIME [ LEVEL] PROCESS [THREAD (QOS:NAME)]
/// FUNCTION at DIR/FILE:LINE: MESSAGE`, and MLLogFormatter.m writes the same
/// without `COUNTER: `; TIME is `yyyy-MM-dd HH:mm:ss:SSS` (HelperTools.m,
/// CocoaLumberjack's DDDispatchQueueLogFormatter). Console.app and `log show`
/// (os_log) put their own prefix first. The markers are found wherever the
/// line has them. (Monal's own log files, `*.rawlog`, are JSON records with a
/// binary length before each: not text, not read.)
final class MonalLogParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.firstRange(of: "RECV Stanza: <") != nil || line.firstRange(of: "IDEMPOTENT_SEND: <") != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        var header = RecordHeader()
        header.shape = .wholeStanzas
        let payload: Int
        if let found = line.firstRange(of: "RECV Stanza: ") {
            header.direction = .incoming
            payload = found.upperBound
        } else if let found = line.firstRange(of: "SEND: "),
                  found.lowerBound == 0 || line[found.lowerBound - 1] == 0x20 || line[found.lowerBound - 1] == 0x5F {
            header.direction = .outgoing
            payload = found.upperBound
        } else {
            return ParsedLine(kind: .maybeMore, payload: 0..<end)
        }
        // `SEND: redacted sasl element: auth`: no stanza.
        let start = line.skippingBlanks(from: payload)
        guard start < end, line[start] == 0x3C else { return .text }
        if let time = leadingTimestamp(in: line) ?? Self.timeAfterCounter(line) { header.setTime(line, time) }
        return ParsedLine(record: header, payload: payload..<end)
    }

    /// The time after the UDP log server's `COUNTER: `.
    private static func timeAfterCounter(_ line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var index = 0
        while index < line.count, isASCIIDigit(line[index]) { index += 1 }
        guard index > 0, line.has(": ", at: index) else { return nil }
        return leadingTimestamp(in: line, from: index + 2)
    }
}

// MARK: - The format

extension LogFormat {
    public static let monal = LogFormat(MonalLogParser.self)
}

extension MonalLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "monal"
    static let detectionRank: Int? = 7
    static func makeParser() -> any LogLineParser { MonalLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true
}
