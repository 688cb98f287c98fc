#if canImport(StanzaXML)
import StanzaXML
#endif

/// tshark's `-z follow,tcp,ascii` (and `follow,tls,ascii`) output, as
/// ui/cli/tap-follow.c's `followDraw` prints it: a separator of `=`, the
/// `Follow:`, `Filter:`, `Node 0:` and `Node 1:` lines, then each chunk of data
/// as its length on a line of its own (after a tab for node 1) followed by the
/// data, with `\r` and `\n` kept, other unprintable bytes as `.`, and a newline
/// added at its end. Node 0 sent the first data (normally the client, which
/// opens the stream): its data is `out`, node 1's `in`. The session is the
/// filter (`tcp.stream eq 0`).
final class TsharkFollowParser: LogLineParser {
    // Never at rest (the protocol's default): it keeps the session from the
    // `Filter:` line and the length of the chunk being read. Between chunks it
    // hands on the session (a part of the log starts at a chunk's length).

    private var session: String?
    /// Bytes of the current chunk still to come, and its direction.
    private var remaining = 0
    private var direction: LogDirection = .outgoing
    private var chunkStarted = false
    /// The chunk ended with a newline of its own: the one tshark adds follows as an empty line.
    private var swallowEmptyLine = false

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("Follow: tcp,") || line.has("Follow: tls,") || line.has("Follow: ssl,")
    }

    var handover: LogParserState? {
        guard remaining == 0, !swallowEmptyLine else { return nil }
        return LogParserState(values: session.map { [Array($0.utf8)] } ?? [])
    }

    func resume(from state: LogParserState) {
        session = state.values.first.map { String(decoding: $0, as: UTF8.self) }
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        // A chunk's length that covers more than its data (a line of it missing):
        // its last line cannot be longer than what is left, and a line that is a
        // chunk's length there is the next chunk's.
        if remaining > 0 && line.count > remaining && Self.chunkLength(line) != nil { remaining = 0 }
        if remaining > 0 {
            var parsed = ParsedLine(kind: .more, payload: 0..<line.count)
            if !chunkStarted {
                var header = RecordHeader()
                header.direction = direction
                header.session = session
                parsed = ParsedLine(record: header, payload: 0..<line.count)
                chunkStarted = true
            }
            if line.count >= remaining {
                remaining = 0
            } else {
                remaining -= line.count + 1   // the line and its newline
                if remaining == 0 { swallowEmptyLine = true }
            }
            return parsed
        }
        if swallowEmptyLine && line.count == 0 {
            swallowEmptyLine = false
            return ParsedLine(kind: .more, payload: 0..<0)
        }
        swallowEmptyLine = false
        if line.has("Filter: ") {
            session = line.string(8..<line.contentEnd)
            return .text
        }
        guard let (length, node1) = Self.chunkLength(line) else {
            // Where a chunk's length is due, a line of tshark's own or more data of
            // the chunk before, whose length covered less than its data.
            if line.isEmpty || line.has("===") || line.has("Follow: ") || line.has("Node ") { return .text }
            return ParsedLine(kind: .more, payload: 0..<line.count)
        }
        remaining = length
        direction = node1 ? .incoming : .outgoing
        chunkStarted = false
        return .text
    }

    /// A chunk's length: digits, after a tab for node 1.
    static func chunkLength(_ line: UnsafeBufferPointer<UInt8>) -> (length: Int, node1: Bool)? {
        let node1 = line.count > 0 && line[0] == 0x09
        var index = node1 ? 1 : 0
        var length = 0
        while index < line.count, isASCIIDigit(line[index]) {
            length = length &* 10 &+ Int(line[index] - 0x30)
            index += 1
        }
        guard index == line.count, index > (node1 ? 1 : 0), length > 0, length < 1 << 40 else { return nil }
        return (length, node1)
    }
}

// MARK: - The format

extension LogFormat {
    public static let tshark = LogFormat(TsharkFollowParser.self)
}

extension TsharkFollowParser: SkippableLogFormat {
    static let name = "tshark"
    static let detectionRank: Int? = 9
    static func makeParser() -> any LogLineParser { TsharkFollowParser() }

    /// A stanza's bytes as tshark writes them (dots for what is not printable
    /// ASCII, as a full read reads them too); the last line of each chunk
    /// that is not whole stanzas is read, found by a walk from length to
    /// length (no mark: every line's end would be one); the `Filter:` lines
    /// are noted (TsharkSkipping.swift).
    static let recordSpelling: RecordSpelling = RecordSpelling(
        spellings: { spellings($0) },
        marks: [],
        mustRead: { _, _ in true },
        noted: [Array("Filter: ".utf8)],
        walk: { TsharkChunkWalk() })

    private static let filterLine = StaticNeedle("Filter: ")

    /// The session of the last `Filter:` line (a follow of another stream starts anew).
    static func carriedState(after part: UnsafeBufferPointer<UInt8>, from state: LogParserState) -> LogParserState {
        var found = state
        var index = 0
        while let start = part.offset(of: filterLine, from: index) {
            let end = part.firstIndex(of: 0x0A, from: start) ?? part.count
            if start == 0 || part[start - 1] == 0x0A {
                let line = UnsafeBufferPointer(rebasing: part[start..<end])
                found = LogParserState(values: [Array(line[8..<line.contentEnd])])
            }
            index = end
        }
        return found
    }

    /// A part starts at a chunk's length, with the session of the follow.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard chunkLength(line) != nil else { return nil }
        // Not after data that leaves a stanza open (a chunk that ended inside it), likely.
        let end = previous.contentEnd
        if end > 0, chunkLength(previous) == nil, !previous.has("Node ") {
            guard previous[end - 1] == 0x3E, LogFormat.openDepth(UnsafeBufferPointer(rebasing: previous[..<end])) <= 0 else { return nil }
        }
        return carried
    }
}
