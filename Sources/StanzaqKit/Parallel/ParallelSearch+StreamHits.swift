import CByteSearch
import StanzaQuery

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
        let fd = file.fileDescriptor
        let blockSize = 1 << 16
        let needles = prefilter.needles
        var buffer = first
        var scanner = start
        /// The file's offset of `buffer[0]`.
        var base = 0
        var line = 1, stanzasBefore = 0
        /// Where the bytes not yet settled start (a unit: up to the next place to cut).
        var unitStart = 0, unitStanzas = 0
        /// The window being made: its start in `buffer`, the line and stanzas
        /// before it, and where its last unit with a hit ends, with the stanzas up to there.
        var window: (start: Int, line: Int, before: Int, end: Int, stanzas: Int)?
        var jobs = StreamWindowJobs(file: file, header: header, batchLimit: batchLimit) { [self] in make($0) }
        /// How much of the file the windows hold (and, dense, all of it from then on).
        var covered = 0
        var dense = false
        func settleWindow() -> Bool {
            guard let open = window else { return true }
            window = nil
            covered += open.end - open.start
            let bytes = Array(buffer[open.start..<open.end])
            return jobs.add(offset: base + open.start, bytes: bytes, line: open.line, before: open.before, stanzas: open.stanzas,
                            first: open.start + base == 0)
        }
        cutting: while !stopping.load(ordering: .acquiring) && file.fellBackAt.load(ordering: .acquiring) == Int.max {
            // Hits all over the file: windows would hold most of it at a greater cost
            // than parts (the scanner asked for every place to cut); parts from here.
            dense = dense || (base + unitStart >= 16 * options.partSize && 2 * covered > base + unitStart)
            switch buffer.withUnsafeBufferPointer({ scanner.scan($0, target: unitStart + (dense ? options.partSize : 1)) }) {
            case .needMore:
                let more = readBlock(fd, at: base + buffer.count, size: blockSize)
                if more.isEmpty || buffer.count - unitStart > 4 * options.partSize + blockSize {
                    // The end, or no place to cut in sight: the rest is read by one reader,
                    // from the window waiting if the bytes after its last hit run on.
                    let from = window.map { open in (open.start, open.line, open.before) } ?? (unitStart, line, stanzasBefore)
                    window = nil
                    guard jobs.flush() else { break cutting }
                    _ = make(.part(file, jobs.rest(offset: base + from.0, line: from.1, before: from.2, first: base + from.0 == 0)))
                    break cutting
                }
                // Forget what is settled, once it is a part's worth (not at every unit:
                // moving the rest down costs).
                let keep = window?.start ?? unitStart
                if keep > options.partSize {
                    buffer.removeSubrange(..<keep)
                    base += keep
                    unitStart -= keep
                    if let open = window { window = (open.start - keep, open.line, open.before, open.end - keep, open.stanzas) }
                    // (Not cut: the scanner may have counted stanzas past the last boundary.)
                    scanner.forget(before: keep)
                }
                buffer.append(contentsOf: more)
            case .boundary(let end, let counted):
                let stanzas = counted - unitStanzas
                unitStanzas = counted
                // The first window holds the start of the file, and of a sequence the
                // elements the reader's start phase may hold back (see ParallelSearch.cut).
                let forced = dense || base + unitStart == 0 || (header == nil && stanzasBefore < StanzaReader.tentativeLimit)
                let hit = forced || buffer.withUnsafeBufferPointer { Prefilter.firstHit(in: $0, from: unitStart, to: end, needles: needles) } < end
                if let open = window, !hit, end - open.end > hitWindowJoin {
                    // Too far from its last hit: the window ends there, and what follows it is skipped.
                    guard settleWindow() else { break cutting }
                }
                if hit {
                    if let open = window {
                        window = (open.start, open.line, open.before, end, stanzasBefore + stanzas - open.before)
                    } else {
                        window = (unitStart, line, stanzasBefore, end, stanzas)
                    }
                }
                line += buffer.withUnsafeBufferPointer { countNewlines(UnsafeBufferPointer(rebasing: $0[unitStart..<end])) }
                stanzasBefore += stanzas
                unitStart = end
                if let open = window, hit, !forced || dense, end - open.start >= 4 * options.partSize {
                    guard settleWindow() else { break cutting }
                }
            case .unsure:
                // What the scanner cannot follow: one reader reads the rest, from the window's start.
                let from = window.map { open in (open.start, open.line, open.before) } ?? (unitStart, line, stanzasBefore)
                window = nil
                guard jobs.flush() else { break cutting }
                _ = make(.part(file, jobs.rest(offset: base + from.0, line: from.1, before: from.2, first: base + from.0 == 0)))
                break cutting
            }
        }
        debugParts("prefilter: \(prefilter.explanation): \(jobs.count) windows of \(stanzasBefore) stanzas")
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
        batch.append(part(offset: offset, bytes: bytes, line: line, before: before, stanzas: stanzas, first: first))
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
