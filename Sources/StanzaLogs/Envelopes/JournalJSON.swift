#if canImport(StanzaXML)
import StanzaXML
#endif

/// `journalctl -o json` (and `-o json-seq`, each object after an RS, 0x1E):
/// one object a line, a journal entry's fields, in no fixed order (systemd's
/// src/shared/logs-show.c, `output_json`). The program's text is `MESSAGE`: a
/// string, or an array of its bytes' numbers where it is not valid UTF-8 or
/// holds control characters other than tab and line feed; `null` where it is
/// 4096 bytes or more (unless `journalctl --all`), and an array of the values
/// of a field an entry has more than once. The time is the program's own
/// (`_SOURCE_REALTIME_TIMESTAMP`) or the journal's (`__REALTIME_TIMESTAMP`),
/// microseconds since the epoch, written in RFC 3339 (UTC); the source is
/// `SYSLOG_IDENTIFIER[SYSLOG_PID]` (or `_COMM`, `_PID`), as journalctl's short
/// output names it; the host (`_HOSTNAME`) and unit (`_SYSTEMD_UNIT`) are fields.
enum JournalJSON: LineEnvelope {
    static let name = "journal-json"
    static let lineName = "a journalctl -o json"

    /// An object (after an RS) whose first line names `__CURSOR` and
    /// `__REALTIME_TIMESTAMP`, which journalctl writes in every entry and no
    /// other program's JSON has (journal fields are upper case).
    static func recognises(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Bool? {
        var start = 0
        if head.has("\u{FEFF}") { start = 3 }
        while start < head.count, head[start] == 0x1E || head[start] == 0x0A || head[start] == 0x0D { start += 1 }
        guard start < head.count else { return atEnd ? false : nil }
        guard head[start] == 0x7B else { return false }
        let end = head.firstIndex(of: 0x0A, from: start) ?? head.count
        let first = UnsafeBufferPointer(rebasing: head[start..<end])
        if first.firstRange(of: "\"__CURSOR\":") != nil, first.firstRange(of: "\"__REALTIME_TIMESTAMP\":") != nil { return true }
        return end < head.count || atEnd || head.count >= 4096 ? false : nil
    }

    static func entry(of line: UnsafeBufferPointer<UInt8>, number: Int) -> EnvelopeEntry? {
        var start = line.skippingBlanks(from: 0)
        while start < line.count, line[start] == 0x1E { start += 1 }
        guard let object = JSONLogObject(UnsafeBufferPointer(rebasing: line[start...])),
              object["__REALTIME_TIMESTAMP"] != nil else { return nil }
        // (An entry without MESSAGE holds no text; one whose MESSAGE is null lost it: reported.)
        let text: [UInt8]
        if let message = object["MESSAGE"] {
            guard let decoded = Self.text(of: message) else { return nil }
            text = decoded
        } else if line.firstRange(of: "\"MESSAGE\":null") != nil {
            return nil
        } else {
            text = []
        }
        let identifier = object.text("SYSLOG_IDENTIFIER") ?? object.text("_COMM")
        let pid = object.text("SYSLOG_PID") ?? object.text("_PID")
        let source = identifier.map { name in pid.map { "\(name)[\($0)]" } ?? name }
        let time = (object.text("_SOURCE_REALTIME_TIMESTAMP").flatMap(UInt64.init) ?? object.text("__REALTIME_TIMESTAMP").flatMap(UInt64.init))
            .map { rfc3339(microseconds: $0) }
        var entry = EnvelopeEntry(source: source, time: time, text: text, line: number)
        if let host = object.text("_HOSTNAME") { entry.fields.append(LogField(name: "hostname", value: host)) }
        if let unit = object.text("_SYSTEMD_UNIT") { entry.fields.append(LogField(name: "unit", value: unit)) }
        return entry
    }

    /// A `MESSAGE`'s text: a string; an array of byte numbers; an array of
    /// values (a field given more than once), one a line.
    private static func text(of message: JSONLogObject.Member) -> [UInt8]? {
        if message.isString { return message.value }
        guard let elements = jsonArrayElements(message.value) else { return nil }
        if !elements.isEmpty, elements.allSatisfy({ !$0.isString && $0.value.first != 0x5B }) {
            var bytes: [UInt8] = []
            for element in elements {
                guard let byte = UInt8(String(decoding: element.value, as: UTF8.self)) else { return nil }
                bytes.append(byte)
            }
            return bytes
        }
        var lines: [[UInt8]] = []
        for element in elements {
            guard let line = text(of: element) else { return nil }
            lines.append(line)
        }
        return Array(lines.joined(separator: [0x0A]))
    }

    static func refusal(of line: UnsafeBufferPointer<UInt8>) -> String {
        if line.firstRange(of: "\"MESSAGE\":null") != nil {
            return "a journal entry whose MESSAGE journalctl left out (null: 4096 bytes or more; journalctl --all writes it): skipped"
        }
        return "not \(lineName) line: skipped"
    }
}

extension Envelope {
    public static let journalJSON = Envelope(JournalJSON.self)
}
