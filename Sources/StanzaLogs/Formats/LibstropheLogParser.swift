#if canImport(StanzaXML)
import StanzaXML
#endif

/// libstrophe's log, as its default logger writes it
/// (`xmpp_get_default_logger`, src/ctx.c: `AREA LEVEL MESSAGE`, no time). At
/// debug level src/conn.c logs every write as `conn DEBUG SENT: DATA` (the bytes
/// sent: whole stanzas, and the XML declaration with the stream's start), and
/// src/handler.c every stanza received as `xmpp DEBUG RECV: STANZA`, a
/// serialisation of libstrophe's own (xmpp_stanza_to_text: no inherited
/// namespace, `xml:lang` written `lang`). A stanza with newlines goes on in
/// lines without the prefix. A line trimmed by hand of its area
/// (`DEBUG SENT: <presence/>`, as pasted into a bug report) is read too.
final class LibstropheLogParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("conn DEBUG SENT: <") || line.has("xmpp DEBUG RECV: <")
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        var header = RecordHeader()
        header.shape = .wholeStanzas
        if line.has("conn DEBUG SENT: ") {
            header.direction = .outgoing
            return ParsedLine(record: header, payload: 17..<line.contentEnd)
        }
        if line.has("xmpp DEBUG RECV: ") {
            header.direction = .incoming
            return ParsedLine(record: header, payload: 17..<line.contentEnd)
        }
        if line.has("DEBUG SENT: <") || line.has("DEBUG RECV: <") {
            header.direction = line.has("DEBUG SENT: ") ? .outgoing : .incoming
            return ParsedLine(record: header, payload: 12..<line.contentEnd)
        }
        return ParsedLine(kind: .maybeMore, payload: 0..<line.contentEnd)
    }
}

// MARK: - The format

extension LogFormat {
    public static let libstrophe = LogFormat(LibstropheLogParser.self)
}

extension LibstropheLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "libstrophe"
    static let detectionRank: Int? = 3
    static func makeParser() -> any LogLineParser { LibstropheLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true
}
