#if canImport(StanzaXML)
import StanzaXML
#endif

/// What a page using Strophe.js (the XMPP library of Converse.js and other
/// web clients) logs of its connection, as Strophe.js's examples do
/// (strophe/strophejs, examples/main.js, restore.js, prebind.js: `rawInput`
/// logs `'RECV: ' + data`, `rawOutput` logs `'SENT: ' + data`). src/connection.ts
/// (`_dataRecv`) and src/transports/bosh.ts and websocket.ts hand those hooks
/// each BOSH body whole (`<body xmlns='http://jabber.org/protocol/httpbind' …>`
/// with the stanzas inside) or each WebSocket frame (RFC 7395's `<open/>`,
/// `<close/>`, one stanza a frame), as sent and as received: so a record is one
/// line `SENT: DATA` or `RECV: DATA`, without time or session, and a stanza with
/// newlines goes on in lines of its own. The bodies and the framing are read as
/// transport, the stanzas inside them as the stream's (stanzaq(1), INPUT).
final class StropheJSLogParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    private static let incoming = makeHeader(.incoming)
    private static let outgoing = makeHeader(.outgoing)

    private static func makeHeader(_ direction: LogDirection) -> RecordHeader {
        var header = RecordHeader()
        header.separatedByLineBreaks = true
        header.direction = direction
        return header
    }

    /// slixmpp's messages without a prefix start with `RECV: <` too, but never
    /// with `SENT: `.
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("SENT: <")
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        if line.has("SENT: ") { return ParsedLine(record: Self.outgoing, payload: min(6, end)..<end) }
        if line.has("RECV: ") { return ParsedLine(record: Self.incoming, payload: min(6, end)..<end) }
        return ParsedLine(kind: .maybeMore, payload: 0..<end)
    }
}

// MARK: - The format

extension LogFormat {
    public static let strophejs = LogFormat(StropheJSLogParser.self)
}

extension StropheJSLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "strophejs"
    /// Before slixmpp's, whose `RECV: <` its received lines are; its `SENT: <`
    /// only suggests it (a line of another program may start so), and the lines
    /// after decide (``FormatDetector``).
    static let detectionRank: Int? = 10
    static func makeParser() -> any LogLineParser { StropheJSLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true
    static let sharesItsMarker = true
}
