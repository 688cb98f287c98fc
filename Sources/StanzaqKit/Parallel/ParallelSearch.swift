import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif
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
    let searcher: Searcher
    let output: Output
    /// The inputs, made on the producer's thread (a walk of directories runs there).
    let walk: () -> AnyIterator<WalkItem>
    let options: SearchOptions
    /// What may run at once (``SearchOptions/parallelism(for:)``).
    let parallelism: Parallelism
    let threads: Int
    let window: Int

    /// The jobs made and not yet run, and made and not yet written; guarded by `state`.
    let state = Condition()
    var toRun = JobQueue()
    var toWrite = JobQueue()
    /// Jobs made and not yet written.
    var unwritten = 0
    var madeAll = false
    var stopped = false
    var nextIndex = 0

    /// Set once the search stops early (-q found a stanza, output failed, Ctrl-C).
    let stopping = Atomic<Bool>(false)
    /// With -q: the first job known to have a stanza that counts; later ones are not wanted.
    let firstMatch = Atomic<Int>(Int.max)
    /// The writer of jobs run as they are made (``runInOrder()``); `nil` on threads.
    var inOrder: JobWriter?
    /// In order: why writing failed, or whether `-q`'s match or Ctrl-C ended the search.
    var failureInOrder: OutputError?
    var endedEarly = false

    /// `nil` when one thread does as well: one thread asked for, line-buffered
    /// output, or a `single` input that cannot be cut into parts.
    init?(searcher: Searcher, walk: some Sequence<WalkItem>, single: String?) {
        let options = searcher.options
        let parallelism = options.parallelism(for: searcher.sink)
        // (Skipping a log's records cuts it into parts even for one thread.)
        guard parallelism.inputs || parallelism.skipping != nil, let output = searcher.output else { return nil }
        self.searcher = searcher
        self.output = output
        self.walk = { AnyIterator(walk.makeIterator()) }
        self.options = options
        self.parallelism = parallelism
        threads = options.threads
        window = 2 * options.threads + 2
        if let single, !mayBeSplit(single) { return nil }
    }

    // MARK: - The calling thread: writing in order

    func run() throws(OutputError) {
        // One thread, or output as it comes: the same jobs, run by a plain loop.
        guard parallelism.inputs else { return try runInOrder() }
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

    /// Writes the jobs in order, each as its worker appends to its transcript.
    func write() throws(OutputError) {
        let writer = JobWriter(self)
        while let job = nextToWrite() {
            defer { written(job) }
            guard writer.begin(job) else { continue }
            while true {
                let (segments, done) = job.transcript.take()
                for segment in segments {
                    do {
                        try writer.write(segment)
                    } catch {
                        // (A closed pipe: whether the job's stanzas counted is still the exit status's.)
                        stop()
                        job.transcript.waitForEnd()
                        if job.transcript.matched { searcher.matched = true }
                        throw error
                    }
                }
                if done { break }
            }
            guard try writer.end(job) else { return }
        }
        try writer.endSearch()
    }

    func nextToWrite() -> Job? {
        state.lock()
        defer { state.unlock() }
        while toWrite.isEmpty && !madeAll { state.wait() }
        return toWrite.pop()
    }

    func written(_ job: Job) {
        state.lock()
        unwritten -= 1
        state.broadcast()
        state.unlock()
    }

    /// Ends the search: no more jobs are made or started, running ones stop at their next stanza.
    func stop() {
        stopping.store(true, ordering: .releasing)
        state.lock()
        stopped = true
        var waiting: [Job] = []
        while let job = toWrite.pop() { waiting.append(job) }
        state.broadcast()
        state.unlock()
        for job in waiting { job.transcript.abandon() }
    }

    // MARK: - The workers

    func work() {
        while let job = nextToRun() {
            if run(job) { job.transcript.finish() }
        }
    }

    func nextToRun() -> Job? {
        state.lock()
        defer { state.unlock() }
        while toRun.isEmpty && !madeAll && !stopped { state.wait() }
        guard !stopped else { return nil }
        return toRun.pop()
    }

    /// Whether a job's results are no longer wanted.
    func isUnwanted(_ job: Job) -> Bool {
        isUnwanted(job.index, in: job.splitFile)
    }

    /// As ``isUnwanted(_:)``, from the job's index and file taken out once: the
    /// check runs between every two stanzas, and copying the job's work (its
    /// part's arrays) and retaining this object each time changed reference
    /// counts that every worker shares (its retains and releases, between every
    /// two stanzas, slowed every thread).
    func isUnwanted(_ index: Int, in file: SplitFile?) -> Bool {
        if stopping.load(ordering: .relaxed) || index > firstMatch.load(ordering: .relaxed) { return true }
        if let file, index > file.fellBackAt.load(ordering: .relaxed) { return true }
        return false
    }

    /// Runs `job`; whether it is done (a part or windows are done once
    /// checked, maybe by another worker: ``StitchedInput/partsRead(_:_:then:)``).
    func run(_ job: Job) -> Bool {
        guard !isUnwanted(job) else { return true }
        switch job.work {
        case .file(let path):
            search(SearchedInput(path: path), for: job, into: job.transcript)
        case .part(let file, let part):
            return run(part, of: file, for: job)
        case .windows(let file, let windows):
            return searchWindows(file, windows, for: job)
        case .message(let diagnostic):
            job.transcript.append(.diagnostic(diagnostic.description))
            job.transcript.failed = true
        case .end:
            break
        }
        return true
    }

    /// Searches `input` for `job` with a searcher of its own writing into
    /// `transcript`; returns whether a part was read cleanly to its end.
    @discardableResult
    func search(_ input: SearchedInput, for job: Job, into transcript: Transcript) -> Bool {
        var ledger: LogLedger?
        return search(input, for: job, into: transcript, ledger: &ledger)
    }

    /// As ``search(_:for:into:)``; `ledger`: for a part of a log, what its reader did
    /// that depends on the stanzas before it.
    func search(_ input: SearchedInput, for job: Job, into transcript: Transcript, ledger: inout LogLedger?) -> Bool {
        let (jobSearcher, sink) = makeSearcher(for: job, into: transcript)
        var clean = true
        do {
            let result = try jobSearcher.search(input, sink: sink)
            clean = result.clean
            transcript.count = result.count
            try sink.flush()
        } catch {
            // Outputs kept in memory do not fail.
        }
        ledger = jobSearcher.ledger
        transcript.matched = jobSearcher.matched
        transcript.failed = jobSearcher.failed
        transcript.unboundPrefixes = jobSearcher.unboundPrefixes
        transcript.statistics = jobSearcher.statistics
        transcript.sink = sink
        if sink.stopsAtFirstMatch && jobSearcher.matched { noteMatch(in: job) }
        return clean
    }

    /// A searcher of `job`'s own, with copies of the queries, whose sink writes into `transcript`.
    func makeSearcher(for job: Job, into transcript: Transcript) -> (Searcher, any SearchSink) {
        var jobOptions = options
        jobOptions.queries = options.queries.map { $0.copyForAnotherThread() }
        jobOptions.each = options.each?.copyForAnotherThread()
        jobOptions.wheres = options.wheres.map { $0.copyForAnotherThread() }
        jobOptions.threads = 1
        let jobOutput = Output(transcript: transcript)
        jobOutput.lineBuffered = inOrder != nil && output.lineBuffered
        let sink = jobOptions.makeSink(output: jobOutput)
        let jobSearcher = Searcher(options: jobOptions, sink: sink, diagnostics: Diagnostics(transcript: transcript),
                                   standardInput: searcher.standardInput)
        let index = job.index, file = job.splitFile
        jobSearcher.isCancelled = { [self] in isUnwanted(index, in: file) }
        return (jobSearcher, sink)
    }

    /// With -q: `job` has a stanza that counts, and the jobs after it are not wanted.
    func noteMatch(in job: Job) {
        var known = firstMatch.load(ordering: .relaxed)
        while job.index < known {
            let (exchanged, original) = firstMatch.compareExchange(expected: known, desired: job.index, ordering: .relaxed)
            if exchanged { break }
            known = original
        }
    }
}
