#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Writes the jobs of a ``ParallelSearch`` in input order, as one searcher
/// would have written them: each job's records and messages, then what it
/// found (counts, whether it matched, the end of a file cut into parts), and
/// at the end the search's total. Both schedules use it: the writing thread
/// takes each job's segments as its worker appends them
/// (``ParallelSearch/write()``), and in order each segment is written as it is
/// appended (``ParallelSearch/runInOrder()``).
final class JobWriter {
    private let search: ParallelSearch
    private var searcher: Searcher { search.searcher }
    private var total = 0
    private var fileCount = 0
    /// The warnings said once per input, by the parts of the split file being written.
    private var saidOnce = Set<String>()
    private var saidOnceFile: SplitFile?

    init(_ search: ParallelSearch) {
        self.search = search
    }

    /// Starts writing `job`; false if it is not written: its file is read to
    /// its end by the reader that took over at an earlier job.
    func begin(_ job: Job) -> Bool {
        if job.splitFile == nil || job.splitFile !== saidOnceFile { (saidOnce, saidOnceFile) = ([], job.splitFile) }
        if let file = job.splitFile, job.index > file.fellBackAt.load(ordering: .acquiring) {
            job.transcript.abandon()
            return false
        }
        return true
    }

    /// Writes one segment of the job begun.
    func write(_ segment: Transcript.Segment) throws(OutputError) {
        switch segment {
        case .output(let bytes):
            try search.output.write(bytes)
            if search.output.lineBuffered { try search.output.flush() }
        case .diagnostic(let line):
            try search.output.flush()
            searcher.diagnostics.write(line)
        case .diagnosticOnce(let key, let line):
            guard saidOnce.insert(key).inserted else { return }
            try search.output.flush()
            searcher.diagnostics.write(line)
        }
    }

    /// Ends writing `job`, whose segments are written: takes what it found.
    /// Returns whether the search goes on (not after `-q`'s match, nor Ctrl-C).
    func end(_ job: Job) throws(OutputError) -> Bool {
        let sink = searcher.sink
        let transcript = job.transcript
        if transcript.matched { searcher.matched = true }
        if transcript.failed { searcher.failed = true }
        if let prefixes = transcript.unboundPrefixes { searcher.unboundPrefixes.formIntersection(prefixes) }
        if let jobSink = transcript.sink { sink.absorb(jobSink) }
        searcher.statistics += transcript.statistics
        switch job.work {
        case .file:
            searcher.statistics.noteInput(count: transcript.count)
            total += transcript.count
        case .message:
            total += transcript.count
        case .part, .windows:
            fileCount += transcript.count
            total += transcript.count
        case .end(let file):
            searcher.statistics.noteInput(count: fileCount)
            searcher.statistics.bytes += file.size
            if search.options.parallel.reportsParts { search.reportParts(of: file) }
            if !Interruption.isRequested && !(sink.stopsAtFirstMatch && searcher.matched) {
                try sink.endInput(SearchedInput(path: file.path).name, count: fileCount)
            }
            fileCount = 0
        }
        if sink.stopsAtFirstMatch && searcher.matched { return false }
        // Ctrl-C: the records written so far are whole; a count would not be.
        if Interruption.isRequested {
            try sink.flush()
            return false
        }
        return true
    }

    /// Ends the search once every job is written: the total, the warnings
    /// about prefixes never bound, the statistics.
    func endSearch() throws(OutputError) {
        try searcher.sink.endSearch(count: total)
        try searcher.sink.flush()
        searcher.unboundPrefixes.warnings.forEach(searcher.diagnostics.report)
        searcher.reportStatistics()
    }
}
