import CByteSearch
import StanzaQuery

/// The bytes of a log around the place a prefilter has searched to: read in
/// blocks, forgotten once behind the windows, with the line count of what was
/// forgotten.
struct LogWindows {
    let fileDescriptor: Int32
    let size: Int
    let format: LogFormat
    /// What starts every record of the log, where its format learns it (from
    /// the first window's bytes): a window never starts at a line without it,
    /// a log line pasted into a message.
    var recordPrefix: RecordPrefix?
    /// The log's bytes from ``base`` on, as far as they have been read. (Those
    /// forgotten stay until they are a block: moving the rest down after every
    /// window cost more than reading it, perf.)
    private var buffer: [UInt8] = []
    private var base = 0
    /// The bytes still wanted start at this offset of the log (not before ``base``).
    private var kept = 0
    /// The line at ``counted``: the line feeds before it have been counted.
    private var counted = 0
    private var countedLine = 1
    /// How much is read at once (1 MB), and how far a window may reach back or
    /// on from a hit for a line a part may start at (256 kB); further, the log
    /// is read by one reader from there. Both scale with the part size, which
    /// the tests make small: a literal then often spans two reads.
    private let block: Int
    private let reach: Int

    init(fileDescriptor: Int32, size: Int, format: LogFormat, partSize: Int) {
        self.fileDescriptor = fileDescriptor
        self.size = size
        self.format = format
        block = max(4 * partSize, 64)
        reach = max(partSize, 64)
    }

    private var readTo: Int { base + buffer.count }

    /// Whether a window may start at `line` (``LogFormat/mayStartPart(at:after:)``, and the record prefix).
    private func mayStartPart(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>) -> Bool {
        format.mayStartPart(at: line, after: previous) && (recordPrefix?.starts(line) ?? true)
    }

    /// Reads on until the bytes before `offset` are in the buffer (or the log ends).
    private mutating func read(to offset: Int) {
        let target = min(offset, size)
        guard readTo < target else { return }
        let start = buffer.count, count = target - readTo, from = readTo
        buffer.append(contentsOf: repeatElement(0, count: count))
        var got = 0
        buffer.withUnsafeMutableBufferPointer { bytes in
            while got < count {
                let read = pread(fileDescriptor, bytes.baseAddress! + start + got, count - got, off_t(from + got))
                if read < 0 && errno == EINTR { continue }
                if read <= 0 { break }
                got += read
            }
        }
        // (The file shrank: what was read is all there is; the reader of the part says so.)
        if got < count { buffer.removeLast(count - got) }
    }

    /// Forgets the bytes before `offset`, counting their line feeds first.
    mutating func forget(before offset: Int) {
        guard offset > kept else { return }
        _ = line(at: offset)
        kept = min(offset, readTo)
        if kept - base >= block {
            buffer.removeFirst(kept - base)
            base = kept
        }
    }

    /// The line at `offset` (not before one asked about before).
    mutating func line(at offset: Int) -> Int {
        read(to: offset)
        let start = counted - base, end = min(offset, readTo) - base
        if end > start {
            countedLine += buffer.withUnsafeBufferPointer { countNewlines(UnsafeBufferPointer(rebasing: $0[start..<end])) }
            counted = end + base
        }
        return countedLine
    }

    /// The bytes of `range`.
    mutating func bytes(_ range: Range<Int>) -> [UInt8] {
        read(to: range.upperBound)
        return Array(buffer[(range.lowerBound - base)..<(min(range.upperBound, readTo) - base)])
    }

    /// Where the first needle found at or after `offset` and before `limit`
    /// starts; `nil` if none is. The bytes from `keeping` on stay (a window
    /// waiting to be made); of the others, those a window may still start in.
    mutating func firstHit(from offset: Int, before limit: Int, keeping: Int?, needles: [(bytes: [UInt8], caseless: Bool)]) -> Int? {
        let longest = needles.map(\.bytes.count).max() ?? 1
        let limit = min(limit, size)
        var from = offset
        while from < limit {
            read(to: min(limit + longest - 1, from + block))
            let end = readTo
            let found = buffer.withUnsafeBufferPointer { Prefilter.firstHit(in: $0, from: from - base, to: end - base, needles: needles) } + base
            if found < end { return found < limit ? found : nil }
            if end >= min(size, limit + longest - 1) { return nil }
            // A needle may start in the last bytes searched and end past them.
            from = end - longest + 1
            forget(before: min(keeping ?? Int.max, from - reach))
        }
        return nil
    }

    /// The start of the last line at or before `offset`, not before `floor`
    /// (where a window ended), that a part may start at
    /// (``LogFormat/mayStartPart(at:after:)``); `floor` if none is after it;
    /// `nil` if none is within reach.
    mutating func windowStart(before offset: Int, floor: Int) -> Int? {
        read(to: offset + (1 << 16))
        let lowest = max(floor, kept, offset - reach)
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            let all = bytes.baseAddress!
            /// The start of the line that holds the byte at `end` (a line feed ends the line it is in).
            func lineStart(holding end: Int) -> Int? {
                if end > lowest - base {
                    let found = stanzaq_find_last_byte(all + (lowest - base), end - (lowest - base), 0x0A)
                    if found >= 0 { return lowest - base + found + 1 }
                }
                return lowest == floor ? floor - base : nil
            }
            var start = lineStart(holding: offset - base)
            while let lineBegin = start {
                if lineBegin + base <= floor { return floor }
                let lineEnd = stanzaq_find_byte(all, lineBegin, bytes.count, 0x0A)
                guard let previous = lineStart(holding: lineBegin - 1) else { return nil }
                if mayStartPart(at: UnsafeBufferPointer(rebasing: bytes[lineBegin..<lineEnd]),
                                after: UnsafeBufferPointer(rebasing: bytes[previous..<(lineBegin - 1)])) {
                    return lineBegin + base
                }
                start = previous
            }
            return nil
        }
    }

    /// The start of the first line after the one that holds `offset` that a
    /// part may start at, or the end of the log; `nil` if none is within reach.
    mutating func windowEnd(after offset: Int) -> Int? {
        var wanted = 1 << 16
        while true {
            read(to: offset + wanted)
            let complete = readTo >= size
            let answer: Int?? = buffer.withUnsafeBufferPointer { bytes in
                let all = bytes.baseAddress!
                var newline = stanzaq_find_byte(all, offset - base, bytes.count, 0x0A)
                while newline < bytes.count {
                    let start = newline + 1
                    if start + base > offset + reach { return .some(nil) }
                    let lineEnd = stanzaq_find_byte(all, start, bytes.count, 0x0A)
                    if lineEnd == bytes.count && !complete { return nil }
                    let previous = stanzaq_find_last_byte(all, newline, 0x0A) + 1
                    if mayStartPart(at: UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]),
                                    after: UnsafeBufferPointer(rebasing: bytes[previous..<newline])) {
                        return .some(start + base)
                    }
                    newline = lineEnd
                }
                if complete { return .some(size) }
                return bytes.count + base > offset + reach ? .some(nil) : nil
            }
            if let answer { return answer }
            wanted *= 2
        }
    }
}
