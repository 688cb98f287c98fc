#if canImport(StanzaXML)
import StanzaXML
#endif

/// Tigase XMPP Server's log at `FINEST` for its connections (`tigase.xmpp.level
/// = FINEST`, or `tigase.xmpp.XMPPIOService`'s). tigase/tigase-server
/// src/main/java/tigase/util/log/LogFormatter.java, `format()`, writes
/// `[yyyy-MM-dd HH:mm:ss:SSS] [LEVEL   ] [    THREAD ] Class.method(): MESSAGE`
/// (columns padded by tigase-utils' `StringUtilities.padStringToColumn`), and
/// src/main/java/tigase/xmpp/XMPPIOService.java logs, with the service's
/// `toString()` (`jid: JID, XMPPIOService, UniqueId: ID, type: …, SocketIO,
/// ID: …, connected Socket[…]`) between brackets at the end:
///
/// - `processSocketData()`: `READ:{1} [{0}]`, the characters of one read of
///   the socket (a stanza may go on in the next read);
/// - `processWaitingPackets()`: `SENT: {1} [{0}]`, a stanza as tigase-xmltools'
///   `Element.toString()` writes it, after it was written to the socket;
/// - `xmppStreamOpened()`: `Sending data: {1} [{0}]`, the stream's header,
///   and `xmppStreamClosed()`: `Sending data: </stream:stream>, as socket is
///   still connected [{0}]`.
///
/// `Read packet:` and `Sending packet:` log the same stanzas again, parsed:
/// they are text here, as is every other line. Data with newlines goes on in
/// lines without the prefix, the service's brackets after its last line. The
/// session is the service's `UniqueId` (`LOCALIP_PORT_REMOTEIP_PORT`); a record
/// over several lines names it only at its end, and is given the connection
/// named last.
final class TigaseLogParser: LogLineParser {
    /// The connection named last, for a record that names it only at its end.
    private var connection: [UInt8]?

    var isAtRest: Bool { connection == nil }
    var handover: LogParserState? { LogParserState(values: connection.map { [$0] } ?? []) }

    func resume(from state: LogParserState) {
        connection = state.values.first
    }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        record(line) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        guard let found = Self.record(line) else {
            // A line of Tigase's is text; any other may go on with data.
            if Self.messageStart(line) != nil { return .text }
            let suffix = Self.suffix(line)
            if let id = suffix.id { connection = Array(line[id]) }
            return ParsedLine(kind: .maybeMore, payload: 0..<suffix.dataEnd)
        }
        var header = RecordHeader(shape: .stream)
        header.direction = found.direction
        let suffix = Self.suffix(line)
        if let id = suffix.id { connection = Array(line[id]) }
        if let connection { header.session = String(decoding: connection, as: UTF8.self) }
        header.setTime(line, 1..<24)
        let dataEnd = found.dataEnd ?? suffix.dataEnd
        return ParsedLine(record: header, payload: found.data..<max(found.data, min(dataEnd, end)))
    }

    /// Where the message starts after Tigase's prefix (`…(): `), or `nil`.
    static func messageStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.count > 40, line[0] == 0x5B, line[24] == 0x5D, line.has(" [", at: 25),
              leadingTimestamp(in: line, from: 1) != nil,
              let method = line.firstRange(of: "(): ", from: 26) else { return nil }
        return method.upperBound
    }

    /// A line of XMPPIOService's data: its direction, where the data starts, and
    /// where it ends when the message says more after it.
    static func record(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, data: Int, dataEnd: Int?)? {
        guard let start = messageStart(line) else { return nil }
        if line.has("READ:", at: start) { return (.incoming, start + 5, nil) }
        if line.has("SENT: ", at: start) { return (.outgoing, start + 6, nil) }
        guard line.has("Sending data: ", at: start) else { return nil }
        let data = start + 14
        if line.has("</stream:stream>, as socket", at: data) { return (.outgoing, data, data + 16) }
        return (.outgoing, data, nil)
    }

    /// Where the data ends before ` [jid: …]`, the service's brackets, and the
    /// service's `UniqueId` in them; the line's end and `nil` without them.
    static func suffix(_ line: UnsafeBufferPointer<UInt8>) -> (dataEnd: Int, id: Range<Int>?) {
        let end = line.contentEnd
        guard end > 0, line[end - 1] == 0x5D else { return (end, nil) }
        var found: Range<Int>?
        var from = 0
        while let next = line.firstRange(of: " [jid: ", from: from) { found = next; from = next.upperBound }
        guard let found else { return (end, nil) }
        guard let key = line.firstRange(of: ", UniqueId: ", from: found.upperBound),
              let comma = line.firstIndex(of: 0x2C, from: key.upperBound) else { return (found.lowerBound, nil) }
        return (found.lowerBound, key.upperBound..<comma)
    }
}

// MARK: - The format

extension LogFormat {
    public static let tigase = LogFormat(TigaseLogParser.self)
}

extension TigaseLogParser: CuttableLogFormat {
    static let name = "tigase"
    /// Its `(): READ:`, `(): SENT: ` after its own prefix are no other format's.
    static let detectionRank: Int? = 18
    static func makeParser() -> any LogLineParser { TigaseLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"

    /// A part starts at a record that names its connection on its own line.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard record(line) != nil, let id = suffix(line).id,
              LogFormat.tigase.mayStartRecordPart(at: line, after: previous) else { return nil }
        return LogParserState(values: [Array(line[id])])
    }
}
