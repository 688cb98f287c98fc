/// Prosody's log (0.12). Every line comes from core/loggingmanager.lua's file
/// sink, `TIME NAME\tLEVEL\tMESSAGE` (TIME is `os.date("%b %d %H:%M:%S ")`
/// unless configured, and absent on the console), or its console sink,
/// `NAME<spaces>LEVEL\tMESSAGE` (NAME padded to 20 columns). NAME is the
/// session's logger (`c2s55e8a7f1c3a0`, `s2sin…`, `s2sout…`: sessionmanager.lua
/// and s2smanager.lua).
///
/// Stanzas appear in four messages:
/// - `SEND: <…>` and `RECV: <…>`: modules/mod_stanza_debug.lua logs every whole
///   stanza a session sends and receives (`session.log("debug", "SEND: %s", t)`);
/// - `Sending[c2s]: <…>`: core/sessionmanager.lua logs the start tag of what
///   `session.send` sends (`t:top_tag()`), just before the stanza itself;
/// - `Received[c2s]: <…>`: core/stanza_router.lua logs the start tag of each
///   stanza it routes, just after mod_stanza_debug's `RECV:`.
///
/// util/format.lua writes a newline inside a message as a newline and a tab
/// (`gsub("\n\t?", "\n\t")`), so a stanza whose text has newlines goes on in
/// lines that start with a tab; one tab is removed from each.
final class ProsodyLogParser: LogLineParser {
    /// Whether the line has the shape of a Prosody log line.
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        locate(line) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        if end > 0 && line[0] == 0x09 {
            return ParsedLine(kind: .more, payload: 1..<end)
        }
        guard let parts = Self.locate(line) else { return .text }
        let message = parts.message
        var header = LineHeader(shape: .wholeStanzas, session: parts.name, time: parts.time)
        let payloadStart: Int
        if line.has("SEND: ", at: message) {
            header.direction = .outgoing
            payloadStart = message + 6
        } else if line.has("RECV: ", at: message) {
            header.direction = .incoming
            payloadStart = message + 6
        } else if let tag = Self.startTagMessage(line, at: message) {
            header.direction = tag.direction
            header.shape = .startTag
            header.streamNamespace = Self.streamNamespace(forSessionType: line, tag.type)
            payloadStart = tag.payload
        } else {
            return .text
        }
        if header.streamNamespace == nil { header.streamNamespace = Self.streamNamespace(forSessionType: line, parts.name) }
        return ParsedLine(record: header, payload: payloadStart..<end)
    }

    /// `Sending[TYPE]: ` or `Received[TYPE]: `.
    private static func startTagMessage(_ line: UnsafeBufferPointer<UInt8>, at message: Int)
        -> (direction: LogDirection, type: Range<Int>, payload: Int)? {
        let direction: LogDirection, typeStart: Int
        if line.has("Sending[", at: message) {
            direction = .outgoing; typeStart = message + 8
        } else if line.has("Received[", at: message) {
            direction = .incoming; typeStart = message + 9
        } else {
            return nil
        }
        guard let close = line.firstIndex(of: 0x5D, from: typeStart), line.has(": ", at: close + 1) else { return nil }
        return (direction, typeStart..<close, close + 3)
    }

    /// The namespace Prosody's streams declare as default, and so leave out of
    /// the stanzas it logs (util/xmppstream.lua drops an `xmlns` equal to it).
    static func streamNamespace(forSessionType line: UnsafeBufferPointer<UInt8>, _ type: Range<Int>) -> StaticString? {
        guard type.count >= 3 else { return nil }
        if line.has("c2s", at: type.lowerBound) { return "jabber:client" }
        if line.has("s2s", at: type.lowerBound) { return "jabber:server" }
        return nil
    }

    /// Finds the parts of a log line: the time (file sink), the logger's name
    /// and where the message starts.
    static func locate(_ line: UnsafeBufferPointer<UInt8>) -> (time: Range<Int>?, name: Range<Int>, message: Int)? {
        guard let tab = line.firstIndex(of: 0x09, from: 0), tab > 0 else { return nil }
        // Console sink: NAME<spaces>LEVEL\tMESSAGE.
        var wordStart = tab
        while wordStart > 0, line[wordStart - 1] != 0x20 { wordStart -= 1 }
        if wordStart > 0, isLevel(line, wordStart..<tab) {
            var nameEnd = wordStart
            while nameEnd > 0, line[nameEnd - 1] == 0x20 { nameEnd -= 1 }
            guard nameEnd > 0 else { return nil }
            var nameStart = nameEnd
            while nameStart > 0, line[nameStart - 1] != 0x20 { nameStart -= 1 }
            let time = nameStart > 0 ? line.trimmed(0..<nameStart) : nil
            return (time, nameStart..<nameEnd, tab + 1)
        }
        // File sink: TIME NAME\tLEVEL\tMESSAGE.
        guard let secondTab = line.firstIndex(of: 0x09, from: tab + 1), isLevel(line, (tab + 1)..<secondTab) else { return nil }
        var nameStart = tab
        while nameStart > 0, line[nameStart - 1] != 0x20 { nameStart -= 1 }
        guard nameStart < tab else { return nil }
        let time = nameStart > 0 ? line.trimmed(0..<nameStart) : nil
        return (time.flatMap { $0.isEmpty ? nil : $0 }, nameStart..<tab, secondTab + 1)
    }

    private static func isLevel(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        switch range.count {
        case 4: return line.has("info", at: range.lowerBound) || line.has("warn", at: range.lowerBound)
        case 5: return line.has("debug", at: range.lowerBound) || line.has("error", at: range.lowerBound)
        default: return false
        }
    }
}
