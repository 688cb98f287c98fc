#if canImport(StanzaXML)
import StanzaXML
#endif

/// What Openfire's XML Debugger plugin prints
/// (igniterealtime/openfire-xmldebugger-plugin at 6a7ea2a11173, for Openfire's Netty
/// connections). `RawPrintChannelHandler.messagePrefix()` writes
/// `String.format("%s - %s %-16s - %s - (%11s)", …)` of the time
/// (`DateTimeFormatter.ISO_INSTANT`, UTC: `2026-11-23T09:30:12.345Z`), the
/// listener's prefix (`C2S`, `SSL`, `ExComp`, `CM`: `DebuggerPlugin`), the
/// peer's address (`/10.0.0.5:54321`, padded to 16) and `RECV` (`channelRead`:
/// each string the connection reads, in), `SENT` (`write`: each string it
/// writes, out), `OPEN` or `CLSD`, and the handler's name (`rawDebugger`),
/// then `: ` and the data. `DebuggerPlugin.log()` prints the line on standard
/// output (`System.out.println`), and with `logToFile` through log4j2 into
/// xmldebugger.log (`%d %-5p [%c{1}] - %m%n`: the same line after
/// `2026-11-23 09:30:12,345 INFO  [DebuggerPlugin] - `). Data with newlines
/// goes on in lines without the prefix. The session is the peer's address.
final class OpenfireDebuggerParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        record(line) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        guard let found = Self.record(line) else {
            // The plugin's other lines (OPEN, CLSD), log4j2's: text; any other goes on with data left open.
            if Self.printed(line) { return .text }
            return ParsedLine(kind: .maybeMore, payload: 0..<end)
        }
        var header = RecordHeader(shape: .stream)
        header.direction = found.direction
        header.setSession(line, found.session)
        if let time = found.time { header.setTime(line, time) }
        return ParsedLine(record: header, payload: found.data..<end)
    }

    /// Whether the plugin printed `line`: data, or a connection opened or closed.
    static func printed(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        record(line) != nil || line.firstRange(of: " - OPEN - (") != nil || line.firstRange(of: " - CLSD - (") != nil
    }

    /// A line of data: its direction, the peer's address, the time and where the data starts.
    static func record(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, session: Range<Int>, time: Range<Int>?, data: Int)? {
        let direction: LogDirection, marker: Range<Int>
        if let found = line.firstRange(of: " - RECV - (") { (direction, marker) = (.incoming, found) }
        else if let found = line.firstRange(of: " - SENT - (") { (direction, marker) = (.outgoing, found) }
        else { return nil }
        guard let close = line.firstRange(of: "): ", from: marker.upperBound) else { return nil }
        // `TIME - PREFIX ADDRESS`: the last ` - ` before the marker ends the time.
        var dash = marker.lowerBound - 3
        while dash >= 0, !line.has(" - ", at: dash) { dash -= 1 }
        guard dash > 0 else { return nil }
        let peer = line.trimmed((dash + 3)..<marker.lowerBound)
        guard let space = line[peer].firstIndex(of: 0x20) else { return nil }
        let session = line.trimmed((space + 1)..<peer.upperBound)
        guard !session.isEmpty else { return nil }
        // The time starts after log4j2's ` - ` (the file), or at the line's start.
        var start = dash - 1
        while start > 0, !line.has(" - ", at: start - 3) { start -= 1 }
        let time = start..<dash
        let isInstant = time.count >= 20 && line[time.upperBound - 1] == 0x5A && line[time.lowerBound + 10] == 0x54
        return (direction, session, isInstant ? time : nil, close.upperBound)
    }
}

// MARK: - The format

extension LogFormat {
    public static let openfire = LogFormat(OpenfireDebuggerParser.self)
}

extension OpenfireDebuggerParser: CuttableLogFormat {
    static let name = "openfire"
    /// Its ` - RECV - (`, ` - SENT - (` are no other format's.
    static let detectionRank: Int? = 5
    static func makeParser() -> any LogLineParser { OpenfireDebuggerParser() }
    static let streamNamespace: StaticString? = "jabber:client"
}
