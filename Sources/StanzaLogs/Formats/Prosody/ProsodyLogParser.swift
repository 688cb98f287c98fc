#if canImport(StanzaXML)
import StanzaXML
#endif

/// Prosody's log (0.12). Every line comes from core/loggingmanager.lua's file
/// sink, `TIME NAME\tLEVEL\tMESSAGE` (TIME is `os.date("%b %d %H:%M:%S ")`
/// unless configured, and absent on the console), or its console sink,
/// `NAME<spaces>LEVEL\tMESSAGE` (NAME padded to 20 columns). NAME is the
/// session's logger (`c2s55e8a7f1c3a0`, `s2sin…`, `s2sout…`: sessionmanager.lua
/// and s2smanager.lua).
///
/// Stanzas appear in six messages:
/// - `SEND: <…>` and `RECV: <…>`: modules/mod_stanza_debug.lua logs every whole
///   stanza a session sends and receives (`session.log("debug", "SEND: %s", t)`);
/// - `SEND(LENGTH): …` and `RECV(LENGTH): …`: prosody-modules' mod_rawdebug
///   logs the bytes a session writes and reads, as they cross the socket
///   (its `bytes/out` and `bytes/in` filters, `session.log("debug",
///   "SEND(%d): %s", #t, tostring(t))`): a stream, a record of which may hold
///   several stanzas or end inside one;
/// - `Sending[c2s]: <…>`: core/sessionmanager.lua logs the start tag of what
///   `session.send` sends (`t:top_tag()`), just before the stanza itself;
/// - `Received[c2s]: <…>`: core/stanza_router.lua logs the start tag of each
///   stanza it routes, just after mod_stanza_debug's `RECV:`.
///
/// util/format.lua writes a newline inside a message as a newline and a tab
/// (`gsub("\n\t?", "\n\t")`), so a stanza whose text has newlines goes on in
/// lines that start with a tab; one tab is removed from each.
///
/// The syslog sink (`log = { debug = "*syslog" }`) hands each message to
/// util/pposix.c's `syslog_log(level, name, message)`, which calls
/// `syslog(level, "%s: %s", name, message)` after `openlog("prosody", LOG_PID, …)`:
/// the line is the syslog daemon's, `TIME HOST prosody[PID]: NAME: MESSAGE`
/// (no level). rsyslog writes the newline and tab of a message as `#012#011`;
/// journalctl writes the lines after the first indented by spaces (then
/// Prosody's tab).
///
/// In a journal or syslog envelope (stanzaq(1), ENVELOPES) the envelope takes
/// the syslog line apart, and the text left is the sink's `NAME: MESSAGE`. And
/// journalctl, unless `-a`, writes each tab of a message as 8 spaces
/// (systemd's `strip_tab_ansi`): the console sink's lines under systemd are
/// then `NAME<spaces>LEVEL<8 spaces>MESSAGE`, a newline's tab 8 spaces.
final class ProsodyLogParser: LogLineParser {
    /// Whether syslog lines have been read (their continuation lines start with spaces).
    private var syslog = false
    /// Whether lines whose tabs journalctl wrote as 8 spaces have been read
    /// (their continuation lines start with 8 spaces).
    private var detabbed = false
    /// (Only that is kept from line to line.)
    /// (Handed on: a part of a syslog file starts knowing it is one.)
    var handover: LogParserState? {
        LogParserState(values: syslog || detabbed ? [detabbed ? [syslog ? 1 : 0, 1] : [1]] : [])
    }

    func resume(from state: LogParserState) {
        let values = state.values.first ?? []
        syslog = values.first == 1
        detabbed = values.count > 1 && values[1] == 1
    }

    /// Whether the line has the shape of a Prosody log line: of its own sinks,
    /// or a syslog line of one of its stanza messages (a syslog file has the
    /// lines of other programs too).
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if locate(line) != nil || locateDetabbed(line) != nil || locateSpaced(line) != nil { return true }
        if let parts = locateSink(line), isStanzaMessage(line, at: parts.message) { return true }
        guard let parts = locateSyslog(line) else { return false }
        let message = parts.message
        return isStanzaMessage(line, at: message)
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        if end > 0 && line[0] == 0x09 {
            return ParsedLine(kind: .more, payload: 1..<end)
        }
        if detabbed && end > 0 && line[0] == 0x20 {
            // journalctl's tab (8 spaces) that Prosody put after a newline, or
            // the spaces a web page made of it (up to 8 are taken off).
            var indent = 0
            while indent < min(8, end), line[indent] == 0x20 { indent += 1 }
            return ParsedLine(kind: .more, payload: indent..<end)
        }
        if syslog && end > 0 && line[0] == 0x20 {
            // journalctl's continuation line: spaces, then the tab Prosody put after the newline.
            let indent = line.skippingBlanks(from: 0)
            if indent > 0 && line[indent - 1] == 0x09 { return ParsedLine(kind: .more, payload: indent..<end) }
        }
        var located = Self.locate(line)
        var fromSyslog = false
        if located == nil, let parts = Self.locateDetabbed(line) {
            located = parts
            detabbed = true
        }
        if located == nil, let parts = Self.locateSpaced(line) {
            located = parts
            detabbed = true
        }
        if located == nil, let parts = Self.locateSink(line) { located = (nil, parts.name, parts.message) }
        if located == nil, let parts = Self.locateSyslog(line) {
            located = parts
            fromSyslog = true
            syslog = true
        }
        guard let parts = located else { return .text }
        let message = parts.message
        var header = LineHeader(shape: .wholeStanzas, session: parts.name, time: parts.time)
        let payloadStart: Int
        if line.has("SEND: ", at: message) {
            header.direction = .outgoing
            payloadStart = message + 6
        } else if line.has("RECV: ", at: message) {
            header.direction = .incoming
            payloadStart = message + 6
        } else if let raw = Self.rawDataMessage(line, at: message) {
            header.direction = raw.direction
            header.shape = .stream
            payloadStart = raw.payload
        } else if let tag = Self.startTagMessage(line, at: message) {
            header.direction = tag.direction
            header.shape = .startTag
            header.streamNamespace = Self.streamNamespace(forSessionType: line, tag.type)
            payloadStart = tag.payload
        } else {
            return .text
        }
        if header.streamNamespace == nil { header.streamNamespace = Self.streamNamespace(forSessionType: line, parts.name) }
        if fromSyslog, let escaped = line.firstRange(of: "#01", from: payloadStart), escaped.lowerBound < end {
            return ParsedLine(record: header, payload: payloadStart..<end,
                              decoded: Self.withoutSyslogEscapes(UnsafeBufferPointer(rebasing: line[payloadStart..<end])))
        }
        return ParsedLine(record: header, payload: payloadStart..<end)
    }

    /// Finds the parts of a syslog line of Prosody's: `[TIME ]HOST IDENT[PID]: NAME: MESSAGE`
    /// (IDENT is `prosody` unless `syslog_name` says otherwise).
    static func locateSyslog(_ line: UnsafeBufferPointer<UInt8>) -> (time: Range<Int>?, name: Range<Int>, message: Int)? {
        var from = 0
        while let colon = line.firstRange(of: "]: ", from: from) {
            from = colon.upperBound
            // `[PID]` right after the ident.
            var open = colon.lowerBound
            while open > 0, isASCIIDigit(line[open - 1]) { open -= 1 }
            guard open < colon.lowerBound, open > 1, line[open - 1] == 0x5B, line[open - 2] != 0x20 else { continue }
            // The logger's name: no blanks, then `: `.
            let nameStart = colon.upperBound
            var nameEnd = nameStart
            while nameEnd < line.count, line[nameEnd] != 0x3A && line[nameEnd] != 0x20 && line[nameEnd] != 0x09 { nameEnd += 1 }
            guard nameEnd > nameStart, line.has(": ", at: nameEnd) else { return nil }
            return (leadingTimestamp(in: line), nameStart..<nameEnd, nameEnd + 2)
        }
        return nil
    }

    /// The syslog sink's text, as a journal or syslog envelope leaves it:
    /// `NAME: MESSAGE`, NAME without blanks or colons.
    static func locateSink(_ line: UnsafeBufferPointer<UInt8>) -> (name: Range<Int>, message: Int)? {
        var nameEnd = 0
        while nameEnd < line.count, line[nameEnd] > 0x20, line[nameEnd] != 0x3A { nameEnd += 1 }
        guard nameEnd > 0, line.has(": ", at: nameEnd) else { return nil }
        return (0..<nameEnd, nameEnd + 2)
    }

    /// A message that holds a stanza or its start tag.
    private static func isStanzaMessage(_ line: UnsafeBufferPointer<UInt8>, at message: Int) -> Bool {
        line.has("SEND: <", at: message) || line.has("RECV: <", at: message) || startTagMessage(line, at: message) != nil
            || rawDataMessage(line, at: message) != nil
    }

    /// mod_rawdebug's `SEND(LENGTH): ` or `RECV(LENGTH): `.
    private static func rawDataMessage(_ line: UnsafeBufferPointer<UInt8>, at message: Int) -> (direction: LogDirection, payload: Int)? {
        let direction: LogDirection
        if line.has("SEND(", at: message) {
            direction = .outgoing
        } else if line.has("RECV(", at: message) {
            direction = .incoming
        } else {
            return nil
        }
        var close = message + 5
        while close < line.count, isASCIIDigit(line[close]) { close += 1 }
        guard close > message + 5, line.has("): ", at: close) else { return nil }
        return (direction, close + 3)
    }

    /// A line of the console or file sink whose tabs journalctl wrote as 8
    /// spaces: `[TIME ]NAME<spaces>LEVEL<8 spaces>MESSAGE`, no tab before MESSAGE.
    static func locateDetabbed(_ line: UnsafeBufferPointer<UInt8>) -> (time: Range<Int>?, name: Range<Int>, message: Int)? {
        var space = 0
        while let found = line.firstIndex(of: 0x20, from: space) {
            space = found + 1
            let level = found + 1
            let length: Int
            if line.has("debug        ", at: level) || line.has("error        ", at: level) {
                length = 5
            } else if line.has("info        ", at: level) || line.has("warn        ", at: level) {
                length = 4
            } else {
                continue
            }
            var nameEnd = found
            while nameEnd > 0, line[nameEnd - 1] == 0x20 { nameEnd -= 1 }
            var nameStart = nameEnd
            while nameStart > 0, line[nameStart - 1] != 0x20 { nameStart -= 1 }
            guard nameStart < nameEnd, line.firstIndex(of: 0x09, from: 0).map({ $0 > level }) ?? true else { return nil }
            if nameStart > 0 { guard leadingTimestamp(in: line) != nil else { return nil } }
            let time = nameStart > 0 ? line.trimmed(0..<nameStart) : nil
            return (time.flatMap { $0.isEmpty ? nil : $0 }, nameStart..<nameEnd, level + length + 8)
        }
        return nil
    }

    /// A stanza line of the file or console sink whose tabs became spaces on
    /// the way (a log pasted through a web page): `[TIME ]NAME<spaces>LEVEL<spaces>MESSAGE`,
    /// LEVEL a whole word, MESSAGE one that holds a stanza or its start tag.
    static func locateSpaced(_ line: UnsafeBufferPointer<UInt8>) -> (time: Range<Int>?, name: Range<Int>, message: Int)? {
        guard line.firstIndex(of: 0x09, from: 0) == nil else { return nil }
        var space = 0
        while let found = line.firstIndex(of: 0x20, from: space) {
            space = found + 1
            let level = found + 1
            var levelEnd = level
            while levelEnd < line.count, isASCIILetter(line[levelEnd]) { levelEnd += 1 }
            guard levelEnd < line.count, line[levelEnd] == 0x20, isLevel(line, level..<levelEnd) else { continue }
            var nameEnd = found
            while nameEnd > 0, line[nameEnd - 1] == 0x20 { nameEnd -= 1 }
            var nameStart = nameEnd
            while nameStart > 0, line[nameStart - 1] != 0x20 { nameStart -= 1 }
            guard nameStart < nameEnd else { return nil }
            // A paste in Markdown's inline code has a backtick before its first line's time.
            let timeStart = line[0] == 0x60 && nameStart > 1 ? 1 : 0
            if nameStart > 0 {
                guard let time = leadingTimestamp(in: line, from: timeStart), time.upperBound <= nameStart else { return nil }
            }
            let message = line.skippingBlanks(from: levelEnd)
            guard isStanzaMessage(line, at: message) else { return nil }
            let time = nameStart > 0 ? line.trimmed(timeStart..<nameStart) : nil
            return (time.flatMap { $0.isEmpty ? nil : $0 }, nameStart..<nameEnd, message)
        }
        return nil
    }

    /// A message as rsyslog wrote it: its control characters were written `#ooo`
    /// (a newline `#012`, a tab `#011`). Prosody's tab after a newline goes, as on
    /// a line of its own file.
    static func withoutSyslogEscapes(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes.has("#012", at: index) {
                out.append(0x0A)
                index += 4
                if bytes.has("#011", at: index) { index += 4 }
            } else if bytes.has("#011", at: index) {
                out.append(0x09)
                index += 4
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
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
    /// A BOSH session is a client's too: modules/mod_bosh.lua names its logger
    /// `"bosh"..sid` (mod_websocket's sessions are `c2s…` as any).
    static func streamNamespace(forSessionType line: UnsafeBufferPointer<UInt8>, _ type: Range<Int>) -> StaticString? {
        guard type.count >= 3 else { return nil }
        if line.has("c2s", at: type.lowerBound) { return "jabber:client" }
        if type.count >= 4, line.has("bosh", at: type.lowerBound) { return "jabber:client" }
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
        // File sink: TIME NAME\tLEVEL\tMESSAGE (NAME is the word before the tab, found above).
        guard let secondTab = line.firstIndex(of: 0x09, from: tab + 1), isLevel(line, (tab + 1)..<secondTab) else { return nil }
        let nameStart = wordStart
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

// MARK: - The format

extension LogFormat {
    public static let prosody = LogFormat(ProsodyLogParser.self)
}

extension ProsodyLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "prosody"
    static let detectionRank: Int? = 0
    static func makeParser() -> any LogLineParser { ProsodyLogParser() }
    static let learnsRecordPrefix = true

    /// A part starts at a record; one of a syslog file's, knowing that syslog lines were read.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard LogFormat.prosody.mayStartRecordPart(at: line, after: previous) else { return nil }
        return locate(line) == nil && locateSyslog(line) != nil ? LogParserState(values: [[1]]) : carried
    }
}
