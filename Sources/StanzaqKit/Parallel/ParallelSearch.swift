import CByteSearch
import StanzaQuery
import Synchronization

/// A search on several threads whose output is what one thread writes
/// (stanzaq(1), "Parallelism"): records, their order, prefixes, stanza
/// numbers, messages and exit status.
///
/// The inputs are cut into pieces (jobs): a file each, and a large XMPP stream
/// into parts that end at stanza boundaries (``StanzaBoundaryScanner``), each
/// read by a reader taking up the stream there. One thread (the producer) makes
/// the jobs in input order, the workers search them — each with a searcher,
/// sink and copies of the queries of its own, writing into the job's
/// ``Transcript`` — and the calling thread writes the transcripts out in order.
///
/// A part that is not read cleanly to its end (damage, a stream that ends,
/// anything the scanner may have got wrong) is thrown away and the file is read
/// from the part's start to its end by one reader, in the state one reader of
/// the whole file is in there, so that messages, positions and stanza numbers
/// are the ones it gives. At most ``window`` jobs are made and not yet
/// written, and a job that is not being written waits once its transcript
/// holds ``Transcript/limit`` bytes: memory stays bounded whatever the input.
final class ParallelSearch: @unchecked Sendable {
    private let searcher: Searcher
    private let output: Output
    /// The inputs, made on the producer's thread (a walk of directories runs there).
    private let walk: () -> AnyIterator<WalkItem>
    private let options: SearchOptions
    private let threads: Int
    private let window: Int

    /// The jobs made and not yet run, and made and not yet written; guarded by `state`.
    private let state = Condition()
    private var toRun = JobQueue()
    private var toWrite = JobQueue()
    /// Jobs made and not yet written.
    private var unwritten = 0
    private var madeAll = false
    private var stopped = false
    private var nextIndex = 0

    /// Set once the search stops early (-q found a stanza, output failed, Ctrl-C).
    private let stopping = Atomic<Bool>(false)
    /// With -q: the first job known to have a stanza that counts; later ones are not wanted.
    private let firstMatch = Atomic<Int>(Int.max)

    /// `nil` when one thread does as well: one thread asked for, line-buffered
    /// output, or a `single` input that cannot be cut into parts.
    init?(searcher: Searcher, walk: some Sequence<WalkItem>, single: String?) {
        let options = searcher.options
        guard options.searchesInParallel, let output = searcher.output else { return nil }
        self.searcher = searcher
        self.output = output
        self.walk = { AnyIterator(walk.makeIterator()) }
        self.options = options
        threads = options.threads
        window = 2 * options.threads + 2
        if let single, !mayBeSplit(single) { return nil }
    }

    // MARK: - The calling thread: writing in order

    func run() throws(OutputError) {
        StanzaReader.prepareForThreads()
        startThread(stackSize: 1 << 20) { [self] in produce() }
        for _ in 0..<threads {
            startThread(stackSize: 8 << 20) { [self] in work() }
        }
        do {
            try write()
        } catch {
            stop()
            throw error
        }
        stop()
    }

    private func write() throws(OutputError) {
        let sink = searcher.sink
        var total = 0
        var fileCount = 0
        while let job = nextToWrite() {
            defer { written(job) }
            if case .part(let file, _) = job.work, job.index > file.fellBackAt.load(ordering: .acquiring) {
                // The file was read to its end by the reader that took over at an earlier part.
                job.transcript.abandon()
                continue
            }
            while true {
                let (segments, done) = job.transcript.take()
                for segment in segments {
                    switch segment {
                    case .output(let bytes): try output.write(bytes)
                    case .diagnostic(let line):
                        try output.flush()
                        searcher.diagnostics.write(line)
                    }
                }
                if done { break }
            }
            let transcript = job.transcript
            if transcript.matched { searcher.matched = true }
            if transcript.failed { searcher.failed = true }
            if let prefixes = transcript.unboundPrefixes { searcher.unboundPrefixes.formIntersection(prefixes) }
            switch job.work {
            case .file, .message:
                total += transcript.count
            case .part:
                fileCount += transcript.count
                total += transcript.count
            case .end(let file):
                if !Interruption.isRequested && !(sink.stopsAtFirstMatch && searcher.matched) {
                    try sink.endInput(InputPart(path: file.path).name, count: fileCount)
                }
                fileCount = 0
            }
            if sink.stopsAtFirstMatch && searcher.matched { return }
            // Ctrl-C: the records written so far are whole; a count would not be.
            if Interruption.isRequested { try sink.flush(); return }
        }
        try sink.endSearch(count: total)
        try sink.flush()
        searcher.unboundPrefixes.warnings.forEach(searcher.diagnostics.report)
    }

    private func nextToWrite() -> Job? {
        state.lock()
        defer { state.unlock() }
        while toWrite.isEmpty && !madeAll { state.wait() }
        return toWrite.pop()
    }

    private func written(_ job: Job) {
        state.lock()
        unwritten -= 1
        state.broadcast()
        state.unlock()
    }

    /// Ends the search: no more jobs are made or started, running ones stop at their next stanza.
    private func stop() {
        stopping.store(true, ordering: .releasing)
        state.lock()
        stopped = true
        var waiting: [Job] = []
        while let job = toWrite.pop() { waiting.append(job) }
        state.broadcast()
        state.unlock()
        for job in waiting { job.transcript.abandon() }
    }

    // MARK: - The producer: jobs in input order

    private func produce() {
        for item in IteratorSequence(walk()) {
            if stopping.load(ordering: .acquiring) { break }
            switch item {
            case .input(let path):
                if !split(path) { _ = make(.file(path)) }
            case .unreadableDirectory:
                if let diagnostic = Searcher.diagnostic(for: item) { _ = make(.message(diagnostic)) }
            }
        }
        state.lock()
        madeAll = true
        state.broadcast()
        state.unlock()
    }

    /// Adds a job, once fewer than `window` are waiting to be written; false once the search stopped.
    private func make(_ work: Job.Work) -> Bool {
        state.lock()
        defer { state.unlock() }
        while !stopped && unwritten >= window { state.wait() }
        if stopped { return false }
        let job = Job(index: nextIndex, work: work)
        nextIndex += 1
        unwritten += 1
        toRun.push(job)
        toWrite.push(job)
        state.broadcast()
        return true
    }

    /// Whether `path` names a file worth cutting into parts: a regular file of
    /// at least two parts.
    private func mayBeSplit(_ path: String) -> Bool {
        // A part cannot know how many stanzas counted before it (-m, -l).
        if options.maxCount != nil || searcher.sink.stanzasPerInput != nil { return false }
        var status = stat()
        if path == "-" {
            guard fstat(searcher.standardInput, &status) == 0 else { return false }
        } else {
            guard fstatat(options.directory, path.fileSystemPath, &status, 0) == 0 else { return false }
        }
        return (status.st_mode & S_IFMT) == S_IFREG && Int(status.st_size) >= 2 * options.partSize
    }

    /// Cuts the file at `path` into parts, if it is an XMPP stream that can be;
    /// false if it is to be searched whole.
    private func split(_ path: String) -> Bool {
        guard mayBeSplit(path) else { return false }
        let fd: Int32
        if path == "-" {
            // From its start only: what was read before is not the input's.
            guard lseek(searcher.standardInput, 0, SEEK_CUR) == 0 else { return false }
            fd = fcntl(searcher.standardInput, F_DUPFD_CLOEXEC, 3)
        } else {
            fd = openat(options.directory, path.fileSystemPath, O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { return false }
        let blockSize = 1 << 16
        var buffer = readBlock(fd, at: 0, size: blockSize)
        // gzip is read whole, decompressed as it comes: its bytes have no places to cut at.
        if buffer.starts(with: [0x1F, 0x8B]) {
            close(fd)
            return false
        }
        if case .log(let format)? = options.input ?? InputKind.recognise(buffer, atEnd: buffer.count < blockSize) {
            return splitLog(path, fd, buffer: buffer, format: format)
        }
        guard let prologue = buffer.withUnsafeBufferPointer({ StreamPrologue($0) }) else {
            close(fd)
            return false
        }
        // Room for a whole part and the block read past its end, so that the
        // blocks appended to it are copied once (growing it copied all before
        // each time: 2% of a search's instructions, callgrind).
        let partCapacity = options.partSize + 2 * blockSize
        buffer.reserveCapacity(partCapacity)
        let file = SplitFile(path: path, fileDescriptor: fd)
        var scanner = StanzaBoundaryScanner(position: prologue.end)
        var offset = 0, readTo = buffer.count, line = 1, before = 0
        var first = true
        func part(_ bytes: [UInt8]?, stanzas: Int?) -> PartOfInput {
            PartOfInput(fileDescriptor: fd, offset: offset, bytes: bytes, continuing: first ? nil : prologue.header,
                        header: prologue.header, line: line, stanzasBefore: before, stanzas: stanzas)
        }
        cutting: while !stopping.load(ordering: .acquiring) && file.fellBackAt.load(ordering: .acquiring) == Int.max {
            switch buffer.withUnsafeBufferPointer({ scanner.scan($0, target: options.partSize) }) {
            case .needMore:
                let more = readBlock(fd, at: readTo, size: blockSize)
                // No place to cut in sight (stanzas all on one line): the rest is read by one reader.
                if more.isEmpty || buffer.count > 4 * options.partSize + blockSize {
                    _ = make(.part(file, part(nil, stanzas: nil)))
                    break cutting
                }
                buffer.append(contentsOf: more)
                readTo += more.count
            case .boundary(let end, let stanzas):
                // The part keeps the buffer (no copy); what follows it starts a new one.
                var rest: [UInt8] = []
                rest.reserveCapacity(partCapacity)
                rest.append(contentsOf: buffer[end...])
                buffer.removeSubrange(end...)
                let bytes = buffer
                buffer = rest
                let newlines = bytes.withUnsafeBufferPointer(countNewlines)
                guard make(.part(file, part(bytes, stanzas: stanzas))) else { break cutting }
                line += newlines
                before += stanzas
                offset += end
                scanner.cut(at: end)
                first = false
            case .unsure:
                _ = make(.part(file, part(nil, stanzas: nil)))
                break cutting
            }
        }
        _ = make(.end(file))
        return true
    }

    /// Cuts a log into parts at line boundaries, each read by a log reader of its
    /// own (``LogReader/startsMidLog``); false if it is to be searched whole. A
    /// part is kept only if its reader found that it depends on nothing before
    /// it and ended at a clean cut (``LogReader/isAtCleanCut``); else the log is
    /// read again from its start by one reader, which writes only what it finds
    /// from that part on.
    private func splitLog(_ path: String, _ fd: Int32, buffer first: [UInt8], format forced: LogFormat?) -> Bool {
        let blockSize = 1 << 16
        // A part cannot know how many stanzas came before it; nor, when the
        // format is detected, a format other than the one the log's start shows.
        guard !options.withStanzaNumber,
              let format = forced ?? first.withUnsafeBufferPointer({ LogFormat.detected(atStartOf: $0, atEnd: first.count < blockSize) }),
              format.mayBeCut else {
            close(fd)
            return false
        }
        let file = SplitFile(path: path, fileDescriptor: fd)
        // Parts four times as large as an XMPP stream's: a part's reader makes a
        // reader for each direction of each session again (callgrind: 6% more
        // instructions at 256 KB parts).
        let partSize = 4 * options.partSize
        var buffer = first
        var offset = 0, readTo = buffer.count, line = 1, index = 0
        /// Where the part in `buffer` ends: the start of the first line at or after
        /// `partSize` that a part may start at (or of any line, past four parts).
        var searchFrom = partSize - 1
        func cut() -> Int? {
            while searchFrom < buffer.count {
                guard let newline = firstNewline(in: buffer, from: searchFrom) else {
                    searchFrom = buffer.count
                    return nil
                }
                let lineStart = newline + 1
                guard let lineEnd = firstNewline(in: buffer, from: lineStart) else {
                    searchFrom = newline
                    return nil
                }
                let previousStart = buffer.withUnsafeBufferPointer { stanzaq_find_last_byte($0.baseAddress!, newline, 0x0A) } + 1
                if lineStart > 4 * partSize
                    || buffer.withUnsafeBufferPointer({ format.mayStartPart(at: UnsafeBufferPointer(rebasing: $0[lineStart..<lineEnd]),
                                                                            after: UnsafeBufferPointer(rebasing: $0[previousStart..<newline])) }) {
                    return lineStart
                }
                searchFrom = lineEnd
            }
            return nil
        }
        cutting: while !stopping.load(ordering: .acquiring) && file.fellBackAt.load(ordering: .acquiring) == Int.max {
            if let end = cut() {
                let rest = Array(buffer[end...])
                buffer.removeSubrange(end...)
                let bytes = buffer
                buffer = rest
                let newlines = bytes.withUnsafeBufferPointer(countNewlines)
                let part = PartOfInput(fileDescriptor: fd, offset: offset, bytes: bytes, continuing: nil, header: [], line: line,
                                       stanzasBefore: 0, stanzas: nil, log: format, index: index)
                index += 1
                guard make(.part(file, part)) else { break cutting }
                line += newlines
                offset += end
                searchFrom = partSize - 1
                continue
            }
            let more = readBlock(fd, at: readTo, size: blockSize)
            if more.isEmpty {
                // The end of the log: the last part.
                let part = PartOfInput(fileDescriptor: fd, offset: offset, bytes: buffer, continuing: nil, header: [], line: line,
                                       stanzasBefore: 0, stanzas: nil, log: format, index: index, endsInput: true)
                _ = make(.part(file, part))
                break cutting
            }
            if buffer.count > 8 * partSize + blockSize {
                // No line ends in sight: the rest is read by one reader, from the log's start.
                _ = make(.part(file, rereading(file, from: offset, line: line)))
                break cutting
            }
            // (From a buffer pointer: a memcpy, where Array's append went byte by byte, callgrind.)
            if buffer.capacity < buffer.count + more.count { buffer.reserveCapacity(2 * partSize + 2 * blockSize) }
            more.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
            readTo += more.count
        }
        _ = make(.end(file))
        return true
    }

    /// The log of `file` read again from its start by one reader, which writes
    /// what it finds from `line` (at `offset`) on.
    private func rereading(_ file: SplitFile, from offset: Int, line: Int) -> PartOfInput {
        PartOfInput(fileDescriptor: file.fileDescriptor, offset: 0, bytes: nil, continuing: nil, header: [], line: 1,
                    stanzasBefore: 0, stanzas: nil, silentThrough: line - 1)
    }

    private func readBlock(_ fd: Int32, at offset: Int, size: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let read = pread(fd, buffer.baseAddress! + count, size - count, off_t(offset + count))
                if read < 0 && errno == EINTR { continue }
                if read <= 0 { break }
                count += read
            }
        }
    }

    // MARK: - The workers

    private func work() {
        while let job = nextToRun() {
            run(job)
            job.transcript.finish()
        }
    }

    private func nextToRun() -> Job? {
        state.lock()
        defer { state.unlock() }
        while toRun.isEmpty && !madeAll && !stopped { state.wait() }
        guard !stopped else { return nil }
        return toRun.pop()
    }

    /// Whether a job's results are no longer wanted.
    private func isUnwanted(_ job: Job) -> Bool {
        isUnwanted(job.index, in: job.splitFile)
    }

    /// As ``isUnwanted(_:)``, from the job's index and file taken out once: the
    /// check runs between every two stanzas, and copying the job's work (its
    /// part's arrays) and retaining this object each time changed reference
    /// counts that every worker shares (perf: about 5% of the CPU time of
    /// `body#` with two threads, in swift_retain, swift_release and
    /// swift_unownedRetainStrong).
    private func isUnwanted(_ index: Int, in file: SplitFile?) -> Bool {
        if stopping.load(ordering: .relaxed) || index > firstMatch.load(ordering: .relaxed) { return true }
        if let file, index > file.fellBackAt.load(ordering: .relaxed) { return true }
        return false
    }

    private func run(_ job: Job) {
        guard !isUnwanted(job) else { return }
        switch job.work {
        case .file(let path):
            search(InputPart(path: path), for: job, into: job.transcript)
        case .part(let file, var part):
            if part.bytes != nil {
                // Kept whole until it is known to be read as one reader reads it.
                let trial = Transcript(unbounded: true)
                var cutLog: LogCutLog?
                var clean = search(InputPart(path: file.path, part: part), for: job, into: trial, cutLog: &cutLog)
                if part.log != nil {
                    // Kept only if the parts before it were, and its start tags fared as in one reader of the log.
                    clean = file.logCuts.check(part: part.index, cutLog, clean: clean, abandoned: { isUnwanted(job) })
                }
                if clean || isUnwanted(job) {
                    job.transcript.append(contentsOf: trial)
                    job.transcript.count = trial.count
                    job.transcript.matched = trial.matched
                    job.transcript.failed = trial.failed
                    job.transcript.unboundPrefixes = trial.unboundPrefixes
                    return
                }
                // The rest of the file is read from here by one reader. (The earliest
                // part to fall back does: parts may end in any order.)
                var known = file.fellBackAt.load(ordering: .acquiring)
                while job.index < known {
                    let (exchanged, original) = file.fellBackAt.compareExchange(expected: known, desired: job.index,
                                                                                 ordering: .acquiringAndReleasing)
                    if exchanged { break }
                    known = original
                }
                if job.index > file.fellBackAt.load(ordering: .acquiring) { return }
                if part.log != nil {
                    // A log: read again from its start, in the state one reader is in at the part.
                    part = rereading(file, from: part.offset, line: part.line)
                } else {
                    part.bytes = nil
                    part.stanzas = nil
                }
            }
            search(InputPart(path: file.path, part: part), for: job, into: job.transcript)
        case .message(let diagnostic):
            job.transcript.append(.diagnostic(diagnostic.description))
            job.transcript.failed = true
        case .end:
            break
        }
    }

    /// Searches `input` for `job` with a searcher of its own writing into
    /// `transcript`; returns whether a part was read cleanly to its end.
    @discardableResult
    private func search(_ input: InputPart, for job: Job, into transcript: Transcript) -> Bool {
        var cutLog: LogCutLog?
        return search(input, for: job, into: transcript, cutLog: &cutLog)
    }

    /// As ``search(_:for:into:)``; `cutLog`: for a part of a log, what its reader did
    /// that depends on the stanzas before it.
    private func search(_ input: InputPart, for job: Job, into transcript: Transcript, cutLog: inout LogCutLog?) -> Bool {
        var jobOptions = options
        jobOptions.queries = options.queries.map { $0.copyForAnotherThread() }
        jobOptions.each = options.each?.copyForAnotherThread()
        jobOptions.threads = 1
        let sink = jobOptions.makeSink(output: Output(transcript: transcript))
        let jobSearcher = Searcher(options: jobOptions, sink: sink, diagnostics: Diagnostics(transcript: transcript),
                                   standardInput: searcher.standardInput)
        let index = job.index, file = job.splitFile
        jobSearcher.isCancelled = { [self] in isUnwanted(index, in: file) }
        var clean = true
        do {
            let result = try jobSearcher.search(input, sink: sink)
            clean = result.clean
            transcript.count = result.count
            try sink.flush()
        } catch {
            // Outputs kept in memory do not fail.
        }
        cutLog = jobSearcher.cutLog
        transcript.matched = jobSearcher.matched
        transcript.failed = jobSearcher.failed
        transcript.unboundPrefixes = jobSearcher.unboundPrefixes
        if sink.stopsAtFirstMatch && jobSearcher.matched {
            var known = firstMatch.load(ordering: .relaxed)
            while job.index < known {
                let (exchanged, original) = firstMatch.compareExchange(expected: known, desired: job.index, ordering: .relaxed)
                if exchanged { break }
                known = original
            }
        }
        return clean
    }
}

/// One piece of a parallel search, in input order.
final class Job: @unchecked Sendable {
    enum Work {
        /// A whole input.
        case file(String)
        /// A part of a file cut into parts.
        case part(SplitFile, PartOfInput)
        /// The end of a file cut into parts (its count, with -c -H).
        case end(SplitFile)
        /// An input that cannot be searched (-r: a directory that cannot be listed…).
        case message(Diagnostic)
    }

    /// The file a part belongs to; nil for other work.
    var splitFile: SplitFile? {
        if case .part(let file, _) = work { return file }
        return nil
    }

    let index: Int
    let work: Work
    let transcript = Transcript()

    init(index: Int, work: Work) {
        self.index = index
        self.work = work
    }
}

/// Jobs first in, first out; a job leaves it when taken.
struct JobQueue {
    private var jobs: [Job?] = []
    private var head = 0

    var isEmpty: Bool { head == jobs.count }

    mutating func push(_ job: Job) { jobs.append(job) }

    mutating func pop() -> Job? {
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        jobs[head] = nil
        head += 1
        if head >= 64 && head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}

/// A file cut into parts: open while any of its parts is.
final class SplitFile: @unchecked Sendable {
    let path: String
    let fileDescriptor: Int32
    /// The part from which one reader reads the rest of the file (`Int.max`: none).
    let fellBackAt = Atomic<Int>(Int.max)
    /// For a log: its parts checked in order.
    let logCuts = LogCuts()

    init(path: String, fileDescriptor: Int32) {
        self.path = path
        self.fileDescriptor = fileDescriptor
    }

    deinit { close(fileDescriptor) }
}

/// The parts of a log checked in order against what one reader of the whole log
/// remembers (``LogCutState``): a part is kept if the parts before it were, it
/// was read cleanly (``LogReader/isAtCleanCut``…), and its start tags fared as
/// in that reader. Only this check waits for the parts before; reading does not.
final class LogCuts: @unchecked Sendable {
    private let condition = Condition()
    private let state = LogCutState()
    /// How many parts have been kept, in order.
    private var kept = 0
    private var failed = false

    /// Waits until the parts before `index` are checked (or one failed, or the
    /// part is no longer wanted); returns whether part `index` is kept.
    func check(part index: Int, _ log: LogCutLog?, clean: Bool, abandoned: () -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while kept < index && !failed {
            if abandoned() { return false }
            // (Timed: a part before may be dropped, unwanted, without being checked.)
            condition.wait(seconds: 0.05)
        }
        guard !failed, kept == index else { return false }
        let ok = clean && log.map { state.apply($0) } ?? false
        if ok { kept += 1 } else { failed = true }
        condition.broadcast()
        return ok
    }
}

/// The first line feed in `bytes` at or after `from` (CByteSearch's search, as the scanner's).
private func firstNewline(in bytes: [UInt8], from: Int) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
        guard from < buffer.count, let base = buffer.baseAddress else { return nil }
        let found = stanzaq_find_byte(base, from, buffer.count, 0x0A)
        return found < buffer.count ? found : nil
    }
}

/// How many line feeds `bytes` holds.
private func countNewlines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    return stanzaq_count_byte(base, bytes.count, 0x0A)
}
