import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The bytes of a log around the place a prefilter has searched to: read in
/// steps, forgotten once behind the windows, with the line count of what was
/// forgotten.
final class LogWindows {
    let source: LogBytes
    /// The log's size: a file's, or (a log taken out of its envelope) `Int.max`
    /// until the text has been read to its end.
    private(set) var size: Int
    let format: LogFormat
    /// What starts every record of the log, where its format learns it (from
    /// the first window's bytes): a window never starts at a line without it,
    /// a log line pasted into a message.
    var recordPrefix: RecordPrefix?
    /// The log's bytes from ``base`` on, as far as they have been read: memory
    /// of its own, read into as it is (an array was zeroed before every read,
    /// and moved down whenever a block was forgotten, much of the work of
    /// reading the windows of a log).
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var base = 0
    /// The bytes still wanted start at this offset of the log (not before ``base``).
    private var kept = 0
    /// The line at ``counted``: the line feeds before it have been counted.
    private var counted = 0
    private var countedLine = 1
    /// How much is searched before what is behind is forgotten (64 kB: the bytes
    /// read ahead are moved down with the rest), when what is forgotten is
    /// dropped (1 MB), and how far a window may reach back or on from a hit for
    /// a line a part may start at (256 kB); further, the log is read by one
    /// reader from there. All scale with the part size, which the tests make
    /// small: a literal then often spans two reads.
    private let step: Int
    private let block: Int
    private let reach: Int
    /// What is searched for: the prefilter's needles and a stream header's
    /// start (``hits`` and ``all``), and for each set what its last search
    /// found: none starts in [from, to), and one at `to` if `needle` is set; no
    /// byte is searched twice for a set.
    private let all: NeedleSearch
    private let hits: NeedleSearch
    private var searched: [(from: Int, to: Int, needle: Int?)] = [(0, 0, nil), (0, 0, nil)]
    /// The format's walk to the places to read whatever they hold (``RecordWalk``),
    /// which count among the hits: where it stopped, and the ranges it marked
    /// (in order, apart), from ``marksStart`` on.
    private let walk: (any RecordWalk)?
    private var walked = 0
    private var marks: [Range<Int>] = []
    private var marksStart = 0

    /// Told of each offset before which the bytes are forgotten, and its line.
    var forgetting: ((_ offset: Int, _ line: Int) -> Void)?

    init(source: LogBytes, size: Int, format: LogFormat, partSize: Int, hits: [Needle], others: [Needle]) {
        self.source = source
        self.size = size
        self.format = format
        self.hits = NeedleSearch(hits)
        all = NeedleSearch(hits + others)
        walk = format.makeRecordWalk()
        step = max(partSize / 4, 64)
        block = max(4 * partSize, 64)
        reach = max(partSize, 64)
        capacity = 2 * block + reach
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    private var readTo: Int { base + count }
    private var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: buffer, count: count) }

    /// Whether a window may start at `line` (``LogFormat/mayStartPart(at:after:)``, and the record prefix).
    private func mayStartPart(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>) -> Bool {
        format.mayStartPart(at: line, after: previous) && (recordPrefix?.starts(line) ?? true)
    }

    /// Reads on until the bytes before `offset` are in the buffer (or the log ends).
    private func read(to offset: Int) {
        guard readTo < min(offset, size) else { return }
        // At least a search step's worth at a time, four times over: the searches
        // and the walks around hits asked for a few kB each, many more calls
        // than needed.
        let target = min(max(offset, readTo + 4 * step), size)
        let wanted = target - readTo
        if count + wanted > capacity {
            capacity = max(2 * capacity, count + wanted)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = grown
        }
        let got = source.read(into: UnsafeMutableRawBufferPointer(start: buffer + count, count: wanted), at: readTo)
        // (The file shrank: what was read is all there is; the reader of the part says so.)
        count += got
        // The end of a text whose size was not known.
        if got < wanted && size == Int.max { size = readTo }
    }

    /// Forgets the bytes before `offset`, counting their line feeds first (and
    /// walking over them: the walk goes on from where it stopped).
    func forget(before offset: Int) {
        guard offset > kept else { return }
        walk(to: offset)
        _ = line(at: offset)
        kept = min(offset, readTo)
        forgetting?(kept, countedLine)
        if kept - base >= block {
            let dropped = kept - base
            buffer.update(from: buffer + dropped, count: count - dropped)
            count -= dropped
            base = kept
        }
    }

    /// The line at `offset` (not before one asked about before).
    func line(at offset: Int) -> Int {
        read(to: offset)
        let start = counted - base, end = min(offset, readTo) - base
        if end > start {
            countedLine += countNewlines(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            counted = end + base
        }
        return countedLine
    }

    /// The bytes of `range`.
    func bytes(_ range: Range<Int>) -> [UInt8] {
        withBytes(range) { Array($0) }
    }

    /// `body` given the bytes of `range` where they are (not to be kept).
    func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        read(to: range.upperBound)
        return body(UnsafeBufferPointer(rebasing: bytes[(range.lowerBound - base)..<(min(range.upperBound, readTo) - base)]))
    }

    /// Where the first needle found at or after `offset` and before `limit`
    /// starts, and whether it is a stream header's (`headers`: they are
    /// searched for too); `nil` if none is. The bytes from `keeping` on stay
    /// (a window waiting to be made); of the others, those a window may still
    /// start in.
    func firstHit(from offset: Int, before limit: Int, keeping: Int?, headers: Bool) -> (offset: Int, isHeader: Bool)? {
        let set = headers ? 0 : 1
        let search = headers ? all : hits
        var known = searched[set]
        if offset < known.from || known.to < offset || (known.needle == nil && known.to == offset) { known = (offset, offset, nil) }
        // (The size may become known as the search reads on.)
        while known.needle == nil && known.to < min(limit, size) {
            let end = min(limit, size, known.to + step)
            read(to: min(end + search.longest - 1, size))
            let stop = min(end + search.longest - 1, readTo)
            var found = search.firstHit(in: bytes, from: known.to - base, to: stop - base).map { ($0.offset + base, $0.needle) }
            if let hit = found, hit.0 >= end { found = nil }
            // (A place the walk marks is a hit: no needle's, -1.)
            if let mark = firstMark(from: known.to, before: found?.0 ?? end) { found = (mark, -1) }
            if let found {
                known = (known.from, found.0, found.1)
            } else {
                known = (known.from, end, nil)
                forget(before: min(keeping ?? Int.max, end - reach))
            }
        }
        searched[set] = known
        guard let needle = known.needle, known.to < min(limit, size) else { return nil }
        return (known.to, needle >= hits.needles.count)
    }

    /// The first line feed at or after `offset` and before `limit` that the walk marks.
    private func firstMark(from offset: Int, before limit: Int) -> Int? {
        guard walk != nil, offset < limit else { return nil }
        walk(to: limit)
        // The first range that ends after `offset`.
        var low = marksStart, high = marks.count
        while low < high {
            let middle = (low + high) / 2
            if marks[middle].upperBound <= offset { low = middle + 1 } else { high = middle }
        }
        while low < marks.count, marks[low].lowerBound < limit {
            let from = max(marks[low].lowerBound, offset) - base, to = min(marks[low].upperBound, limit) - base
            let found = from < to ? stanzaq_find_byte(buffer, from, to, 0x0A) : to
            if found < to { return found + base }
            low += 1
        }
        return nil
    }

    /// Walks on until every place the walk marks before `offset` is known.
    private func walk(to offset: Int) {
        guard let walk else { return }
        var ahead = step
        while walked < min(offset, size) {
            read(to: max(offset, walked + ahead))
            let from = walked
            walked = walk.walk(UnsafeBufferPointer(rebasing: bytes[(walked - base)...]), at: walked, atEnd: readTo >= size) { range in
                if let last = marks.last, marks.count > marksStart, range.lowerBound <= last.upperBound {
                    marks[marks.count - 1] = min(last.lowerBound, range.lowerBound)..<max(last.upperBound, range.upperBound)
                } else {
                    marks.append(range)
                }
            }
            guard walked == from else { continue }
            // It needs more bytes (a long chunk); at the log's end (which it
            // always reaches), everything is read.
            guard readTo < size else {
                marks.append(walked..<size)
                walked = size
                break
            }
            ahead = 2 * max(ahead, readTo - walked)
        }
        // The marks before the bytes kept are not asked about again.
        while marksStart < marks.count, marks[marksStart].upperBound <= kept { marksStart += 1 }
        if marksStart > 1024 && 2 * marksStart > marks.count {
            marks.removeFirst(marksStart)
            marksStart = 0
        }
    }

    /// The start of the last line at or before `offset`, not before `floor`
    /// (where a window ended), that a part may start at
    /// (``LogFormat/mayStartPart(at:after:)``); `floor` if none is after it;
    /// `nil` if none is within reach.
    func windowStart(before offset: Int, floor: Int) -> Int? {
        read(to: offset + (1 << 16))
        let lowest = max(floor, kept, offset - reach)
        return { (bytes: UnsafeBufferPointer<UInt8>) -> Int? in
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
        }(bytes)
    }

    /// The start of the first line after the one that holds `offset` that a
    /// part may start at, or the end of the log; `nil` if none is within reach.
    func windowEnd(after offset: Int) -> Int? {
        var wanted = 1 << 16
        while true {
            read(to: offset + wanted)
            let complete = readTo >= size
            let answer: Int?? = { (bytes: UnsafeBufferPointer<UInt8>) -> Int?? in
                let all = bytes.baseAddress!
                var newline = stanzaq_find_byte(all, offset - base, bytes.count, 0x0A)
                while newline < bytes.count {
                    var start = newline + 1
                    if let marker = format.partStartMarker {
                        // Only a line that holds the marker may start a part: on to the next one.
                        let found = stanzaq_find_literal(all, start, bytes.count, marker.utf8Start, marker.utf8CodeUnitCount, 0)
                        if found == bytes.count { break }
                        start = stanzaq_find_last_byte(all, found, 0x0A) + 1
                        newline = start - 1
                    }
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
            }(bytes)
            if let answer { return answer }
            wanted *= 2
        }
    }
}
