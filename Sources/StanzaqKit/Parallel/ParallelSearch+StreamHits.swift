import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// An XMPP stream or a top-level sequence of stanzas read only where its
/// stanzas hold what every result needs (``Prefilter``; stanzaq(1), "Skipping
/// what cannot match"): the boundary scanner follows the stanzas (it does not
/// parse), the bytes between two places it may cut at are searched for the
/// prefilter's needles, and the runs of stanzas with a hit are windows, each
/// read by a reader taking up the stream there and checked as a part is (it
/// ends between stanzas, after as many as the scanner counted). The stanzas
/// between them are counted, not read.
extension ParallelSearch {
    /// Cuts `file` into windows around the stanzas that hold a needle; `header`:
    /// the stream's start tag (`nil`: a sequence).
    func cutAtHits(_ file: SplitFile, buffer first: [UInt8], scanner start: StanzaBoundaryScanner, header: [UInt8]?, prefilter: Prefilter) {
        let blockSize = 1 << 16
        var scanner = start
        let cutter = StreamWindowCutter(buffer: first, header: header, needles: NeedleSearch(prefilter.needles), partSize: options.parallel.partSize,
                                        join: hitWindowJoin,
                                        jobs: StreamWindowJobs(file: file, header: header, batchLimit: batchLimit) { [self] in make($0) })
        var dense = false
        cutting: while !stopping.load(ordering: .acquiring) && file.fellBackAt.load(ordering: .acquiring) == Int.max {
            // Hits all over the file: windows would hold most of it at a greater cost
            // than parts (the scanner asked for every place to cut); parts from here.
            dense = dense || cutter.isDense
            let target = cutter.unitStart + (dense ? options.parallel.partSize : 1)
            switch cutter.buffer.withUnsafeBufferPointer({ scanner.scan($0, target: target) }) {
            case .needMore:
                let more = readBlock(file.fileDescriptor, at: cutter.readTo, size: blockSize)
                if more.isEmpty || cutter.buffer.count - cutter.unitStart > 4 * options.parallel.partSize + blockSize {
                    // The end, or no place to cut in sight.
                    cutter.readRest { [self] in make($0) }
                    break cutting
                }
                cutter.forgetSettled(scanner: &scanner)
                cutter.buffer.append(contentsOf: more)
            case .boundary(let end, let counted):
                guard cutter.take(upTo: end, counted: counted, dense: dense) else { break cutting }
            case .unsure:
                // What the scanner cannot follow.
                cutter.readRest { [self] in make($0) }
                break cutting
            }
        }
        debugParts("prefilter: \(prefilter.explanation): \(cutter.jobs.count) windows of \(cutter.stanzasBefore) stanzas")
    }
}

/// What ``ParallelSearch/cutAtHits(_:buffer:scanner:header:prefilter:)`` keeps
/// as it goes: the bytes not yet settled, the window being made, the line and
/// stanzas counted.
private final class StreamWindowCutter {
    /// The file's bytes from ``base`` on, as far as they were read.
    var buffer: [UInt8]
    var base = 0
    var line = 1, stanzasBefore = 0
    /// Where the bytes not yet settled start in `buffer` (a unit: up to the next
    /// place to cut), and what the scanner had counted there.
    var unitStart = 0, unitStanzas = 0
    var window: StreamWindow?
    var jobs: StreamWindowJobs
    /// How much of the file the windows hold.
    var covered = 0
    let header: [UInt8]?
    let needles: NeedleSearch
    let partSize: Int
    let join: Int

    init(buffer: [UInt8], header: [UInt8]?, needles: NeedleSearch, partSize: Int, join: Int, jobs: StreamWindowJobs) {
        self.buffer = buffer
        self.header = header
        self.needles = needles
        self.partSize = partSize
        self.join = join
        self.jobs = jobs
    }

    var readTo: Int { base + buffer.count }

    /// Whether the windows hold half of what was searched, once 4 parts' worth was.
    var isDense: Bool { base + unitStart >= 4 * partSize && 2 * covered > base + unitStart }

    /// Makes the window waiting a part (for a job); false once the search stopped.
    func settleWindow() -> Bool {
        guard let open = window else { return true }
        window = nil
        covered += open.end - open.start
        let bytes = Array(buffer[open.start..<open.end])
        return jobs.add(offset: base + open.start, bytes: bytes, line: open.line, before: open.before, stanzas: open.stanzas,
                        first: open.start + base == 0)
    }

    /// One reader reads the rest, from the window waiting (whose bytes after its last hit run on).
    func readRest(make: (Job.Work) -> Bool) {
        let from = window.map { open in (open.start, open.line, open.before) } ?? (unitStart, line, stanzasBefore)
        window = nil
        guard jobs.flush() else { return }
        _ = make(.part(jobs.file, jobs.rest(offset: base + from.0, line: from.1, before: from.2, first: base + from.0 == 0)))
    }

    /// Forgets what is settled, once it is a part's worth (not at every unit:
    /// moving the rest down costs).
    func forgetSettled(scanner: inout StanzaBoundaryScanner) {
        let keep = window?.start ?? unitStart
        guard keep > partSize else { return }
        buffer.removeSubrange(..<keep)
        base += keep
        unitStart -= keep
        window?.shift(by: keep)
        // (Not cut: the scanner may have counted stanzas past the last boundary.)
        scanner.forget(before: keep)
    }

    /// Takes the unit up to `end` (where the scanner had counted `counted`
    /// stanzas) into the window if it holds a needle; false once the search stopped.
    func take(upTo end: Int, counted: Int, dense: Bool) -> Bool {
        let stanzas = counted - unitStanzas
        unitStanzas = counted
        // The first window holds the start of the file, and of a sequence the
        // elements the reader's start phase may hold back (see ParallelSearch.cut).
        let forced = dense || base + unitStart == 0 || (header == nil && stanzasBefore < StanzaReader.tentativeLimit)
        let hit = forced || buffer.withUnsafeBufferPointer { needles.firstHit(in: $0, from: unitStart, to: end) } != nil
        if let open = window, !hit, end - open.end > join {
            // Too far from its last hit: the window ends there, and what follows it is skipped.
            guard settleWindow() else { return false }
        }
        if hit {
            window = window.map { StreamWindow(start: $0.start, line: $0.line, before: $0.before, end: end,
                                               stanzas: stanzasBefore + stanzas - $0.before) }
                ?? StreamWindow(start: unitStart, line: line, before: stanzasBefore, end: end, stanzas: stanzas)
        }
        line += buffer.withUnsafeBufferPointer { countNewlines(UnsafeBufferPointer(rebasing: $0[unitStart..<end])) }
        stanzasBefore += stanzas
        unitStart = end
        if let open = window, hit, !forced || dense, end - open.start >= 4 * partSize {
            return settleWindow()
        }
        return true
    }
}

/// A window of a stream being made: its start in the buffer, the line and
/// stanzas before it, and where its last unit with a hit ends, with the
/// stanzas up to there.
private struct StreamWindow {
    var start: Int
    let line: Int
    let before: Int
    var end: Int
    let stanzas: Int

    /// The buffer lost its first `offset` bytes.
    mutating func shift(by offset: Int) {
        start -= offset
        end -= offset
    }
}

/// The windows of a stream made into jobs, a few together.
private struct StreamWindowJobs {
    let file: SplitFile
    let header: [UInt8]?
    let batchLimit: Int
    let make: (Job.Work) -> Bool
    private var batch: [PartOfInput] = []
    private var batchBytes = 0
    /// How many windows were made.
    private(set) var count = 0

    init(file: SplitFile, header: [UInt8]?, batchLimit: Int, make: @escaping (Job.Work) -> Bool) {
        self.file = file
        self.header = header
        self.batchLimit = batchLimit
        self.make = make
    }

    /// The part of `bytes` at `offset`, the stream taken up there (unless `first`: the file's start).
    func part(offset: Int, bytes: [UInt8]?, line: Int, before: Int, stanzas: Int?, first: Bool) -> PartOfInput {
        PartOfInput(fileDescriptor: file.fileDescriptor, offset: offset, bytes: bytes, continuing: first ? nil : header,
                    header: header ?? [], line: line, stanzasBefore: before, stanzas: stanzas, sequence: header == nil)
    }

    /// The rest of the file from `offset`, read by one reader.
    func rest(offset: Int, line: Int, before: Int, first: Bool) -> PartOfInput {
        part(offset: offset, bytes: nil, line: line, before: before, stanzas: nil, first: first)
    }

    /// Keeps a window for a job; false once the search stopped.
    mutating func add(offset: Int, bytes: [UInt8], line: Int, before: Int, stanzas: Int, first: Bool) -> Bool {
        var window = part(offset: offset, bytes: bytes, line: line, before: before, stanzas: stanzas, first: first)
        // (Checked in order, as the parts of a log are.)
        window.index = count
        batch.append(window)
        batchBytes += bytes.count
        count += 1
        return batchBytes < batchLimit || flush()
    }

    /// Makes the job of the windows kept so far; false once the search stopped.
    mutating func flush() -> Bool {
        guard !batch.isEmpty else { return true }
        defer { batch = []; batchBytes = 0 }
        return make(.windows(file, batch))
    }
}
