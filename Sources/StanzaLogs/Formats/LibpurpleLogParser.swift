#if canImport(StanzaXML)
import StanzaXML
#endif

/// libpurple's debug output (Pidgin's and Finch's `-d`, `--debug`).
/// libpurple/debug.c, `purple_debug_vargs()`, prints every message as
/// `(HH:MM:SS) CATEGORY: MESSAGE` (the local time; libpurple before 2.6 only
/// with the `/core/debug/timestamps` preference, else without the time).
/// The XMPP plugin, libpurple/protocols/jabber/jabber.c, logs with the
/// category `jabber`:
///
/// - `jabber_send_raw()`: `Sending%s (%s): %s%s%s`, ` (ssl)` on TLS, the
///   account's name (`user@host/resource`), then the data handed to the
///   socket: a stanza as `xmlnode_to_str()` wrote it, or a stream header (and
///   `<?xml version='1.0' ?>` alone before it). The text of a SASL `<auth>`
///   is logged as `password removed`; the whitespace keepalive is not logged.
/// - `jabber_recv_cb()` and `jabber_recv_cb_ssl()`: `Recv (%d): %s` and
///   `Recv (ssl)(%d): %s`, the length and the bytes of one read of the
///   socket (at most 4095): a read holds several stanzas, or ends inside one
///   that the next read goes on with; `RecvSASL (%u): %s` after a SASL
///   security layer.
///
/// A message with newlines (a chat body) goes on in lines without the prefix.
/// A read names no account: it is given the account of the last line sent
/// (a connection sends its stream header before it reads anything), which is
/// exact for a log of one account.
final class LibpurpleLogParser: LogLineParser {
    /// The account named by the last line sent, for the reads after it.
    private var account: [UInt8]?

    var isAtRest: Bool { account == nil }
    var handover: LogParserState? { LogParserState(values: account.map { [$0] } ?? []) }

    func resume(from state: LogParserState) {
        account = state.values.first
    }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        record(line) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        guard let found = Self.record(line) else {
            // A line of libpurple's (with its time) is text; any other goes on
            // with the data of a read or a message left open.
            if Self.timeEnd(line) != nil { return .text }
            return ParsedLine(kind: .maybeMore, payload: 0..<line.contentEnd)
        }
        var header = RecordHeader(shape: .stream)
        header.direction = found.direction
        if let name = found.account { account = Array(line[name]) }
        if let account { header.session = String(decoding: account, as: UTF8.self) }
        if let end = Self.timeEnd(line) { header.setTime(line, 1..<(end - 2)) }
        return ParsedLine(record: header, payload: found.data..<line.contentEnd)
    }

    /// A line of libpurple's XMPP data: its direction, the account it names
    /// (lines sent) and where the data starts.
    static func record(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, account: Range<Int>?, data: Int)? {
        let start = timeEnd(line) ?? 0
        guard line.has("jabber: ", at: start) else { return nil }
        var index = start + 8
        if line.has("Sending", at: index) {
            index += 7
            if line.has(" (ssl)", at: index) { index += 6 }
            // (libpurple before 2.6: `Sending: DATA`, no account.)
            if line.has(": ", at: index) { return (.outgoing, nil, index + 2) }
            guard line.has(" (", at: index), let close = line.firstRange(of: "): ", from: index + 2) else { return nil }
            return (.outgoing, (index + 2)..<close.lowerBound, close.upperBound)
        }
        if line.has("RecvSASL (", at: index) { index += 10 }
        else if line.has("Recv (ssl)(", at: index) { index += 11 }
        else if line.has("Recv (", at: index) { index += 6 }
        else { return nil }
        let digits = index
        while index < line.count, isASCIIDigit(line[index]) { index += 1 }
        guard index > digits, line.has("): ", at: index) else { return nil }
        return (.incoming, nil, index + 3)
    }

    /// Where the message starts after libpurple's `(HH:MM:SS) `, or `nil`.
    private static func timeEnd(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.count > 11, line[0] == 0x28, line[9] == 0x29, line[10] == 0x20,
              let time = leadingTimestamp(in: line, from: 1), time.upperBound == 9 else { return nil }
        return 11
    }
}

// MARK: - The format

extension LogFormat {
    public static let libpurple = LogFormat(LibpurpleLogParser.self)
}

extension LibpurpleLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "libpurple"
    /// Its `jabber: Sending (`, `jabber: Recv (` are no other format's.
    static let detectionRank: Int? = 4
    static func makeParser() -> any LogLineParser { LibpurpleLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true

    /// A part starts at a line sent, which names its account (the state the
    /// reads after it are given), and not inside a read left open.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard let found = record(line), let name = found.account,
              LogFormat.libpurple.mayStartRecordPart(at: line, after: previous) else { return nil }
        return LogParserState(values: [Array(line[name])])
    }
}
