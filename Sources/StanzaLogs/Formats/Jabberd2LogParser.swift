#if canImport(StanzaXML)
import StanzaXML
#endif

/// jabberd2's debug output (`c2s -D`, `sm -D`, … of a build configured with
/// `--enable-debug`; Debian's build has none), as jabberd2 2.7.0 writes it on
/// stderr. Two writers share it:
///
/// - util/log.c, `debug_log()` (`log_debug`): `ctime()`'s time with its line
///   feed made a space, then `FILE:LINE MESSAGE` (`Tue Mar  3 14:22:05 2026
///   c2s.c:517 read action on fd 13`).
/// - sx/sx.c, `__sx_debug()` (`_sx_debug`): `sx (FILE:LINE) MESSAGE`, no time.
///   sx/io.c writes the stream's data: `sx_can_read()` line 266
///   `decoded read data (%d bytes): %.*s`, the bytes of one read once the
///   plugins (TLS, SASL's security layer) have decoded them, and
///   `_sx_get_pending_write()` line 312 `encoding %d bytes for writing: %.*s`,
///   one buffer before the plugins encode it. A read may end inside a stanza
///   that the next read goes on with.
///
/// The session is the sx's tag (c2s gives it the client's fd), named by the
/// `%d ready for reading` (io.c:206), `%d ready for writing` (io.c:357) and
/// `tag %d event` (sx.c:339) lines before the data; the time is that of the
/// last `log_debug` line (c2s.c's `read action on fd %d` before a read or a
/// write). Data with line feeds goes on in lines without a prefix: the byte
/// count tells exactly which, even where a line of a chat body looks like a
/// prefix; the message is cut at `MAX_DEBUG` (8192) bytes with its prefix.
/// The other lines with XML (`completed nad:`, `queueing for write:`,
/// `prepared stream response:`) repeat the data, re-serialised: text.
final class Jabberd2LogParser: LogLineParser {
    /// The sx's tag the last lines named, and the time of the last `log_debug` line.
    private var tag: [UInt8]?
    private var time: [UInt8]?
    /// The bytes of the current data still to come on lines without a prefix
    /// (with the line feed before each).
    private var remaining = 0

    var isAtRest: Bool { remaining == 0 && tag == nil && time == nil }
    var handover: LogParserState? {
        remaining > 0 ? nil : LogParserState(values: [tag ?? [], time ?? []])
    }

    func resume(from state: LogParserState) {
        guard state.values.count == 2 else { return }
        tag = state.values[0].isEmpty ? nil : state.values[0]
        time = state.values[1].isEmpty ? nil : state.values[1]
    }

    /// The size of `debug_log()`'s and `__sx_debug()`'s buffer (util/util.h
    /// `MAX_DEBUG`): a message is cut at one byte less.
    static let maxDebug = 8192

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let message = sxMessage(line) else { return false }
        return data(line, message) != nil || readiness(line, message) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        if remaining > 0 {
            // The data's next line (a line feed, then up to the rest).
            let taken = min(end, remaining - 1)
            remaining = max(0, remaining - 1 - end)
            return ParsedLine(kind: .more, payload: 0..<taken)
        }
        if let message = Self.sxMessage(line) {
            if let found = Self.data(line, message) {
                guard found.count > 0 else { return .text }
                // What `vsnprintf` kept of the data in MAX_DEBUG - 1 bytes.
                let shown = max(0, min(found.count, Self.maxDebug - 1 - found.start))
                let onLine = min(end - found.start, shown)
                remaining = shown - onLine
                var header = RecordHeader(shape: .stream, streamNamespace: "jabber:client")
                header.direction = found.direction
                if let tag { header.session = String(decoding: tag, as: UTF8.self) }
                if let time { header.time = String(decoding: time, as: UTF8.self) }
                return ParsedLine(record: header, payload: found.start..<(found.start + onLine))
            }
            if let named = Self.readiness(line, message) ?? Self.eventTag(line, message) { tag = Array(line[named]) }
            return .text
        }
        if let message = Self.logMessage(line) {
            time = Array(line[0..<24])
            if let fd = Self.actionFd(line, message) { tag = Array(line[fd]) }
        }
        return .text
    }
}

// MARK: - The lines

extension Jabberd2LogParser {
    /// Where the message of `sx (FILE:LINE) MESSAGE` starts, or `nil`.
    static func sxMessage(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.has("sx (", at: 0), let close = line.firstRange(of: ") ", from: 4),
              let colon = line[4..<close.lowerBound].lastIndex(of: 0x3A), colon > 4,
              digitsEnd(line, from: colon + 1) == close.lowerBound else { return nil }
        return close.upperBound
    }

    /// Where the message of `debug_log()`'s `CTIME FILE:LINE MESSAGE` starts, or `nil`:
    /// `Www Mmm dd hh:mm:ss yyyy ` (the day padded with a space), then `FILE:LINE `.
    static func logMessage(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.count > 26, line[3] == 0x20, line[7] == 0x20, line[10] == 0x20, line[19] == 0x20, line[24] == 0x20,
              isASCIILetter(line[0]), isASCIILetter(line[4]), isASCIIDigit(line[9]),
              let clock = leadingTimestamp(in: line, from: 11), clock.upperBound == 19,
              digitsEnd(line, from: 20) == 24, let space = line.firstIndex(of: 0x20, from: 25),
              let colon = line[25..<space].lastIndex(of: 0x3A), colon > 25,
              digitsEnd(line, from: colon + 1) == space, space > colon + 1 else { return nil }
        return space + 1
    }

    /// A line of data: `decoded read data (N bytes): ` (in) or
    /// `encoding N bytes for writing: ` (out), N and where the data starts.
    static func data(_ line: UnsafeBufferPointer<UInt8>, _ message: Int) -> (direction: LogDirection, count: Int, start: Int)? {
        let direction: LogDirection, digits: Int, suffix: StaticString
        if line.has("decoded read data (", at: message) {
            (direction, digits, suffix) = (.incoming, message + 19, " bytes): ")
        } else if line.has("encoding ", at: message) {
            (direction, digits, suffix) = (.outgoing, message + 9, " bytes for writing: ")
        } else {
            return nil
        }
        guard let end = digitsEnd(line, from: digits), end > digits, end - digits < 10,
              line.has(suffix, at: end) else { return nil }
        var count = 0
        for index in digits..<end { count = count * 10 + Int(line[index] - 0x30) }
        return (direction, count, end + suffix.utf8CodeUnitCount)
    }

    /// The tag of `%d ready for reading` and `%d ready for writing`.
    static func readiness(_ line: UnsafeBufferPointer<UInt8>, _ message: Int) -> Range<Int>? {
        guard let end = digitsEnd(line, from: message), end > message,
              line.has(" ready for reading", at: end) || line.has(" ready for writing", at: end) else { return nil }
        return message..<end
    }

    /// The tag of `__sx_event()`'s `tag %d event %d data 0x%x`.
    static func eventTag(_ line: UnsafeBufferPointer<UInt8>, _ message: Int) -> Range<Int>? {
        guard line.has("tag ", at: message), let end = digitsEnd(line, from: message + 4), end > message + 4,
              line.has(" event ", at: end) else { return nil }
        return (message + 4)..<end
    }

    /// The fd of c2s.c's `read action on fd %d` and `write action on fd %d`.
    static func actionFd(_ line: UnsafeBufferPointer<UInt8>, _ message: Int) -> Range<Int>? {
        let start: Int
        if line.has("read action on fd ", at: message) { start = message + 18 }
        else if line.has("write action on fd ", at: message) { start = message + 19 }
        else { return nil }
        guard let end = digitsEnd(line, from: start), end > start, end == line.contentEnd else { return nil }
        return start..<end
    }

    /// The end of the digits from `start` (`start` itself if none), `nil` past the line.
    private static func digitsEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start <= line.count else { return nil }
        var index = start
        while index < line.count, isASCIIDigit(line[index]) { index += 1 }
        return index
    }
}

// MARK: - The format

extension LogFormat {
    public static let jabberd2 = LogFormat(Jabberd2LogParser.self)
}

extension Jabberd2LogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "jabberd2"
    /// Its `sx (io.c:N) decoded read data (` and `encoding N bytes for writing: ` are no other format's.
    static let detectionRank: Int? = 4
    static func makeParser() -> any LogLineParser { Jabberd2LogParser() }
    static let streamNamespace: StaticString? = "jabber:client"

    /// The tag and the time that the last lines of `part` name that name
    /// them (read from its end), else those carried in: a guess, checked
    /// against what the reader of the part hands on.
    static func carriedState(after part: UnsafeBufferPointer<UInt8>, from state: LogParserState) -> LogParserState {
        var values = state.values.count == 2 ? state.values : [[], []]
        var (tagFound, timeFound) = (false, false)
        var end = part.count
        while end > 0, !(tagFound && timeFound) {
            var start = end - 1
            if part[start] == 0x0A { end = start; start -= 1 }
            while start >= 0, part[start] != 0x0A { start -= 1 }
            let line = UnsafeBufferPointer(rebasing: part[(start + 1)..<end])
            if let message = sxMessage(line), !tagFound, let named = readiness(line, message) ?? eventTag(line, message) {
                (values[0], tagFound) = (Array(line[named]), true)
            } else if let message = logMessage(line), !timeFound {
                (values[1], timeFound) = (Array(line[0..<24]), true)
                if !tagFound, let fd = actionFd(line, message) { (values[0], tagFound) = (Array(line[fd]), true) }
            }
            end = start + 1
        }
        return LogParserState(values: values)
    }

    /// A part starts at c2s's `read action on fd N` or `write action on fd N`
    /// (a `log_debug` line: it names the time and the fd that the data after
    /// it are given), not inside data: the state carried is checked against
    /// what the reader of the part before hands on.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard let message = logMessage(line), actionFd(line, message) != nil else { return nil }
        return carried
    }
}
