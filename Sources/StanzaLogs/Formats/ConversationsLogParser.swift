#if canImport(StanzaXML)
import StanzaXML
#endif

/// Conversations' logcat lines. Conversations logs a stanza only in
/// XmppConnection's `processPacket` (received stanzas, nothing it sends), and
/// only in builds with `Config.BACKGROUND_STANZA_LOGGING` (false in its
/// releases): `Log.d(Config.LOGTAG, "[background stanza] " + element)`, with
/// the tag `conversations`. The stanza is printed by its Element's `toString`
/// (attributes double-quoted, the stream's namespace not repeated on the
/// stanza: it is `jabber:client`). logcat puts its prefix on every line of a
/// message, so a stanza whose text has newlines goes on in lines of the same
/// tag; lines of other tags between them are skipped.
final class ConversationsLogParser: LogLineParser {
    private static let marker: StaticString = "[background stanza] "
    /// The logcat tag of the last record: a line of another tag is not its continuation.
    private var tag: [UInt8]?

    var handover: LogParserState? { LogParserState(values: tag.map { [$0] } ?? []) }

    func resume(from state: LogParserState) {
        tag = state.values.first
    }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.firstRange(of: "[background stanza] <") != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        let logcat = LogcatPrefix(line)
        guard let found = line.firstRange(of: Self.marker) else {
            if let logcat, Array(line[logcat.tag]) != tag { return ParsedLine(kind: .unrelated, payload: 0..<0) }
            return ParsedLine(kind: .maybeMore, payload: (logcat?.message ?? 0)..<end)
        }
        tag = logcat.map { Array(line[$0.tag]) }
        let start = line.skippingBlanks(from: found.upperBound)
        guard start < end, line[start] == 0x3C else { return .text }
        var header = RecordHeader(shape: .wholeStanzas)
        header.direction = .incoming
        if let time = logcat?.time ?? leadingTimestamp(in: line) { header.setTime(line, time) }
        return ParsedLine(record: header, payload: found.upperBound..<end)
    }
}

// MARK: - The format

extension LogFormat {
    public static let conversations = LogFormat(ConversationsLogParser.self)
}

extension ConversationsLogParser: CuttableLogFormat {
    static let name = "conversations"
    static let detectionRank: Int? = 8
    static func makeParser() -> any LogLineParser { ConversationsLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true

    /// A part starts at a record after a record, whose logcat tag is the one a
    /// further line of a stanza must have.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard LogFormat.conversations.mayStartRecordPart(at: line, after: previous), previous.firstRange(of: marker) != nil else { return nil }
        return LogParserState(values: LogcatPrefix(previous).map { [Array(previous[$0.tag])] } ?? [])
    }
}
