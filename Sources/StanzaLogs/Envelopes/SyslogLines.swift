#if canImport(StanzaXML)
import StanzaXML
#endif

/// The system's log as a file or a listing: `journalctl`'s short outputs and the
/// files a syslog daemon writes. Each line is `TIME HOST TAG: TEXT`, TAG the
/// program's identifier and process (`prosody[812]`), which is the source.
///
/// journalctl (systemd's src/shared/logs-show.c, `output_short`) writes TIME as
/// `Nov 24 07:07:23` (`-o short`), `2024-11-24T07:07:23+0100` (`-o short-iso`;
/// `+01:00` from systemd 254 on), or either with `.ffffff` (`short-precise`,
/// `short-iso-precise`), and the lines after a message's first indented by
/// spaces to the width of `TIME HOST TAG: ` (`print_multiline`); a program's tab
/// is 8 spaces unless `-a` (`strip_tab_ansi`). It also writes lines of its own,
/// `-- Boot … --`, `-- No entries --`, which are not entries.
///
/// rsyslog writes `Nov 24 07:07:23 host TAG: TEXT` (`RSYSLOG_TraditionalFileFormat`,
/// RFC 3164's header), `2024-11-24T07:07:23.123456+01:00 host TAG: TEXT`
/// (`RSYSLOG_FileFormat`) or `<165>1 TIME HOST APP PROCID MSGID SD TEXT`
/// (`RSYSLOG_SyslogProtocol23Format`, RFC 5424), one line an entry: it writes
/// a control character of a message as `#` and its three octal digits
/// (runtime/parser.c, `SanitizeMsg`), a newline `#012`, a tab `#011`.
enum SyslogLines {
    /// Where a line's parts are.
    struct Header {
        var time: Range<Int>?
        var host: Range<Int>?
        /// The identifier and process (`prosody[812]`), or RFC 5424's APP-NAME.
        var tag: Range<Int>?
        /// RFC 5424's PROCID (`tag` is then APP-NAME alone) and MSGID.
        var procID: Range<Int>?
        var msgID: Range<Int>?
        var text: Int
        /// Whether the time is one only journalctl writes (`.ffffff` after a
        /// BSD time, `+hhmm`).
        var journalTime = false
        /// Whether the line is RFC 5424's, which journalctl never writes.
        var rfc5424 = false
    }

    /// The parts of an entry's first line, or `nil` if it is none.
    static func header(_ line: UnsafeBufferPointer<UInt8>) -> Header? {
        if line.count > 0, line[0] == UInt8(ascii: "<") {
            var index = 1
            while index < line.count, index < 5, isASCIIDigit(line[index]) { index += 1 }
            guard index > 1, index < line.count, line[index] == UInt8(ascii: ">") else { return nil }
            index += 1
            if line.has("1 ", at: index) { return rfc5424(line, from: index + 2) }
            return traditional(line, from: index)
        }
        return traditional(line, from: 0)
    }

    /// `TIME [HOST ]TAG: TEXT` (journalctl's `--no-hostname` leaves HOST out).
    private static func traditional(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Header? {
        let bsd = bsdTimeEnd(line, from: start)
        guard let (timeEnd, journalTime) = bsd ?? isoTimeEnd(in: line, from: start),
              timeEnd < line.count, line[timeEnd] == 0x20 else { return nil }
        if bsd == nil, !hasSyslogFraction(line, start..<timeEnd) { return nil }
        var header = Header(time: start..<timeEnd, text: line.count, journalTime: journalTime)
        var index = timeEnd + 1
        // (journalctl's --no-hostname; an RFC 3339 time is followed by a host, as
        // a `docker logs -t` line of a program's `word: text` is not.)
        if bsd != nil, let tag = tagEnd(line, from: index) {
            header.tag = index..<tag
            header.text = min(tag + 2, line.count)
            return header
        }
        let hostStart = index
        while index < line.count, isHostByte(line[index]) { index += 1 }
        guard index > hostStart, index < line.count, line[index] == 0x20 else { return nil }
        header.host = hostStart..<index
        guard let tag = tagEnd(line, from: index + 1) else { return nil }
        header.tag = (index + 1)..<tag
        header.text = min(tag + 2, line.count)
        return header
    }

    /// The end of a tag at `start` (before its `:`): no blanks, then `: ` or the line's end.
    private static func tagEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < line.count, line[index] > 0x20, line[index] != UInt8(ascii: ":") { index += 1 }
        guard index > start, index < line.count, line[index] == UInt8(ascii: ":"),
              index + 1 == line.count || line[index + 1] == 0x20 else { return nil }
        return index
    }

    /// `<PRI>1 TIME HOST APP PROCID MSGID SD[ MSG]`, from TIME on; `-` is no value.
    private static func rfc5424(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Header? {
        var header = Header(text: line.count, rfc5424: true)
        var index = start
        func word() -> Range<Int>? {
            let wordStart = index
            while index < line.count, line[index] > 0x20 { index += 1 }
            guard index > wordStart, index == line.count || line[index] == 0x20 else { return nil }
            defer { index = min(index + 1, line.count) }
            return wordStart..<index
        }
        func value(_ range: Range<Int>) -> Range<Int>? {
            range.count == 1 && line[range.lowerBound] == UInt8(ascii: "-") ? nil : range
        }
        guard let time = word(), let host = word(), let app = word(), let procID = word(), let msgID = word() else { return nil }
        if value(time) != nil {
            guard let (end, _) = isoTimeEnd(in: line, from: time.lowerBound), end == time.upperBound else { return nil }
        }
        (header.time, header.host, header.tag, header.procID, header.msgID) = (value(time), value(host), value(app), value(procID), value(msgID))
        // STRUCTURED-DATA: `-`, or `[ID PARAM="VALUE" …]…`, `\"`, `\\` and `\]` escaped in a VALUE.
        guard index < line.count else { return nil }
        if line[index] == UInt8(ascii: "-") {
            index += 1
        } else {
            while index < line.count, line[index] == UInt8(ascii: "[") {
                var quoted = false
                index += 1
                while index < line.count, quoted || line[index] != UInt8(ascii: "]") {
                    if quoted, line[index] == UInt8(ascii: "\\") { index += 1 } else if line[index] == UInt8(ascii: "\"") { quoted.toggle() }
                    index += 1
                }
                guard index < line.count else { return nil }
                index += 1
            }
        }
        guard index == line.count || line[index] == 0x20 else { return nil }
        index = min(index + 1, line.count)
        // rsyslog's RSYSLOG_SyslogProtocol23Format writes the space that starts
        // the message of an RFC 3164 line it received after the separator's.
        if index < line.count, line[index] == 0x20 { index += 1 }
        if line.has("\u{FEFF}", at: index) { index += 3 }
        header.text = index
        return header
    }

    /// `Mmm dd HH:MM:SS` (the day padded with a space or a zero), `.ffffff` allowed (journalctl's `short-precise`).
    private static func bsdTimeEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Bool)? {
        guard start + 15 <= line.count, isASCIILetter(line[start]), isASCIILetter(line[start + 1]), isASCIILetter(line[start + 2]),
              line[start + 3] == 0x20, line[start + 4] == 0x20 || isASCIIDigit(line[start + 4]), isASCIIDigit(line[start + 5]),
              line[start + 6] == 0x20 else { return nil }
        let clock: [UInt8] = Array("dd:dd:dd".utf8)
        for (offset, expected) in clock.enumerated() {
            let byte = line[start + 7 + offset]
            if expected == UInt8(ascii: "d") ? !isASCIIDigit(byte) : byte != expected { return nil }
        }
        var index = start + 15
        guard index < line.count, line[index] == UInt8(ascii: ".") else { return (index, false) }
        index += 1
        let digits = index
        while index < line.count, isASCIIDigit(line[index]) { index += 1 }
        return index > digits ? (index, true) : nil
    }


    /// Whether an RFC 3339 time has no fraction, or one of 3 or 6 digits
    /// (rsyslog's, journalctl's), not a container runtime's 9.
    private static func hasSyslogFraction(_ line: UnsafeBufferPointer<UInt8>, _ time: Range<Int>) -> Bool {
        guard let dot = line.firstIndex(of: UInt8(ascii: "."), from: time.lowerBound), dot < time.upperBound else { return true }
        var end = dot + 1
        while end < time.upperBound, isASCIIDigit(line[end]) { end += 1 }
        return end - dot - 1 == 3 || end - dot - 1 == 6
    }

    /// A host's name or address.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || isASCIIDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "%")
    }

    /// journalctl's own lines: `-- Boot 1a2b… --`, `-- No entries --`, `-- Logs begin at … --`.
    static func isJournalNote(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.count >= 6 && line.has("-- ") && line[line.count - 3] == 0x20 && line[line.count - 2] == UInt8(ascii: "-")
            && line[line.count - 1] == UInt8(ascii: "-")
    }

    /// The entry of a line whose parts are `header`.
    static func entry(_ line: UnsafeBufferPointer<UInt8>, _ header: Header, number: Int, undoingEscapes: Bool) -> EnvelopeEntry {
        let text = UnsafeBufferPointer(rebasing: line[header.text...])
        var entry = EnvelopeEntry(source: nil, text: undoingEscapes ? withoutEscapes(text) : Array(text), line: number)
        if let time = header.time { entry.time = line.string(time) }
        if let tag = header.tag {
            entry.source = line.string(tag) + (header.procID.map { "[" + line.string($0) + "]" } ?? "")
        }
        if let host = header.host { entry.fields.append(LogField(name: "host", value: line.string(host))) }
        if let msgID = header.msgID { entry.fields.append(LogField(name: "msgid", value: line.string(msgID))) }
        return entry
    }

    /// A message as rsyslog wrote it: each `#ooo` that is a control character's
    /// (`#000`–`#037`, `#177`) is that character again. rsyslog does not escape a
    /// `#` itself, so a program's own `#012` reads as a newline too.
    static func withoutEscapes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard text.firstIndex(of: UInt8(ascii: "#"), from: 0) != nil else { return Array(text) }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if text[index] == UInt8(ascii: "#"), index + 3 < text.count, let value = controlCharacter(text, at: index + 1) {
                out.append(value)
                index += 4
            } else {
                out.append(text[index])
                index += 1
            }
        }
        return out
    }

    private static func controlCharacter(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt8? {
        let digits = (text[index], text[index + 1], text[index + 2])
        guard (0x30...0x37).contains(digits.0), (0x30...0x37).contains(digits.1), (0x30...0x37).contains(digits.2) else { return nil }
        let value = Int(digits.0 - 0x30) * 64 + Int(digits.1 - 0x30) * 8 + Int(digits.2 - 0x30)
        return value < 0x20 || value == 0x7F ? UInt8(value) : nil
    }

    /// Whether the input's first bytes are such lines: the first line that is
    /// not blank is an entry's (or journalctl's own); `journal`: and one of the
    /// lines is one only journalctl writes (its own line, its time, an indented
    /// line). Both look at up to 4 KiB (or the input's end) to tell the two
    /// apart, unless the first entry is RFC 5424's, which journalctl never
    /// writes. Input that comes slowly (`tail -f` into a pipe) is not waited
    /// for: once a whole entry has come it is a syslog file, and its decoder
    /// takes it for journalctl's from the first line only journalctl writes.
    static func recognises(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool, journal: Bool) -> Bool? {
        var start = 0
        if head.has("\u{FEFF}") { start = 3 }
        var sawEntry = false, sawJournal = false
        while start < head.count {
            guard let newline = head.firstIndex(of: 0x0A, from: start) ?? (atEnd ? head.count : nil) else { break }
            var end = newline
            if end > start, head[end - 1] == 0x0D { end -= 1 }
            let line = UnsafeBufferPointer(rebasing: head[start..<end])
            start = newline + 1
            if line.isEmpty { continue }
            if isJournalNote(line) {
                sawJournal = true
            } else if let header = header(line) {
                if !sawEntry, header.rfc5424 { return !journal }
                sawEntry = true
                if header.journalTime { sawJournal = true }
            } else if sawEntry, line[0] == 0x20 {
                sawJournal = true
            } else if !sawEntry {
                return false
            }
            if journal, sawEntry, sawJournal { return true }
        }
        guard atEnd || head.count >= 4096 else {
            // Not waited for: read as a syslog file (see SyslogLineDecoder).
            if sawEntry { return !journal }
            return nil
        }
        return journal ? sawJournal : sawEntry && !sawJournal
    }
}

/// Takes journalctl's or a syslog file's lines apart: an entry's first line
/// and the indented lines after it (journalctl's); journalctl's own lines are
/// skipped, and a line that is neither reported and skipped.
final class SyslogLineDecoder: EnvelopeDecoder {
    /// Whether rsyslog's `#ooo` escapes are undone: in a syslog file, until a
    /// line only journalctl writes shows that it is journalctl's output.
    private var undoingEscapes: Bool
    private let lineName: String
    private var lines = LineSplitter()
    private var line = 0
    /// The entry whose indented lines may follow, and the width of its first
    /// line's prefix. Each line is handed on as it comes, the indented ones as
    /// further entries of the same source (with the same facts): nothing waits
    /// for the line after it (`tail -f` into a pipe).
    private var current: (entry: EnvelopeEntry, indent: Int)?

    init(undoingEscapes: Bool, lineName: String) {
        self.undoingEscapes = undoingEscapes
        self.lineName = lineName
    }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void) {
        lines.feed(bytes) { take($0, emit, damage: damage) }
    }

    func finish(_ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void) {
        lines.finish { take($0, emit, damage: damage) }
        current = nil
    }

    func continueInNewFile(linesBefore: Int) {
        lines.reset()
        line = linesBefore
        current = nil
    }

    private func take(_ raw: UnsafeBufferPointer<UInt8>, _ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void) {
        line += 1
        var end = raw.count
        if end > 0, raw[end - 1] == 0x0D { end -= 1 }
        let text = UnsafeBufferPointer(rebasing: raw[..<end])
        if text.isEmpty { return }
        if text[0] == 0x20, current != nil {
            // journalctl's further line of the message: the prefix's width of spaces, then the line.
            undoingEscapes = false
            var index = 0
            while index < current!.indent, index < text.count, text[index] == 0x20 { index += 1 }
            var further = current!.entry
            further.text = Array(text[index...])
            further.line = line
            emit(further)
            return
        }
        current = nil
        if SyslogLines.isJournalNote(text) {
            undoingEscapes = false
            return
        }
        if let header = SyslogLines.header(text) {
            if header.journalTime { undoingEscapes = false }
            let entry = SyslogLines.entry(text, header, number: line, undoingEscapes: undoingEscapes)
            emit(entry)
            current = (entry, header.text)
        } else {
            damage(InputDamage(line: line, column: 1, message: "not \(lineName) line: skipped"))
        }
    }
}

/// journalctl's short outputs (`-o short`, `short-iso`, `short-precise`,
/// `short-iso-precise`): recognised by a line only journalctl writes among the
/// first; a message's further lines are joined to it.
enum JournalShort: EnvelopeDefinition {
    static let name = "journal"

    static func recognises(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Bool? {
        SyslogLines.recognises(head, atEnd: atEnd, journal: true)
    }

    static func makeDecoder() -> any EnvelopeDecoder { SyslogLineDecoder(undoingEscapes: false, lineName: "a journalctl") }
}

/// A syslog file (RFC 3164's lines as rsyslog writes them, its RFC 3339 file
/// format, RFC 5424), or journalctl's short output where nothing tells it
/// apart: `#ooo` is undone, indented lines are joined.
enum SyslogFile: EnvelopeDefinition {
    static let name = "syslog"

    static func recognises(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Bool? {
        SyslogLines.recognises(head, atEnd: atEnd, journal: false)
    }

    static func makeDecoder() -> any EnvelopeDecoder { SyslogLineDecoder(undoingEscapes: true, lineName: "a syslog") }
}

extension Envelope {
    public static let journal = Envelope(JournalShort.self)
    public static let syslog = Envelope(SyslogFile.self)
}
