/// The jobs of a search run in order on the calling thread, each written as
/// it runs: with one thread (`--threads 1`), or output line by line. A log
/// read only around the prefilter's hits is made into the same jobs as on
/// threads (its windows, checked in order as they are read), and no thread
/// is started.
extension ParallelSearch {
    func runInOrder() throws(OutputError) {
        let writer = JobWriter(self)
        inOrder = writer
        defer { inOrder = nil }
        produce()
        if let failure = failureInOrder { throw failure }
        if !endedEarly { try writer.endSearch() }
    }

    /// Runs the job of `work` and writes it; false once the search stopped
    /// (as ``make(_:)`` on threads).
    func runNow(_ work: Job.Work, writer: JobWriter) -> Bool {
        guard !stopping.load(ordering: .relaxed) else { return false }
        switch work {
        case .part(let file, let part) where part.bytes != nil: file.partsMade.add(1, ordering: .relaxed)
        case .windows(let file, let windows): file.partsMade.add(windows.count, ordering: .relaxed)
        case .part, .file, .end, .message: break
        }
        let transcript = Transcript(passingOn: { [unowned writer] segment throws(OutputError) in try writer.write(segment) },
                                    failed: { [unowned self] in stop() })
        let job = Job(index: nextIndex, work: work, transcript: transcript)
        nextIndex += 1
        guard writer.begin(job) else { return true }
        // (A part of a log is checked at once: the parts before it are.)
        if run(job) { transcript.finish() }
        if let failure = transcript.passingFailure {
            // (A closed pipe: whether the job's stanzas counted is still the exit status's.)
            if transcript.matched { searcher.matched = true }
            failureInOrder = failure
            return false
        }
        do {
            guard try writer.end(job) else {
                endedEarly = true
                stop()
                return false
            }
        } catch {
            failureInOrder = error
            stop()
            return false
        }
        return true
    }
}
