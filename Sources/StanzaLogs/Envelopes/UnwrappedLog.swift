#if canImport(StanzaXML)
import StanzaXML
#endif

/// The log inside an envelope, taken out of it for a search in parts
/// (stanzaq(1), "Parallelism"): read from the input as asked for, it gives the
/// program's text of the envelope's one source, and for each stretch of that
/// text the input's lines and the envelope's facts (``EnvelopedLines``), so
/// that a part of it is read as a part of a plain log, its stanzas placed and
/// described as an ``EnvelopeReader`` places and describes them.
///
/// It stops (``trouble``) where a part could no longer be read as one
/// ``EnvelopeReader`` reads it: at a second source (whose lines a reader of
/// the whole input keeps apart) and at damage to the envelope (whose report
/// goes between the stanzas of the lines around it).
public final class UnwrappedLog {
    public let envelope: Envelope
    private let decoder: any EnvelopeDecoder
    /// Reads the input's next bytes into the buffer: how many, 0 at its end.
    private let readInput: (UnsafeMutableRawBufferPointer) -> Int
    private var lines: SourceLines
    private var key: SourceKey?
    /// Why the rest of the input is to be read whole; `nil`: nothing yet.
    public private(set) var trouble: String?
    private var inputEnded = false

    /// The text taken out and not yet handed on, and where it starts in all of it.
    private var text: [UInt8] = []
    private var textStart = 0
    /// Where each stretch of consecutive lines starts in the text, its first
    /// line's number in the input, and how many lines of text come before it.
    private var runs: [(offset: Int, line: Int, linesBefore: Int)] = []
    private var linesBefore = 0
    /// The number the next line must have to go on in the last run.
    private var nextRunLine = -1
    /// Each line's facts, and where its text starts.
    private var facts: [(offset: Int, facts: EnvelopeEntry)] = []

    /// - Parameter readInput: reads the input's next bytes into the buffer it
    ///   is given and says how many (0 at the input's end).
    public init(envelope: Envelope, readInput: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.envelope = envelope
        decoder = envelope.makeDecoder()
        self.readInput = readInput
        lines = SourceLines(name: nil, blockLineLimit: Int.max)
    }

    /// Copies the text from `offset` on (where the last read ended) into
    /// `buffer`: how many bytes, fewer than it holds only at the end of the
    /// input or of what can be read in parts.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        precondition(offset >= textStart && offset <= textStart + text.count)
        text.removeSubrange(..<(offset - textStart))
        textStart = offset
        var raw = [UInt8](repeating: 0, count: 1 << 16)
        while text.count < buffer.count && !inputEnded && trouble == nil {
            let count = raw.withUnsafeMutableBytes(readInput)
            raw.withUnsafeBufferPointer { feed(UnsafeBufferPointer(rebasing: $0[..<count])) }
            if count == 0 {
                inputEnded = true
                decoder.finish({ take($0) }, damage: { noteDamage($0) })
                if trouble == nil { lines.endPartialLine(facts: note, read: append) }
            }
            if trouble == nil { lines.flush(read: append) }
        }
        let count = min(buffer.count, text.count)
        text.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
        return count
    }

    /// The input's lines and the envelope's facts of the text from `offset` to
    /// `end`, which starts at a line's start after `linesBefore` lines of text.
    /// What comes before `end` is forgotten.
    public func lines(from offset: Int, to end: Int, linesBefore: Int) -> EnvelopedLines {
        var partRuns: [(offset: Int, line: Int)] = []
        var covering = 0
        while covering + 1 < runs.count && runs[covering + 1].offset <= offset { covering += 1 }
        if covering < runs.count && runs[covering].offset <= offset {
            let run = runs[covering]
            partRuns.append((0, run.line + linesBefore - run.linesBefore))
        }
        var index = covering + 1
        while index < runs.count && runs[index].offset < end {
            partRuns.append((runs[index].offset - offset, runs[index].line))
            index += 1
        }
        // The run that holds `end` goes on in the next part.
        runs.removeSubrange(..<max(0, index - 1))
        var taken = 0
        while taken < facts.count && facts[taken].offset < end { taken += 1 }
        let partFacts = facts[..<taken].compactMap { $0.offset >= offset ? $0.facts : nil }
        facts.removeSubrange(..<taken)
        return EnvelopedLines(envelope: envelope, runs: partRuns, facts: partFacts)
    }

    private func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        decoder.feed(bytes, { take($0) }, damage: { noteDamage($0) })
    }

    private func take(_ entry: EnvelopeEntry) {
        guard trouble == nil else { return }
        let entryKey = SourceKey(source: entry.source, session: entry.session)
        if key == nil { key = entryKey }
        guard entryKey == key else {
            stop(because: "a second source at line \(entry.line)")
            return
        }
        lines.take(entry, facts: note, read: append)
    }

    private func noteDamage(_ damage: InputDamage) {
        stop(because: "damage at line \(damage.line)")
    }

    private func stop(because reason: String) {
        guard trouble == nil else { return }
        // The lines before are the source's alone, and whole.
        lines.flush(read: append)
        trouble = reason
    }

    private func note(_ entry: EnvelopeEntry, waiting: Int) {
        facts.append((textStart + text.count + waiting, entry))
    }

    private func append(_ block: [UInt8], firstLine: Int) {
        if firstLine != nextRunLine { runs.append((textStart + text.count, firstLine, linesBefore)) }
        text.append(contentsOf: block)
        let newlines = block.withUnsafeBufferPointer(countNewlines)
        linesBefore += newlines
        nextRunLine = firstLine + newlines
    }
}

/// The input's lines and the envelope's facts of a stretch of a log taken out
/// of its envelope (``UnwrappedLog``): what a reader of that text needs to
/// place and describe its stanzas as an ``EnvelopeReader`` does.
public struct EnvelopedLines: Sendable {
    public let envelope: Envelope
    /// Where each stretch of consecutive lines starts in the text, and its
    /// first line's number in the input.
    let runs: [(offset: Int, line: Int)]
    /// The facts of each of the text's lines, in order.
    let facts: [EnvelopeEntry]

    /// The input's line of the text's first line.
    public var firstLine: Int { runs.first?.line ?? 1 }

    /// Hands `body` each stretch of `text` (this value's text) whose lines
    /// follow each other in the input, with its first line's number; stops
    /// when `body` returns false.
    public func forEachRun(of text: UnsafeRawBufferPointer, _ body: (Int, UnsafeRawBufferPointer) throws -> Bool) rethrows {
        for (index, run) in runs.enumerated() {
            let end = index + 1 < runs.count ? runs[index + 1].offset : text.count
            guard try body(run.line, UnsafeRawBufferPointer(rebasing: text[run.offset..<end])) else { return }
        }
    }

    /// The envelope's facts for a stanza that starts at `source.line`.
    public func addFacts(to source: inout StanzaSource) {
        var low = 0, high = facts.count
        while low < high {
            let middle = (low + high) / 2
            if facts[middle].line < source.line { low = middle + 1 } else { high = middle }
        }
        if low < facts.count && facts[low].line == source.line { facts[low].addFacts(to: &source) }
    }
}
