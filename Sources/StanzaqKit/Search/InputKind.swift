#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// How to read an input: as XML, or as a log (stanzaq(1), LOGS).
public enum InputKind: Equatable, Sendable {
    case xml
    /// A log, of the format named (`nil`: detected from its lines).
    case log(LogFormat?)

    /// What the user asked for: `--xml`, `--log[=FORMAT]`, or nothing (`nil`: recognise it).
    /// Decides from the first bytes of an input; `nil` while they do not tell yet.
    static func recognise(_ bytes: [UInt8], atEnd: Bool) -> InputKind? {
        var index = 0
        // A UTF-8 byte order mark, then blanks.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        guard index < bytes.count else { return atEnd ? .xml : nil }
        // Compressed data, UTF-16 and binary data: the XML reader says what they are. Binary
        // data starts with a control byte or a byte no UTF-8 text starts with (a
        // NUL further on, in a log's line, is text: decided on the first byte,
        // whatever the reads).
        let lead = bytes[index]
        if CompressionFormat.startsCompressed(bytes) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            || (lead < 0x20 && lead != 0x0C && lead != 0x1B) || lead == 0x7F || (0x80...0xC1).contains(lead) || lead >= 0xF5 {
            return .xml
        }
        guard bytes[index] == UInt8(ascii: "<") else { return fragmentOrLog(bytes[index...], atEnd: atEnd) }
        // A copy of Gajim's XML console starts with its comments, and Prosody's
        // watch:stanzas() with its own (a session's id starts with c2s or s2s).
        let rest = bytes[index...]
        let markers: [(String, LogFormat)] = [("<!-- Incoming ", .gajim), ("<!-- Outgoing ", .gajim),
                                              ("<!-- sent to ", .prosodyWatch), ("<!-- received from ", .prosodyWatch),
                                              ("<!-- session c2s", .prosodyWatch), ("<!-- session s2s", .prosodyWatch),
                                              // mod_logxml's file: its new file's first lines, or a packet appended.
                                              ("<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"xmpp.xsl\"", .logxml),
                                              ("<packet or=\"", .logxml)]
        for (marker, format) in markers {
            if rest.starts(with: marker.utf8) { return .log(format) }
            if rest.count < marker.utf8.count && !atEnd && marker.utf8.starts(with: rest) { return nil }
        }
        return .xml
    }

    /// Input that starts with something other than `<`: a log, or XML that starts
    /// in the middle of a stanza (`tail -f`, `tail -c`; stanzaq(1), INPUT). It is
    /// such a fragment when its first line was cut inside a tag or inside text (the
    /// first markup on it is a `>` or an end tag, where a log line shows a start
    /// tag after its own text) and the next line that is not blank starts with `<`
    /// (a log line starts with its own text: a time, a level, a name).
    private static func fragmentOrLog(_ bytes: ArraySlice<UInt8>, atEnd: Bool) -> InputKind? {
        guard let lineEnd = bytes.firstIndex(of: 0x0A) else {
            return atEnd || bytes.count >= lookAhead ? .log(nil) : nil
        }
        guard let markup = bytes[..<lineEnd].firstIndex(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }),
              bytes[markup] == UInt8(ascii: ">")
                || (markup + 1 < lineEnd && bytes[markup + 1] == UInt8(ascii: "/")) else { return .log(nil) }
        guard let next = bytes[(lineEnd + 1)...].firstIndex(where: { !isBlank($0) }) else {
            return atEnd || bytes.count >= lookAhead ? .log(nil) : nil
        }
        return bytes[next] == UInt8(ascii: "<") ? .xml : .log(nil)
    }

    /// How far recognition looks for the lines that tell a fragment from a log.
    private static let lookAhead = 1 << 16

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// A field of a stanza read from a log, as `--fields` names it (stanzaq(1), LOGS).
public enum LogFieldName: Equatable, Sendable {
    case line, time, direction, session
    /// The full JID bound in the stanza's session (``SessionJIDs``).
    case jid
    /// A column of an archive row.
    case column(String)

    public init(_ name: String) {
        switch name {
        case "line": self = .line
        case "time": self = .time
        case "direction": self = .direction
        case "session": self = .session
        case "jid": self = .jid
        default: self = .column(name)
        }
    }

    /// The fields every input may have (the others are archive columns).
    public static let known: [LogFieldName] = logged + [.jid]

    /// The fields a log's records give (not ``jid``, which the search finds in
    /// the stanzas): what the REPL shows of a log unless told, and the keys a
    /// column can never have.
    public static let logged: [LogFieldName] = [.line, .time, .direction, .session]

    public var key: String {
        switch self {
        case .line: return "line"
        case .time: return "time"
        case .direction: return "direction"
        case .session: return "session"
        case .jid: return "jid"
        case .column(let name): return name
        }
    }

    /// The field's value for a stanza, `nil` if the input does not tell it.
    func value(in source: StanzaSource?) -> QueryValue? {
        guard let source else { return nil }
        switch self {
        case .line: return .int(Int64(source.line))
        case .time: return source.time.map(QueryValue.string)
        case .direction: return source.direction.map { .string($0.rawValue) }
        case .session: return source.session.map(QueryValue.string)
        case .jid: return source.jid.map(QueryValue.string)
        case .column(let name): return source.fields.first { $0.name == name }.map { .string($0.value) }
        }
    }
}
