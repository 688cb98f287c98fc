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
/// the whole input keeps apart), at damage to the envelope (whose report goes
/// between the stanzas of the lines around it), and at a line too long to hold.
public final class UnwrappedLog {
    public let envelope: Envelope
    /// Reads the input's next bytes into the buffer: how many, 0 at its end.
    private let readInput: (UnsafeMutableRawBufferPointer) -> Int
    /// Why the rest of the input is to be read whole; `nil`: nothing yet.
    @exclusivity(unchecked) public private(set) var trouble: String?
    private var inputEnded = false
    /// How the entries are taken apart.
    private var taker: EntryTaker!

    /// The text taken out and not yet handed on, and where it starts in all of it.
    @exclusivity(unchecked) fileprivate var text: [UInt8] = []
    @exclusivity(unchecked) private var textStart = 0
    /// Where each stretch of consecutive lines starts in the text, its first
    /// line's number in the input, and how many lines of text come before it.
    @exclusivity(unchecked) private var runs: [(offset: Int, line: Int, linesBefore: Int)] = []
    @exclusivity(unchecked) private var linesBefore = 0
    /// The number the next line must have to go on in the last run.
    @exclusivity(unchecked) private var nextRunLine = -1
    /// Where the line being taken out starts in the text, and its number.
    @exclusivity(unchecked) private var lineStart: (offset: Int, line: Int)?
    /// How many input bytes were read since the text last grew.
    private var readWithoutText = 0
    /// The most input read without a line of text: past it, the input is read whole.
    static let longestLine = 1 << 24

    /// - Parameter readInput: reads the input's next bytes into the buffer it
    ///   is given and says how many (0 at the input's end).
    public init(envelope: Envelope, readInput: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.envelope = envelope
        self.readInput = readInput
        if let fast = envelope.definition as? any FastLineEnvelope.Type {
            taker = Self.fastTaker(fast, log: self)
        } else {
            taker = DecodedEntryTaker(envelope, log: self)
        }
    }

    /// (Specialised for the envelope: its lines are taken apart on every line.)
    private static func fastTaker<Definition: FastLineEnvelope>(_: Definition.Type, log: UnwrappedLog) -> any EntryTaker {
        FastLineTaker<Definition>(log: log)
    }

    /// What the input is read into.
    private var raw = [UInt8](repeating: 0, count: 1 << 16)

    /// Copies the text from `offset` on (where the last read ended) into
    /// `buffer`: how many bytes, fewer than it holds only at the end of the
    /// input or of what can be read in parts.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        precondition(offset >= textStart && offset <= textStart + text.count)
        text.removeSubrange(..<(offset - textStart))
        textStart = offset
        // (Only whole lines are handed on: a line begun may yet be dropped.)
        while wholeLines < buffer.count && !inputEnded && trouble == nil {
            let count = raw.withUnsafeMutableBytes(readInput)
            if count == 0 {
                inputEnded = true
                taker.finish()
            } else {
                let before = wholeLines
                raw.withUnsafeBufferPointer { taker.feed(UnsafeBufferPointer(rebasing: $0[..<count])) }
                readWithoutText = wholeLines > before ? 0 : readWithoutText + count
                if readWithoutText > Self.longestLine { stop(because: "a line of over \(Self.longestLine) bytes") }
            }
        }
        let handed = min(buffer.count, wholeLines)
        text.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: handed) }
        return handed
    }

    /// How many bytes of the text not yet handed on are whole lines.
    private var wholeLines: Int { (lineStart?.offset ?? textEnd) - textStart }

    /// The input's lines and the envelope's facts of the text from `offset` to
    /// `end`, which starts at a line's start after `linesBefore` lines of text
    /// and holds `lines` lines. What comes before `end` is forgotten.
    public func lines(from offset: Int, to end: Int, linesBefore: Int, lines: Int) -> EnvelopedLines {
        var partRuns: [(offset: Int, line: Int)] = []
        let firstLine = line(at: offset, linesBefore: linesBefore)
        let endLine = line(at: end, linesBefore: linesBefore + lines)
        partRuns.append((0, firstLine))
        var index = 0
        while index < runs.count && runs[index].offset <= offset { index += 1 }
        while index < runs.count && runs[index].offset < end {
            partRuns.append((runs[index].offset - offset, runs[index].line))
            index += 1
        }
        // The run that holds `end` goes on in the next part.
        runs.removeSubrange(..<max(0, index - 1))
        return EnvelopedLines(envelope: envelope, runs: partRuns,
                              facts: taker.facts(from: offset, to: end, lines: firstLine..<endLine))
    }

    /// The input's line of the text's line that starts at `offset`, after `linesBefore` lines.
    private func line(at offset: Int, linesBefore: Int) -> Int {
        guard let run = runs.last(where: { $0.offset <= offset }) else { return runs.first?.line ?? 1 }
        return run.line + linesBefore - run.linesBefore
    }

    // MARK: - What the takers write

    /// A line of text starts, the input's line `number`.
    fileprivate func beginLine(_ number: Int) {
        if number != nextRunLine { runs.append((textStart + text.count, number, linesBefore)) }
        lineStart = (textStart + text.count, number)
    }

    /// The line of text begun last ends.
    fileprivate func endLine() {
        text.append(0x0A)
        linesBefore += 1
        nextRunLine = (lineStart?.line ?? nextRunLine) + 1
        lineStart = nil
    }

    /// A block of whole lines of text, the first one the input's line `firstLine`.
    fileprivate func appendLines(_ block: [UInt8], firstLine: Int) {
        if firstLine != nextRunLine { runs.append((textStart + text.count, firstLine, linesBefore)) }
        text.append(contentsOf: block)
        let newlines = block.withUnsafeBufferPointer(countNewlines)
        linesBefore += newlines
        nextRunLine = firstLine + newlines
    }

    /// Where the next text goes, in all of it.
    fileprivate var textEnd: Int { textStart + text.count }

    fileprivate func stop(because reason: String) {
        guard trouble == nil else { return }
        // The lines before are the source's alone, and whole; a line begun is not.
        if let start = lineStart {
            text.removeSubrange((start.offset - textStart)...)
            runs.removeAll { $0.offset >= start.offset && $0.line >= start.line }
            lineStart = nil
        }
        trouble = reason
    }

    fileprivate var isStopped: Bool { trouble != nil }
}

/// Takes an envelope's entries apart for an ``UnwrappedLog``.
private protocol EntryTaker: AnyObject {
    func feed(_ bytes: UnsafeBufferPointer<UInt8>)
    func finish()
    /// The facts of the text from `offset` to `end`, the input's `lines`; those before are forgotten.
    func facts(from offset: Int, to end: Int, lines: Range<Int>) -> EnvelopedLines.Facts
}

/// Any envelope: its decoder's entries, their lines in blocks, their facts kept.
private final class DecodedEntryTaker: EntryTaker {
    private unowned(unsafe) let log: UnwrappedLog
    private let decoder: any EnvelopeDecoder
    private var lines = SourceLines(name: nil, blockLineLimit: Int.max)
    private var key: SourceKey?
    /// Each line's facts, and where its text starts.
    private var facts: [(offset: Int, facts: EnvelopeEntry)] = []

    init(_ envelope: Envelope, log: UnwrappedLog) {
        self.log = log
        decoder = envelope.makeDecoder()
    }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        decoder.feed(bytes, { take($0) }, damage: { noteDamage($0) })
        if !log.isStopped { lines.flush(read: log.appendLines) }
    }

    func finish() {
        decoder.finish({ take($0) }, damage: { noteDamage($0) })
        guard !log.isStopped else { return }
        lines.endPartialLine(facts: note, read: log.appendLines)
        lines.flush(read: log.appendLines)
    }

    func facts(from offset: Int, to end: Int, lines: Range<Int>) -> EnvelopedLines.Facts {
        var taken = 0
        while taken < facts.count && facts[taken].offset < end { taken += 1 }
        let partFacts = facts[..<taken].compactMap { $0.offset >= offset ? $0.facts : nil }
        facts.removeSubrange(..<taken)
        return .entries(partFacts)
    }

    private func take(_ entry: EnvelopeEntry) {
        guard !log.isStopped else { return }
        let entryKey = SourceKey(source: entry.source, session: entry.session)
        if key == nil { key = entryKey }
        guard entryKey == key else {
            stop(because: "a second source at line \(entry.line)")
            return
        }
        lines.take(entry, facts: note, read: log.appendLines)
    }

    private func noteDamage(_ damage: InputDamage) {
        stop(because: "damage at line \(damage.line)")
    }

    private func stop(because reason: String) {
        guard !log.isStopped else { return }
        lines.flush(read: log.appendLines)
        log.stop(because: reason)
    }

    private func note(_ entry: EnvelopeEntry, waiting: Int) {
        facts.append((log.textEnd + waiting, entry))
    }
}

/// A ``FastLineEnvelope``: each line's text written out, and the bytes its
/// facts are in kept, from which the facts are taken only for the stanzas that ask.
private final class FastLineTaker<Definition: FastLineEnvelope>: EntryTaker {
    private unowned(unsafe) let log: UnwrappedLog
    private var lines = LineSplitter()
    /// The facts' bytes of the input's lines from `firstLine` on, one after
    /// the other, and where each starts (the start of all of them is `factsStart`).
    @exclusivity(unchecked) private var facts: [UInt8] = []
    @exclusivity(unchecked) private var factStarts: [Int] = []
    private var factsStart = 0
    private var firstLine = 1
    /// The source the first entry names (`nil`: none), once there was one.
    private var source: [UInt8]??
    /// Whether a line of text was begun and goes on in the next entry.
    private var lineBegun = false

    init(log: UnwrappedLog) {
        self.log = log
    }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        lines.feed(bytes) { if !log.isStopped { take($0) } }
    }

    func finish() {
        lines.finish { if !log.isStopped { take($0) } }
        // A line the input ended in the middle of: what came of it is read.
        if !log.isStopped, lineBegun { log.endLine() }
    }

    private func take(_ raw: UnsafeBufferPointer<UInt8>) {
        let number = firstLine + factStarts.count
        factStarts.append(factsStart + facts.count)
        var end = raw.count
        if end > 0, raw[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: raw[..<end])
        guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return }
        if !lineBegun {
            log.beginLine(number)
            lineBegun = true
        }
        // (What the line appended is dropped with the line begun, if it stops here.)
        let mark = log.text.count
        let taken: TakenLine
        let sameSource: Bool
        if let fast = Definition.take(line, text: &log.text) {
            taken = fast
            sameSource = isSameSource(fast.source.map { UnsafeBufferPointer(rebasing: line[$0]) })
        } else {
            // Not of the shape taken apart fast: as an entry.
            log.text.removeSubrange(mark...)
            guard let entry = Definition.entry(of: line, number: number) else {
                log.stop(because: "damage at line \(number)")
                return
            }
            log.text.append(contentsOf: entry.text)
            taken = TakenLine(source: nil, facts: 0..<line.count, partial: entry.partial)
            sameSource = entry.source.map { Array($0.utf8).withUnsafeBufferPointer { isSameSource($0) } } ?? isSameSource(nil)
        }
        guard sameSource else {
            log.stop(because: "a second source at line \(number)")
            return
        }
        facts.append(contentsOf: UnsafeBufferPointer(rebasing: line[taken.facts]))
        if !taken.partial {
            log.endLine()
            lineBegun = false
        }
    }

    /// Whether `name` is the source the first entry named (the first entry's is).
    private func isSameSource(_ name: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let known = source else {
            source = .some(name.map(Array.init))
            return true
        }
        guard let name, let known else { return name == nil && known == nil }
        return known.withUnsafeBufferPointer { $0.isSame(as: name) }
    }

    func facts(from offset: Int, to end: Int, lines: Range<Int>) -> EnvelopedLines.Facts {
        let first = min(max(lines.lowerBound - firstLine, 0), factStarts.count)
        let last = max(first, min(lines.upperBound - firstLine, factStarts.count))
        let all = factsStart + facts.count
        let startOffset = first < factStarts.count ? factStarts[first] : all
        let endOffset = last < factStarts.count ? factStarts[last] : all
        let bytes = Array(facts[(startOffset - factsStart)..<(endOffset - factsStart)])
        let starts = factStarts[first..<last].map { $0 - startOffset }
        // What the next part needs starts at its first line.
        facts.removeSubrange(..<(endOffset - factsStart))
        factsStart = endOffset
        factStarts.removeSubrange(..<last)
        firstLine += last
        return .lines(bytes: bytes, starts: starts, firstLine: firstLine - last + first)
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
    let facts: Facts

    /// The envelope's facts of the text's lines.
    enum Facts: Sendable {
        /// Each line's, in order.
        case entries([EnvelopeEntry])
        /// The bytes of the facts of each of the input's lines from
        /// `firstLine` on (a ``FastLineEnvelope``'s), one after the other:
        /// taken apart again for a stanza that starts in one.
        case lines(bytes: [UInt8], starts: [Int], firstLine: Int)
    }

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
        entry(at: source.line)?.addFacts(to: &source)
    }

    private func entry(at line: Int) -> EnvelopeEntry? {
        switch facts {
        case .entries(let entries):
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].line < line { low = middle + 1 } else { high = middle }
            }
            return low < entries.count && entries[low].line == line ? entries[low] : nil
        case .lines(let bytes, let starts, let firstLine):
            let index = line - firstLine
            guard index >= 0, index < starts.count, let definition = envelope.definition as? any LineEnvelope.Type else { return nil }
            let end = index + 1 < starts.count ? starts[index + 1] : bytes.count
            return bytes.withUnsafeBufferPointer { definition.entry(of: UnsafeBufferPointer(rebasing: $0[starts[index]..<end]), number: line) }
        }
    }
}
