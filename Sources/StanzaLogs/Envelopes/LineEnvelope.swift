#if canImport(StanzaXML)
import StanzaXML
#endif

/// An envelope that wraps each line of a program's output in a line of its
/// own (a container runtime's, a log shipper's): recognised by its first line,
/// taken apart line by line.
protocol LineEnvelope: EnvelopeDefinition {
    /// The entry `line` (without its line feed) is, or `nil` if it is none of
    /// this envelope's.
    static func entry(of line: UnsafeBufferPointer<UInt8>, number: Int) -> EnvelopeEntry?
    /// What a line that is not an entry is called in a message.
    static var lineName: String { get }
    /// The message for `line`, which is none of this envelope's entries.
    static func refusal(of line: UnsafeBufferPointer<UInt8>) -> String
}

extension LineEnvelope {
    static func recognises(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Bool? {
        var start = 0
        if head.has("\u{FEFF}") { start = 3 }
        while start < head.count, head[start] == 0x0A || head[start] == 0x0D { start += 1 }
        guard let newline = head.firstIndex(of: 0x0A, from: start) else {
            if atEnd { return start < head.count && entry(of: UnsafeBufferPointer(rebasing: head[start...]), number: 1) != nil }
            return head.count >= 4096 ? false : nil
        }
        var end = newline
        if end > start, head[end - 1] == 0x0D { end -= 1 }
        return entry(of: UnsafeBufferPointer(rebasing: head[start..<end]), number: 1) != nil
    }

    static func makeDecoder() -> any EnvelopeDecoder { LineEnvelopeDecoder<Self>() }

    static func refusal(of line: UnsafeBufferPointer<UInt8>) -> String { "not \(lineName) line: skipped" }
}

/// A line envelope whose lines the producer of a search in parts takes apart
/// as fast as it copies them (``UnwrappedLog``): each line's text written out,
/// no entry made, the bytes its facts are in kept for the stanzas that ask.
protocol FastLineEnvelope: LineEnvelope {
    /// Takes `line` (without its line feed) apart as ``entry(of:number:)``
    /// does: appends the program's text to `text` and says where the rest is;
    /// `nil` if it is none of this envelope's lines, or not of the shape taken
    /// apart fast (`text` is then to be dropped from where it was). The entry
    /// of the bytes ``TakenLine/facts`` (alone) is the line's, text aside.
    static func take(_ line: UnsafeBufferPointer<UInt8>, text: inout [UInt8]) -> TakenLine?
}

/// Where a line of a ``FastLineEnvelope`` holds what, besides its text.
struct TakenLine {
    var source: Range<Int>?
    /// The bytes to take the line's facts from.
    var facts: Range<Int>
    /// Whether the program's line goes on in the source's next entry.
    var partial: Bool
}

/// A line envelope that keeps the program's line as it is after a prefix
/// (`docker logs -t`, compose, the CRI log): its lines are taken apart without
/// a copy, and the prefix holds the facts.
protocol PlainLineEnvelope: FastLineEnvelope {
    /// Where `line` (without its line feed) holds what, or `nil` if it is none
    /// of this envelope's lines.
    static func plainEntry(of line: UnsafeBufferPointer<UInt8>) -> PlainEntry?
}

/// Where a line of a ``PlainLineEnvelope`` holds what.
struct PlainEntry {
    /// Where the program's text starts: it runs to the line's end.
    var text: Int
    var source: Range<Int>?
    var time: Range<Int>?
    /// Whether the program's line goes on in the source's next entry.
    var partial = false
}

extension PlainLineEnvelope {
    static func take(_ line: UnsafeBufferPointer<UInt8>, text: inout [UInt8]) -> TakenLine? {
        guard let plain = plainEntry(of: line) else { return nil }
        text.append(contentsOf: UnsafeBufferPointer(rebasing: line[plain.text...]))
        return TakenLine(source: plain.source, facts: 0..<plain.text, partial: plain.partial)
    }

    static func entry(of line: UnsafeBufferPointer<UInt8>, number: Int) -> EnvelopeEntry? {
        guard let plain = plainEntry(of: line) else { return nil }
        var entry = EnvelopeEntry(line, text: plain.text..<line.count, number: number, source: plain.source.map(line.string),
                                  time: plain.time)
        entry.partial = plain.partial
        return entry
    }
}

/// The lines of an input fed in pieces: each handed on whole (without its
/// line feed) as soon as its end has come; the last one at the end.
struct LineSplitter {
    private var pending: [UInt8] = []

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ line: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        while let newline = bytes.firstIndex(of: 0x0A, from: start) {
            if pending.isEmpty {
                line(UnsafeBufferPointer(rebasing: bytes[start..<newline]))
            } else {
                pending.append(contentsOf: bytes[start..<newline])
                var whole: [UInt8] = []
                swap(&whole, &pending)
                whole.withUnsafeBufferPointer(line)
            }
            start = newline + 1
        }
        pending.append(contentsOf: bytes[start...])
    }

    /// Drops a line begun.
    mutating func reset() {
        pending.removeAll()
    }

    mutating func finish(_ line: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard !pending.isEmpty else { return }
        var whole: [UInt8] = []
        swap(&whole, &pending)
        whole.withUnsafeBufferPointer(line)
    }
}

/// Splits the input into lines for a ``LineEnvelope``: a line that is none of
/// its entries is reported and skipped (a blank line is skipped silently).
final class LineEnvelopeDecoder<Definition: LineEnvelope>: EnvelopeDecoder {
    private var lines = LineSplitter()
    private var line = 0

    func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void) {
        lines.feed(bytes) { take($0, emit, damage: damage) }
    }

    func finish(_ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void) {
        lines.finish { take($0, emit, damage: damage) }
    }

    func continueInNewFile(linesBefore: Int) {
        lines.reset()
        line = linesBefore
    }

    private func take(_ raw: UnsafeBufferPointer<UInt8>, _ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void) {
        line += 1
        var end = raw.count
        if end > 0, raw[end - 1] == 0x0D { end -= 1 }
        let text = UnsafeBufferPointer(rebasing: raw[..<end])
        guard !text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return }
        if let entry = Definition.entry(of: text, number: line) {
            emit(entry)
        } else {
            damage(InputDamage(line: line, column: 1, message: Definition.refusal(of: text)))
        }
    }
}

/// An RFC 3339 time at `start` (`2024-01-05T12:00:00.123456789Z`, or with an
/// offset), as container runtimes write it: its end, or `nil`.
func rfc3339TimeEnd(in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let time = isoTimeEnd(in: line, from: start), !time.colonlessOffset else { return nil }
    return time.end
}

/// An ISO 8601 time at `start`, `YYYY-MM-DDTHH:MM:SS[.fraction]` and `Z` or an
/// offset, `+hh:mm` or (journalctl's `short-iso`) `+hhmm`: its end, and
/// whether the offset has no colon; `nil` if there is none.
func isoTimeEnd(in line: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, colonlessOffset: Bool)? {
    // `dddd-dd-ddTdd:dd:dd`: the separators at 4, 7, 10, 13 and 16, digits
    // elsewhere (looked at on every line of an envelope: no loop).
    guard start + 19 <= line.count else { return nil }
    let time = UnsafeBufferPointer(rebasing: line[start..<(start + 19)])
    guard time[4] == UInt8(ascii: "-"), time[7] == UInt8(ascii: "-"), time[10] == UInt8(ascii: "T"),
          time[13] == UInt8(ascii: ":"), time[16] == UInt8(ascii: ":") else { return nil }
    func digits(_ first: Int, _ second: Int) -> Bool { time[first] &- 0x30 < 10 && time[second] &- 0x30 < 10 }
    guard digits(0, 1), digits(2, 3), digits(5, 6), digits(8, 9), digits(11, 12), digits(14, 15), digits(17, 18) else { return nil }
    var index = start + 19
    if index < line.count, line[index] == UInt8(ascii: ".") {
        index += 1
        let digits = index
        while index < line.count, isASCIIDigit(line[index]) { index += 1 }
        guard index > digits else { return nil }
    }
    guard index < line.count else { return nil }
    if line[index] == UInt8(ascii: "Z") { return (index + 1, false) }
    guard line[index] == UInt8(ascii: "+") || line[index] == UInt8(ascii: "-"), index + 5 <= line.count,
          isASCIIDigit(line[index + 1]), isASCIIDigit(line[index + 2]) else { return nil }
    if line[index + 3] == UInt8(ascii: ":") {
        guard index + 6 <= line.count, isASCIIDigit(line[index + 4]), isASCIIDigit(line[index + 5]) else { return nil }
        return (index + 6, false)
    }
    guard isASCIIDigit(line[index + 3]), isASCIIDigit(line[index + 4]) else { return nil }
    return (index + 5, true)
}

extension EnvelopeEntry {
    /// An entry of the text `line[range]`.
    init(_ line: UnsafeBufferPointer<UInt8>, text range: Range<Int>, number: Int, source: String? = nil, time: Range<Int>? = nil) {
        self.init(source: source, time: time.map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) },
                  text: Array(line[range]), line: number)
    }
}
