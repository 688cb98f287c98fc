#if canImport(StanzaXML)
import StanzaXML
#endif

/// The XML log of ejabberd's mod_logxml (processone/ejabberd-contrib,
/// mod_logxml/src/mod_logxml.erl). `open_file/3` starts a new file with
/// `<?xml version="1.0"?>`, `<?xml-stylesheet href="xmpp.xsl" type="text/xsl"?>`
/// and `<log>`, each on a line (a file that exists is appended to, without
/// them; `close_file/1` ends it with `</log>`). `add_log/5` writes each stanza
/// of the hooks `user_send_packet` and `user_receive_packet` as
/// `<packet or="ORIENTATION" ljid="JID" [lip="IP" ]ts="TIME">STANZA</packet>`
/// and a newline (`io:fwrite`, `~n`): `or` is `send` (the local user sent it:
/// the server received it, `in`) or `recv` (the server delivered it to the
/// user, `out`), `ljid` the local user's full JID (the session), `lip` with
/// `show_ip`, `ts` `jlib:timestamp_to_legacy/1`'s `YYYYMMDDTHH:MM:SS` (local
/// time, or UTC with `timezone: universal`). The stanza is
/// `fxml:element_to_binary(xmpp:encode(Packet))`: `xmlns='jabber:client'`,
/// attributes in single quotes, a newline of its text as it is, so a stanza
/// goes on in lines until the one that ends with `</packet>`.
final class LogxmlParser: LogLineParser {
    /// Lines go on with a stanza whose `</packet>` has not come yet.
    private var inPacket = false

    var isAtRest: Bool { !inPacket }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("<packet or=\"")
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        guard let found = Self.packet(line) else {
            guard inPacket else { return .text }
            return ParsedLine(kind: .more, payload: 0..<dataEnd(line, from: 0))
        }
        var header = RecordHeader(shape: .wholeStanzas)
        header.direction = found.direction
        if let ljid = found.ljid { header.setSession(line, ljid) }
        if let time = found.time { header.setTime(line, time) }
        inPacket = true
        return ParsedLine(record: header, payload: found.data..<dataEnd(line, from: found.data))
    }

    /// Where a line of a packet's stanza ends: before `</packet>`, the packet's end.
    private func dataEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let end = line.contentEnd
        guard end - start >= 9, line.has("</packet>", at: end - 9) else { return end }
        inPacket = false
        return end - 9
    }

    /// A line that starts a packet: its direction, the places of its `ljid`
    /// and `ts` values, and where the stanza starts.
    static func packet(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, ljid: Range<Int>?, time: Range<Int>?, data: Int)? {
        let direction: LogDirection
        if line.has("<packet or=\"send\"") { direction = .incoming }
        else if line.has("<packet or=\"recv\"") { direction = .outgoing }
        else { return nil }
        var index = 17
        var ljid: Range<Int>?, time: Range<Int>?
        // ` name="value"` pairs up to the `>` (mod_logxml's values have no `"`).
        while index < line.count, line[index] == 0x20 {
            guard let equals = line.firstIndex(of: 0x3D, from: index), equals + 1 < line.count, line[equals + 1] == 0x22,
                  let close = line.firstIndex(of: 0x22, from: equals + 2) else { return nil }
            let value = (equals + 2)..<close
            if line.has(" ljid=", at: equals - 5) { ljid = value }
            if line.has(" ts=", at: equals - 3) { time = value }
            index = close + 1
        }
        guard index < line.count, line[index] == 0x3E else { return nil }
        return (direction, ljid, time, index + 1)
    }
}

// MARK: - The format

extension LogFormat {
    public static let logxml = LogFormat(LogxmlParser.self)
}

extension LogxmlParser: CuttableLogFormat {
    static let name = "logxml"
    /// Its `<packet or="` lines are no other format's.
    static let detectionRank: Int? = 5
    static func makeParser() -> any LogLineParser { LogxmlParser() }
    static let streamNamespace: StaticString? = "jabber:client"
}
