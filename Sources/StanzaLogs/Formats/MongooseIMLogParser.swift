#if canImport(StanzaXML)
import StanzaXML
#endif

/// MongooseIM's log (6.x), as `mongoose_flatlog_formatter` writes it
/// (src/logger/mongoose_flatlog_formatter.erl, `template/0`, through ferd/flatlog
/// 0.1.2, `flatlog:format/2`): `when=TIME level=LEVEL what=WHAT pid=PID
/// at=MODULE:FUNCTION/ARITY:LINE ` and the report's other keys as `key=value`,
/// in descending order of the keys (`format_msg/3` folds the map onto a list).
/// A value with a space or `=` is quoted; one with `"`, `\` or a newline is
/// quoted with those escaped as `\"`, `\\` and a backslash before the line
/// break itself (`do_escape/1`), so a stanza's newline goes on in the next line.
///
/// At debug level two events carry the XML of a client's connection:
/// - `what=received_xml_on_stream` (src/c2s/mongoose_c2s.erl,
///   `handle_socket_packet/2`: `packet => Packet, c2s_pid => self()`): the bytes
///   of one read of the socket, as they came (a stream header, several
///   stanzas, a stanza's start). The c2s process logs it, so its `pid=` is the
///   session; s2s and component connections log the same event
///   (mongoose_s2s_in.erl, mongoose_component_connection.erl) with their own pid.
/// - `what=sm_route_to_pid` (src/ejabberd_sm.erl, `do_route/4`: `session_pid =>
///   Pid, acc => Acc`): a stanza routed to the session `session_pid=`, which
///   its c2s process then writes to its client; `format_acc_filter`
///   (src/logger/mongoose_log_filter.erl) puts it in `packet=` with
///   `exml:to_binary/1` (attributes in the order of their names, single quotes).
///   Its `from` and `to` are those the sender wrote (`mongoose_c2s:handle_route/3`
///   adds them when it writes the stanza); `to_jid=` is the full JID the
///   session was found by, the one bound in it (``StanzaSource/jid``). What a
///   c2s process writes by itself (its stream header, features, SASL and bind
///   answers) is not logged.
///
/// flatlog writes a binary that is not Latin-1 text as an Erlang term
/// (`<<"…"/utf8>>`, with `~0tP` to the handler's `term_depth`, which cuts it
/// after that many bytes): that is decoded as ejabberd's terms are. Every
/// other line (the router's `what=route` with the same stanza, startup
/// messages) is text.
final class MongooseIMLogParser: LogLineParser {
    /// Whether the last line ended inside a quoted value (with the backslash
    /// of an escaped newline): the next line goes on with it.
    private var insideValue = false
    var isAtRest: Bool { !insideValue }

    /// A line of flatlog's template: `when=` and a date first, then `level=`.
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("when=") && line.count > 5 && isASCIIDigit(line[5]) && line.firstRange(of: " level=") != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        // A log cut inside a value goes on with the next entry, read as itself.
        if insideValue && !Self.recognises(line) {
            let bytes = unescape(line, from: 0)
            return ParsedLine(kind: .more, payload: 0..<line.contentEnd, decoded: bytes)
        }
        insideValue = false
        guard Self.recognises(line), let event = Self.event(line),
              let value = line.firstRange(of: " packet=")?.upperBound else { return .text }
        var header = LineHeader(shape: event.shape)
        header.direction = event.direction
        header.session = Self.value(of: event.sessionKey, in: line)
        header.time = line.firstIndex(of: 0x20, from: 5).map { 5..<$0 }
        if event.direction == .outgoing, let jid = Self.value(of: " to_jid=", in: line), jid.upperBound < value,
           line[jid.lowerBound] != 0x22 {
            return ParsedLine(record: Self.recordHeader(header, jid: jid, line), payload: value..<line.contentEnd,
                              decoded: data(line, from: value))
        }
        return ParsedLine(record: header, payload: value..<line.contentEnd, decoded: data(line, from: value))
    }

    /// A stanza routed to a session, with the full JID of that session (`to_jid=`,
    /// before `packet=`: never a stanza's text), as the stanza's ``StanzaSource/jid``.
    private static func recordHeader(_ header: LineHeader, jid: Range<Int>, _ line: UnsafeBufferPointer<UInt8>) -> RecordHeader {
        var record = RecordHeader(shape: header.shape)
        record.direction = header.direction
        if let session = header.session { record.setSession(line, session) }
        if let time = header.time { record.setTime(line, time) }
        record.source.jid = String(decoding: UnsafeBufferPointer(rebasing: line[jid]), as: UTF8.self)
        return record
    }

    /// The events whose `packet=` is a connection's XML, and what they say of it.
    private static func event(_ line: UnsafeBufferPointer<UInt8>)
        -> (direction: LogDirection, shape: RecordShape, sessionKey: StaticString)? {
        if line.firstRange(of: " what=received_xml_on_stream ") != nil { return (.incoming, .stream, " pid=") }
        if line.firstRange(of: " what=sm_route_to_pid ") != nil { return (.outgoing, .wholeStanzas, " session_pid=") }
        return nil
    }

    /// The unquoted value of `key` (a pid), up to the next space.
    private static func value(of key: StaticString, in line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let found = line.firstRange(of: key) else { return nil }
        let end = line.firstIndex(of: 0x20, from: found.upperBound) ?? line.contentEnd
        return found.upperBound < end ? found.upperBound..<end : nil
    }

    /// The bytes of the value that starts at `start`: quoted (unescaped), or up
    /// to the next space; an Erlang term's bytes where flatlog wrote one.
    private func data(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> [UInt8] {
        guard start < line.contentEnd else { return [] }
        if line[start] != 0x22 {
            let end = line.firstIndex(of: 0x20, from: start) ?? line.contentEnd
            return Array(line[start..<end])
        }
        let bytes = unescape(line, from: start + 1)
        guard !insideValue, bytes.starts(with: [0x3C, 0x3C]) else { return bytes }
        var decoder = ErlangTermDecoder()
        decoder.start()
        return bytes.withUnsafeBufferPointer { decoder.decode($0, from: 0).bytes }
    }

    /// The quoted value from `start` to its closing quote or the line's end,
    /// with flatlog's escapes undone: a backslash that ends the line is the
    /// newline it escaped, and the value goes on in the next line.
    private func unescape(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> [UInt8] {
        var out: [UInt8] = []
        var index = start
        let end = line.count
        while index < end {
            let byte = line[index]
            if byte == 0x22 { insideValue = false; return out }
            if byte == 0x5C {
                if index + 1 == end { out.append(0x0A); insideValue = true; return out }
                out.append(line[index + 1])
                index += 2
                continue
            }
            out.append(byte)
            index += 1
        }
        insideValue = false   // no closing quote: a line cut short
        return out
    }
}

// MARK: - The format

extension LogFormat {
    public static let mongooseim = LogFormat(MongooseIMLogParser.self)
}

extension MongooseIMLogParser: CuttableLogFormat {
    static let name = "mongooseim"
    static let detectionRank: Int? = 13
    static func makeParser() -> any LogLineParser { MongooseIMLogParser() }
    /// A client's stream; a stream header in the log (an s2s one's) says otherwise.
    static let streamNamespace: StaticString? = "jabber:client"
}
