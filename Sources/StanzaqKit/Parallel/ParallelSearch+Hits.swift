import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// A log read only around the places where it holds what every result needs
/// (``Prefilter``; stanzaq(1), "Skipping what cannot match"): ripgrep's
/// literal search, then the full search of the lines around each hit.
///
/// The log's bytes are searched for the prefilter's needles; around each hit
/// a window of whole records is cut (from a line a part may start at before
/// the hit's line, to one after it), windows close together are joined, and
/// each window is a part of the log, read by a reader started there, as a
/// parallel search reads its parts: a window is kept only if its reader found
/// that it depends on nothing before it and ended at a clean cut, else the log
/// is read again from its start by one reader from that window on. The first
/// window starts the log (the record prefix it learns, the warnings about its
/// fields) and the last ends it (a stanza cut off at its end), so that only
/// records between them are skipped, and with them only what they would have
/// said about damage.
extension ParallelSearch {
    // The sizes below scale with the part size (256 kB), which the tests make
    // small to skip often.

    /// Windows closer than this (4 kB) are read as one, with what lies between:
    /// a window's reader (making and freeing its libxml2 parsers) costs about
    /// as much as reading that much more; joining further read more bytes than
    /// it saved in windows.
    var hitWindowJoin: Int { options.parallel.partSize / 64 }
    /// The bytes read at the start and end of a log whatever they hold (4 kB).
    var hitWindowEdge: Int { max(options.parallel.partSize / 64, 1) }
    /// Windows joined are cut once they hold this much (1 MB): a log full of
    /// hits is read in parts of about this size.
    var hitWindowLimit: Int { 4 * options.parallel.partSize }
    /// The windows of one job hold about this much (256 kB): a job each would
    /// cost more in threads handing over work than their reading (context
    /// switches for every window).
    var batchLimit: Int { options.parallel.partSize }

    /// `firstWindow`: where the first window may end at the earliest (past the
    /// line that decided the log's format, which its reader decides by too).
    ///
    /// A log in an envelope is searched likewise, in the text the producer takes
    /// out of it (`unwrapped`), whose size is known only at its end; from a
    /// second source or damage to the envelope on, one reader reads the input.
    func splitLogAtHits(_ path: String, _ fd: Int32, format: LogFormat, prefilter: Prefilter, firstWindow: Int,
                        unwrapped: UnwrappedLog? = nil) -> Bool {
        guard let jobs = windowJobs(path, fd, format: format, prefilter: prefilter, unwrapped: unwrapped) else {
            close(fd)
            return false
        }
        let file = jobs.file, log = jobs.log
        // (A log taken out of its envelope: its size is known once it is read to its end.)
        var size: Int { log.size }
        var pending: Range<Int>?
        var floor = 0
        if let end = jobs.log.windowEnd(after: min(firstWindow, size)) {
            pending = 0..<end
            floor = end
            jobs.log.recordPrefix = jobs.log.bytes(0..<end).withUnsafeBufferPointer { format.learnedRecordPrefix(atStartOf: $0) }
        }
        var dense = false
        var rereads = false
        cutting: while floor < size && !stopping.load(ordering: .acquiring) && file.fellBackAt.load(ordering: .acquiring) == Int.max {
            // Hits all over the log: windows would hold most of it, at a greater
            // cost than parts of the size a log is cut into without a prefilter.
            dense = dense || (floor >= 4 * options.parallel.partSize && 2 * (jobs.covered + (pending?.count ?? 0)) > floor)
            if let waiting = pending, dense {
                guard jobs.emit(waiting) else { break cutting }
                pending = nil
            }
            // Hits near enough to join the window waiting first: past them, it is made.
            var found = dense ? nil : jobs.log.firstHit(from: floor, before: pending == nil ? size : floor + hitWindowJoin,
                                                        keeping: pending?.lowerBound, headers: true)
            if !dense, found == nil, let waiting = pending {
                guard jobs.emit(waiting) else { break cutting }
                pending = nil
                found = jobs.log.firstHit(from: floor, before: size, keeping: nil, headers: true)
            }
            if let header = found, header.isHeader,
               let skipped = skipStreamHeader(at: header.offset, floor: floor, jobs, pending: &pending) {
                guard let end = skipped else { break cutting }
                floor = end
                continue cutting
            }
            let hit = found?.offset
            // No more hits: the end of the log is read all the same. Dense: the next part.
            let edge = dense ? min(floor + hitWindowLimit, size) : hit ?? max(floor, size - hitWindowEdge)
            // (A hit close enough joins the window waiting whatever line it is on.)
            let near = dense || (pending != nil && edge <= floor + hitWindowJoin)
            guard let start = near ? floor : jobs.log.windowStart(before: edge, floor: floor),
                  let end = hit == nil && !dense || edge == size ? size : jobs.log.windowEnd(after: edge + (dense ? 0 : 1)) else {
                // No line to start or end a window at in reach: one reader reads the rest.
                if let waiting = pending, !jobs.emit(waiting) { break cutting }
                pending = nil
                guard jobs.flush() else { break cutting }
                _ = make(.part(file, rereading(file, from: floor, line: jobs.inputLine(at: floor))))
                rereads = true
                break cutting
            }
            if let waiting = pending, start <= floor + hitWindowJoin, waiting.count < hitWindowLimit {
                pending = waiting.lowerBound..<end
            } else {
                if let waiting = pending, !jobs.emit(waiting) { break cutting }
                pending = start..<end
            }
            floor = end
        }
        if !stopping.load(ordering: .acquiring), pending.map(jobs.emit) ?? true, jobs.flush(), !rereads, let trouble = unwrapped?.trouble,
           file.fellBackAt.load(ordering: .acquiring) == Int.max {
            // What follows cannot be read in parts: the rest is read by one reader.
            let line = jobs.inputLine(at: floor)
            debugParts("\(path): read whole from line \(line) on: \(trouble)")
            _ = make(.part(file, rereading(file, from: floor, line: line)))
        }
        debugParts("prefilter: \(prefilter.explanation): \(jobs.index) windows, \(jobs.covered) of \(size == Int.max ? "the text read before" : String(size)) bytes read")
        _ = make(.end(file))
        return true
    }
}

extension ParallelSearch {
    /// The windows of the log in `fd` (or taken out of its envelope: `unwrapped`)
    /// around the places of the prefilter's needles as `format` writes them;
    /// `nil` if it cannot say how.
    fileprivate func windowJobs(_ path: String, _ fd: Int32, format: LogFormat, prefilter: Prefilter,
                                unwrapped: UnwrappedLog?) -> WindowJobs? {
        var status = stat()
        guard unwrapped != nil || fstat(fd, &status) == 0 else { return nil }
        // Stream headers too: they give a session's stream its namespace, which
        // the windows after them start with (``LogHandover``). One in a record
        // without a hit is not read but noted (``skipStreamHeader``).
        let header = Needle(bytes: Array("<stream:stream".utf8), caseless: false, wholeValue: false)
        // (As the format writes them, with the places it may hide them at: WrittenNeedles.swift.)
        guard let needles = format.writtenNeedles(hits: prefilter.needles, others: [header]) else { return nil }
        let log = LogWindows(source: unwrapped.map { .unwrapped($0) } ?? .file(fd), size: unwrapped == nil ? Int(status.st_size) : Int.max,
                             format: format, partSize: options.parallel.partSize, hits: needles.hits, others: needles.others)
        return WindowJobs(file: SplitFile(path: path, fileDescriptor: fd), log: log, unwrapped: unwrapped, batchLimit: batchLimit,
                          make: { [self] in make($0) })
    }

    /// A stream header at `offset` whose records hold no hit of the prefilter's
    /// needles: not read, but noted by the scanner (``LogCutScanner/skipped(_:)``),
    /// after the window waiting, which is made. Where the records end (`.some(nil)` if the
    /// search stopped); `nil` if they hold a hit (a window is made around it as
    /// around any) or do not start and end within reach.
    fileprivate func skipStreamHeader(at offset: Int, floor: Int, _ jobs: WindowJobs, pending: inout Range<Int>?) -> Int?? {
        guard let start = jobs.log.windowStart(before: offset, floor: floor),
              let end = jobs.log.windowEnd(after: offset),
              jobs.log.firstHit(from: start, before: end, keeping: pending?.lowerBound ?? start, headers: false) == nil else { return nil }
        if let waiting = pending {
            pending = nil
            guard jobs.emit(waiting) else { return .some(nil) }
        }
        jobs.skip(start..<end)
        return .some(end)
    }
}

/// The windows of a log made into jobs, a few together (``ParallelSearch/batchLimit``).
private final class WindowJobs {
    let file: SplitFile
    let log: LogWindows
    /// The log's envelope, which the windows' text was taken out of.
    let unwrapped: UnwrappedLog?
    let batchLimit: Int
    let make: (Job.Work) -> Bool
    /// How many windows were made, and how much of the log they hold.
    var index = 0
    var covered = 0
    private var batch: [PartOfInput] = []
    private var batchBytes = 0

    /// What the windows so far leave for the next one's reader (``LogHandover``).
    private let scanner: LogCutScanner

    init(file: SplitFile, log: LogWindows, unwrapped: UnwrappedLog?, batchLimit: Int, make: @escaping (Job.Work) -> Bool) {
        self.file = file
        self.log = log
        self.unwrapped = unwrapped
        // The text's lines and facts are forgotten with its bytes (the line that holds the offset is kept).
        if let unwrapped {
            log.forgetting = { offset, line in _ = unwrapped.lines(from: offset, to: offset, linesBefore: line - 1, lines: 0) }
        }
        scanner = LogCutScanner(format: log.format)
        self.batchLimit = batchLimit
        self.make = make
    }

    /// Makes the job of the windows kept so far; false once the search stopped.
    func flush() -> Bool {
        guard !batch.isEmpty else { return true }
        defer { batch = []; batchBytes = 0 }
        return make(.windows(file, batch))
    }

    /// Notes the records of `range`, which no window holds, for the windows after them.
    func skip(_ range: Range<Int>) {
        log.withBytes(range) { scanner.skipped($0) }
        log.forget(before: range.upperBound)
    }

    /// The input's line of the log's line at `offset` (a line's start): the
    /// text's, or the envelope's it was taken out of.
    func inputLine(at offset: Int) -> Int {
        let line = log.line(at: offset)
        return unwrapped?.lines(from: offset, to: offset, linesBefore: line - 1, lines: 0).firstLine ?? line
    }

    /// Keeps the window `window` for a job; false once the search stopped.
    func emit(_ window: Range<Int>) -> Bool {
        // (The end of a text taken out of its envelope is the input's only if nothing stopped the taking.)
        var part = PartOfInput(fileDescriptor: file.fileDescriptor, offset: window.lowerBound, bytes: log.bytes(window),
                               continuing: nil, header: [], line: log.line(at: window.lowerBound), stanzasBefore: 0,
                               stanzas: nil, log: log.format, index: index,
                               endsInput: window.upperBound == log.size && unwrapped?.trouble == nil)
        if let unwrapped, let bytes = part.bytes {
            part.enveloped = unwrapped.lines(from: window.lowerBound, to: window.upperBound, linesBefore: part.line - 1,
                                             lines: bytes.withUnsafeBufferPointer(countNewlines))
            part.line = part.enveloped!.firstLine
        }
        // The state its reader starts in: what the windows before left (no stream
        // header or end is skipped, and the formats skipped in carry nothing else
        // over lines that a window's first line does not tell).
        if let bytes = part.bytes {
            bytes.withUnsafeBufferPointer { all in
                if window.lowerBound > 0 {
                    let lineEnd = all.firstIndex(of: 0x0A) ?? all.count
                    part.logStart = scanner.partStart(at: UnsafeBufferPointer(rebasing: all[..<lineEnd]), after: UnsafeBufferPointer(rebasing: all[..<0]))
                }
                scanner.passed(all)
            }
        }
        index += 1
        // (What is before its end is not looked at again: a window starts at its end at the earliest.)
        log.forget(before: window.upperBound)
        batch.append(part)
        batchBytes += window.count
        covered += window.count
        return batchBytes < batchLimit || flush()
    }
}

extension ParallelSearch {
    /// Reads the windows of a job one after the other, each by a reader
    /// started there, with one searcher and sink; what they find is kept
    /// until the windows are checked as the parts of an input are (``StitchedInput``).
    /// If one was not read as one reader reads it, the log is read again by
    /// one reader, writing from the job's first window on. Returns whether the
    /// job is done (else it is once the windows before are checked).
    func searchWindows(_ file: SplitFile, _ windows: [PartOfInput], for job: Job) -> Bool {
        let trial = Transcript(unbounded: true)
        let (windowSearcher, sink) = makeSearcher(for: job, into: trial)
        var count = 0
        var reports: [Stitcher.Report] = []
        for window in windows {
            guard !isUnwanted(job) else { return true }
            windowSearcher.ledger = nil
            var result: (count: Int, clean: Bool)?
            do {
                result = try windowSearcher.search(window.searched(file.path), sink: sink)
            } catch {
                // Outputs kept in memory do not fail.
            }
            let clean = result?.clean ?? false
            // (A window of a stream stands on its own: its reader checks it ends where the scanner said.)
            reports.append(window.log != nil ? Stitcher.Report(ledger: windowSearcher.ledger, clean: clean)
                           : Stitcher.Report(standingAlone: clean))
            count += result?.count ?? 0
        }
        try? sink.flush()
        trial.count = count
        trial.matched = windowSearcher.matched
        trial.failed = windowSearcher.failed
        trial.unboundPrefixes = windowSearcher.unboundPrefixes
        trial.statistics = windowSearcher.statistics
        trial.sink = sink
        guard let first = windows.first else { return true }
        file.stitched.partsRead(first.index..<(first.index + windows.count), reports) { [self] kept in
            settleWindows(file, windows, trial, for: job, kept: kept)
            job.transcript.finish()
        }
        return false
    }

    /// What the windows of a job come to: what they found, if they are kept
    /// (or no longer wanted); else the rest of the log read by one reader from
    /// the job's first window on.
    private func settleWindows(_ file: SplitFile, _ windows: [PartOfInput], _ trial: Transcript, for job: Job, kept: Bool) {
        // A trial not adopted lets go of its sink (whose output holds the trial).
        defer { trial.sink = nil }
        if kept || isUnwanted(job) {
            if kept { file.partsKept.add(windows.count, ordering: .relaxed) }
            let matched = trial.matched, stopsAtFirstMatch = trial.sink?.stopsAtFirstMatch ?? false
            job.transcript.adopt(trial)
            if stopsAtFirstMatch && matched { noteMatch(in: job) }
            return
        }
        debugParts("prefilter: the windows from line \(windows[0].line) on were not read as one reader reads them")
        guard fallBack(job, in: file) else { return }
        search(restOfFile(file, from: windows[0]).searched(file.path), for: job, into: job.transcript)
    }
}

/// For the tests (`STANZAQ_DEBUG_PARTS=1`): a line on standard error about how
/// a file was cut, written at once, whatever the output's order.
func debugParts(_ line: String) {
    guard getenv("STANZAQ_DEBUG_PARTS") != nil else { return }
    let text = "stanzaq: debug: " + line + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}
