#if canImport(StanzaXML)
import StanzaXML
#endif

/// JSON log lines in general: one object a line, written by a server or a log
/// shipper set to write JSON, or exported from Loki (`logcli --output=jsonl`:
/// `line`, `timestamp`, `labels`) or Elasticsearch and OpenSearch (a hit a line,
/// the document in `_source`). The program's line is the value of the first
/// message-like key that holds a string (``messageKeys``), one line feed at its
/// end dropped; the time that of a time-like key (``timeKeys``), as written;
/// the source that of a source-like key (``sourceKeys``), where there is one:
/// each source's lines are a log of their own. Keys are looked for at the top,
/// then in `_source`, `labels` and `stream`; nested objects are named with dots
/// (`kubernetes.pod_name`). A level-like key (``levelKeys``) is the `level` field.
///
/// Recognised by its first line: an object (`{"`, not in `[`) with a string
/// under a message-like key, and that `--log=json` would not take as an archive
/// row: no `"<` in it, and none of its strings starts with `<`. Archive rows
/// (whose one column holds a stanza) thus stay a log format; Docker's json-file
/// (`{"log":`) and the journal are recognised before.
enum JSONLines: LineEnvelope {
    static let name = "json-lines"
    static let lineName = "a JSON"

    static let messageKeys = ["message", "msg", "MESSAGE", "log", "line"]
    static let timeKeys = ["@timestamp", "timestamp", "time", "ts"]
    static let sourceKeys = [
        "container", "container_name", "container.name", "kubernetes.container_name", "kubernetes.container.name",
        "kubernetes.pod_name", "kubernetes.pod.name", "pod", "service", "service_name", "service.name", "app", "job",
        "host", "host.name", "hostname", "logger", "logger_name", "log.logger",
    ]
    static let levelKeys = ["level", "levelname", "severity", "log.level", "lvl"]
    /// Where a document's keys may be, after the top: an Elasticsearch hit's
    /// document, Loki's labels (`logcli`, and the query API's `stream`).
    private static let containers = ["", "_source.", "labels.", "stream."]

    static func recognises(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Bool? {
        var start = 0
        if head.has("\u{FEFF}") { start = 3 }
        while start < head.count, head[start] == 0x0A || head[start] == 0x0D { start += 1 }
        guard start < head.count else { return atEnd ? false : nil }
        guard head[start] == 0x7B else { return false }
        guard let newline = head.firstIndex(of: 0x0A, from: start) else {
            if atEnd { return recognisesLine(UnsafeBufferPointer(rebasing: head[start...])) }
            return head.count >= 4096 ? false : nil
        }
        var end = newline
        if end > start, head[end - 1] == 0x0D { end -= 1 }
        return recognisesLine(UnsafeBufferPointer(rebasing: head[start..<end]))
    }

    private static func recognisesLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.has("{\""), !ArchiveRowParser.recognisesJSON(line), let object = JSONLogObject(line, depth: 3),
              message(of: object) != nil else { return false }
        return !object.members.contains { $0.member.isString && startsTag($0.member.value) }
    }

    private static func startsTag(_ value: [UInt8]) -> Bool {
        value.first { !isXMLSpace($0) } == 0x3C
    }

    private static func lookUp(_ object: JSONLogObject, _ keys: [String]) -> JSONLogObject.Member? {
        for container in containers {
            for key in keys {
                if let member = object[container + key], member.isString || member.value.first != 0x7B { return member }
            }
        }
        return nil
    }

    private static func message(of object: JSONLogObject) -> [UInt8]? {
        for container in containers {
            for key in messageKeys {
                if let member = object[container + key], member.isString { return member.value }
            }
        }
        return nil
    }

    static func entry(of line: UnsafeBufferPointer<UInt8>, number: Int) -> EnvelopeEntry? {
        guard let object = JSONLogObject(line, depth: 3) else { return nil }
        var text = message(of: object) ?? []
        if text.last == 0x0A { text.removeLast() }
        if text.last == 0x0D { text.removeLast() }
        func string(_ member: JSONLogObject.Member?) -> String? {
            guard let member, member.isString || member.value.first != 0x5B else { return nil }
            return String(decoding: member.value, as: UTF8.self)
        }
        var entry = EnvelopeEntry(source: string(lookUp(object, sourceKeys)), time: string(lookUp(object, timeKeys)), text: text, line: number)
        if let level = string(lookUp(object, levelKeys)) { entry.fields.append(LogField(name: "level", value: level)) }
        return entry
    }
}

extension Envelope {
    public static let jsonLines = Envelope(JSONLines.self)
}
