/// Monal's log. Monal/Classes/xmpp.m logs each stanza it sends in
/// `logStanza:withPrefix:` as `DDLogDebug(@"%@: %@", prefix, stanza)` with the
/// prefix `SEND` (or `IDEMPOTENT_SEND` for the stream's start), and each stanza
/// it receives as `DDLogInfo(@"RECV Stanza: %@", parsedStanza)`; a stanza is
/// printed by MLXMLNode's `description`, its `XMLString`. The line prefix is
/// CocoaLumberjack's (os_log in Console, or a text logger); SASL elements and
/// password changes are redacted by Monal and so not read.
final class MonalLogParser: LogLineParser {
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
        if let time = leadingTimestamp(in: line) { header.setTime(line, time) }
        return ParsedLine(record: header, payload: payload..<end)
    }
}
