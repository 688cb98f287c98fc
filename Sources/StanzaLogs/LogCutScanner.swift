import CByteSearch
#if canImport(StanzaXML)
import StanzaXML
#endif

/// The producer's side of a log read in parts (a parallel search): where a part
/// may start, and the state its reader starts in (``LogHandover``), told from
/// the lines around each cut and a cheap look at the bytes of each part — what
/// the format carries over parts (``CuttableLogFormat/carriedState(after:from:)``)
/// and the stream headers, which give their streams a namespace. No line is
/// read as a reader reads it: a guess, which the readers of the parts check
/// (``LogHistory``), so that a wrong one costs time, never output.
public final class LogCutScanner {
    let format: LogFormat
    private var carried = LogParserState()
    private var namespaces: [LogReader.ChannelKey: String] = [:]
    /// The namespaces before the first records skipped since the last part
    /// started (``skipped(_:)``), which the reader of the part before hands on.
    private var namespacesBeforeSkipped: [LogReader.ChannelKey: String]?
    /// Likewise what was carried (the lines skipped may change it: tshark's `Filter:`).
    private var carriedBeforeSkipped: LogParserState?

    public init(format: LogFormat) {
        self.format = format
    }

    /// Whether a part may start at `line` (without its line feed), after `previous`.
    public func mayStart(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>) -> Bool {
        withTerminalEscapesRemoved(line) { line in
            withTerminalEscapesRemoved(previous) { format.cutting?.partState(at: line, after: $0, carried: carried) != nil }
        }
    }

    /// The state of the reader of a part that starts at `line`, after `previous`,
    /// once the bytes before it were ``passed(_:)``.
    public func partStart(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>) -> LogHandover {
        var start = LogHandover()
        start.parser = withTerminalEscapesRemoved(line) { line in
            withTerminalEscapesRemoved(previous) { format.cutting?.partState(at: line, after: $0, carried: carried) }
        } ?? carried
        start.namespaces = namespaces
        start.namespacesHandedOn = namespacesBeforeSkipped
        namespacesBeforeSkipped = nil
        start.parserHandedOn = carriedBeforeSkipped
        carriedBeforeSkipped = nil
        return start
    }

    /// A reader of the lines just before the candidate cuts of a part, to tell
    /// where a stanza is open (in any session) that a look at two lines misses.
    private var window: LogReader?
    private var windowEnd = 0
    /// How far back the window starts: lines, and bytes at most.
    static let windowLines = 64, windowBytes = 1 << 16

    /// Whether a reader of the last few dozen lines of `bytes` before `lineStart`
    /// (a line where a part ``mayStart(at:after:)``) ends there at a clean cut,
    /// as far as those lines tell: no stanza left open in any session (a read of
    /// a socket or a chunk that ended inside it, a stanza whose text has lines
    /// that look like records). Lines are read once for the candidates of a part,
    /// from the window before the first; ``cut()`` starts again for the next.
    public func endsCleanly(_ bytes: UnsafeBufferPointer<UInt8>, at lineStart: Int) -> Bool {
        if window == nil || windowEnd > lineStart {
            var start = lineStart
            for _ in 0..<Self.windowLines where start > 0 && lineStart - start < Self.windowBytes {
                start = bytes.lastIndex(of: 0x0A, before: start - 1).map { $0 + 1 } ?? 0
            }
            let reader = LogReader(format: format, handler: { _, _ in true }, damage: { _ in })
            reader.depthLimit = 0
            window = reader
            windowEnd = start
        }
        guard let window else { return true }
        window.feed(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[windowEnd..<lineStart]))
        windowEnd = lineStart
        return window.handOffTrouble(lettingGoOfWaitingTags: true) == nil
    }

    /// The part was cut: the next part's candidates are read anew.
    public func cut() {
        window = nil
        windowEnd = 0
    }

    /// Notes the bytes of records that no part holds (a stream header's, which
    /// a search that skips records notes rather than reads): the part after
    /// them starts with the namespaces they declare, and the one before must
    /// hand on those declared before them (``LogHandover/namespacesHandedOn``).
    public func skipped(_ records: UnsafeBufferPointer<UInt8>) {
        if namespacesBeforeSkipped == nil { namespacesBeforeSkipped = namespaces }
        if carriedBeforeSkipped == nil { carriedBeforeSkipped = carried }
        passed(records)
    }

    /// Notes a part's bytes (the parts in order from the log's start).
    public func passed(_ part: UnsafeBufferPointer<UInt8>) {
        // What is carried changes along the part (tshark's `Filter:` of each
        // stream followed): each header is read with what is carried up to its line.
        var from = 0, noted = 0
        while let hit = part.offset(of: .streamStart, from: from) {
            let line = lineStart(in: part, before: hit)
            if line > noted {
                carried = format.cutting?.carriedState(after: UnsafeBufferPointer(rebasing: part[noted..<line]), from: carried) ?? carried
                noted = line
            }
            noteStreamHeader(in: part, at: hit)
            from = hit + 1
        }
        carried = format.cutting?.carriedState(after: UnsafeBufferPointer(rebasing: part[noted...]), from: carried) ?? carried
    }

    /// The lines a stream header is read from are read again here: its own line,
    /// if a parser started there reads a record in it (ejabberd's, slixmpp's),
    /// else from the nearest line before it where a part may start (a tshark
    /// chunk's length), by a parser started there: the header's channel, and the
    /// namespace it declares.
    private func noteStreamHeader(in bytes: UnsafeBufferPointer<UInt8>, at hit: Int) {
        var end = bytes.firstIndex(of: 0x0A, from: hit) ?? bytes.count
        var start = lineStart(in: bytes, before: hit)
        // Most lines that name a stream's start are text to any parser (Prosody's
        // "Client sent opening <stream:stream>"): not looked at further. (A line that
        // continues a term or node, which a parser started here reads as text, is
        // missed: its part's reader then finds another namespace, and the log is read whole.)
        var channel: (key: LogReader.ChannelKey, first: String?)?
        let parser = format.makeParser()
        parser.resume(from: carried)
        let kind = withTerminalEscapesRemoved(UnsafeBufferPointer(rebasing: bytes[start..<end])) { line in
            let parsed = parser.parse(line)
            if parsed.kind == .record || parsed.kind == .maybeMoreElseRecord { note(parsed, line, &channel) }
            return parsed.kind
        }
        if kind == .text || kind == .unrelated || kind == .record || kind == .maybeMoreElseRecord { return }
        // Back to where a part may start: at most a few lines (a record of stream data is short).
        var lines = 0
        var state: LogParserState?
        while lines < 64 {
            lines += 1
            guard start > 0 else { state = carried; break }
            let previousStart = lineStart(in: bytes, before: start - 1)
            state = withTerminalEscapesRemoved(UnsafeBufferPointer(rebasing: bytes[start..<end])) { line in
                withTerminalEscapesRemoved(UnsafeBufferPointer(rebasing: bytes[previousStart..<(start - 1)])) {
                    format.cutting?.partState(at: line, after: $0, carried: carried)
                }
            }
            if state != nil { break }
            end = start - 1
            start = previousStart
        }
        guard let state else { return }
        let reader = format.makeParser()
        reader.resume(from: state)
        // The lines from the one found on to the header's, read forward.
        for _ in 0..<lines {
            end = bytes.firstIndex(of: 0x0A, from: start) ?? bytes.count
            withTerminalEscapesRemoved(UnsafeBufferPointer(rebasing: bytes[start..<end])) { line in
                let parsed = reader.parse(line)
                if end > hit || parsed.kind == .record || parsed.kind == .maybeMoreElseRecord { note(parsed, line, &channel) }
            }
            start = end + 1
        }
    }

    /// A line a parser read: a record's names its channel; the stream header at
    /// the start of its data (if any) gives the channel's stream a namespace.
    private func note(_ parsed: ParsedLine, _ line: UnsafeBufferPointer<UInt8>, _ channel: inout (key: LogReader.ChannelKey, first: String?)?) {
        if parsed.kind == .record || parsed.kind == .maybeMoreElseRecord {
            if let header = parsed.lineHeader {
                channel = (LogReader.ChannelKey(direction: header.direction,
                                                session: header.session.map { LogText(UnsafeBufferPointer(rebasing: line[$0])) }),
                           LogReader.string(header.streamNamespace ?? format.streamNamespace))
            } else if let header = parsed.header {
                channel = (LogReader.ChannelKey(direction: header.source.direction, session: header.source.sessionText),
                           header.streamNamespace ?? LogReader.string(format.streamNamespace))
            }
        }
        guard let channel, parsed.kind != .text, parsed.kind != .unrelated else { return }
        let declared: String?? = parsed.decoded.map { $0.withUnsafeBufferPointer(Self.declaredNamespace) }
            ?? Self.declaredNamespace(UnsafeBufferPointer(rebasing: line[parsed.payload]))
        guard let declared, let declared else { return }
        // (Written only if it changes: the parts' starts share the dictionary, which a
        // write copies whole, and a log's sessions declare the same namespace again
        // and again.)
        let namespace = declared.isEmpty || declared == channel.first ? nil : declared
        if namespaces[channel.key] != namespace { namespaces[channel.key] = namespace }
    }

    private func lineStart(in bytes: UnsafeBufferPointer<UInt8>, before index: Int) -> Int {
        var start = index
        while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
        return start
    }

    /// The default namespace the last stream header at the start of `data`
    /// declares ("" none), as a channel reads it; `nil` if none starts it.
    static func declaredNamespace(_ data: UnsafeBufferPointer<UInt8>) -> String?? {
        var found: String?? = nil
        var start = 0
        while true {
            let first = data.skippingBlanks(from: start)
            guard let skip = streamBoundary(data, at: first) else { return found }
            if let namespace = skip.namespace { found = .some(namespace) }
            start = skip.end
        }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The last offset before `end` holding `byte`.
    func lastIndex(of byte: UInt8, before end: Int) -> Int? {
        guard let base = baseAddress, end > 0 else { return nil }
        let found = stanzaq_find_last_byte(base, end, byte)
        return found >= 0 ? found : nil
    }

    /// Where `needle` first occurs at or after `from`: over a whole part of a
    /// log, not a line (CByteSearch's search of many bytes at once, AVX2's 32
    /// where the processor has it: with SSE2's 16, this search was much of the
    /// work of the producer of a parallel read).
    func offset(of needle: StaticNeedle, from: Int) -> Int? {
        guard let base = baseAddress, from < count else { return nil }
        var described = needle.described
        var which: Int32 = -1
        let found = stanzaq_find_literals(base, from, count, &described, 1, &which)
        return found < count ? found : nil
    }
}

/// A literal of the code, described for ``stanzaq_find_literals`` once (its
/// two rarest bytes chosen, ``stanzaq_needle_make``) rather than at each
/// search: the producer of a parallel read of tshark's output searches for
/// each stream header, and describing the needle at each search was a
/// noticeable part of it.
struct StaticNeedle: @unchecked Sendable {   // (its bytes are a StaticString's: immutable, never freed)
    let described: stanzaq_needle

    init(_ literal: StaticString) {
        described = stanzaq_needle_make(literal.utf8Start, literal.utf8CodeUnitCount, 0)
    }

    static let streamStart = StaticNeedle("<stream:stream")
}
