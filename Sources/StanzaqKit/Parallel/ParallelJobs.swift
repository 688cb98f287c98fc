import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif
import Synchronization

/// One piece of a parallel search, in input order.
final class Job: @unchecked Sendable {
    enum Work {
        /// A whole input.
        case file(String)
        /// A part of a file cut into parts.
        case part(SplitFile, PartOfInput)
        /// Windows of a log around the hits of a prefilter, read one after the
        /// other (``ParallelSearch/searchWindows(_:_:for:)``).
        case windows(SplitFile, [PartOfInput])
        /// The end of a file cut into parts (its count, with -c -H).
        case end(SplitFile)
        /// An input that cannot be searched (-r: a directory that cannot be listed…).
        case message(Diagnostic)
    }

    /// The file a part belongs to; nil for other work.
    var splitFile: SplitFile? {
        switch work {
        case .part(let file, _), .windows(let file, _): return file
        case .file, .end, .message: return nil
        }
    }

    let index: Int
    let work: Work
    let transcript: Transcript

    init(index: Int, work: Work, transcript: Transcript = Transcript()) {
        self.index = index
        self.work = work
        self.transcript = transcript
    }

    /// The transcript holds its search's sink, whose output holds the
    /// transcript: a cycle, broken once neither the writer nor a worker has the job.
    deinit {
        transcript.sink = nil
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
    /// How many parts the producer made and how many were kept (``SearchOptions/reportsParts``).
    let partsMade = Atomic<Int>(0)
    let partsKept = Atomic<Int>(0)

    /// Its size when it was cut (`--stats`: the bytes of the input).
    let size: Int

    init(path: String, fileDescriptor: Int32) {
        self.path = path
        self.fileDescriptor = fileDescriptor
        var status = stat()
        size = fstat(fileDescriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    deinit { close(fileDescriptor) }
}

/// The parts of a log checked in order against what one reader of the whole log
/// remembers (``LogCutState``): a part is kept if the parts before it were, it
/// was read cleanly (``LogReader/isAtCleanCut``…), it was started in the state
/// the part before handed on (``LogReader/handover``), and its start tags fared
/// as in that reader. Only this check waits for the parts before; reading does not.
final class LogCuts: @unchecked Sendable {
    private let condition = Condition()
    private let state = LogCutState()
    /// How many parts have been kept, in order.
    private var kept = 0
    private var failed = false
    /// The first part not kept, and why (``SearchOptions/reportsParts``).
    private(set) var fellBack: (index: Int, why: String)?
    /// Parts read whose check waits for the parts before them (``submit(part:_:clean:then:)``),
    /// and whether a thread is checking them.
    private var submitted: [Int: (log: LogCutLog?, clean: Bool, then: (Bool) -> Void)] = [:]
    private var draining = false

    /// Checks part `index` as ``check(part:_:clean:abandoned:)`` does, without
    /// waiting: now if the parts before it are checked, else by the thread that
    /// submits the last of them; `then` is called with whether the part is kept,
    /// on that thread, outside the lock. (A worker that waited for the part
    /// before, read by the other, idled a core whenever the producer took one.)
    /// A part submitted after one
    /// failed is not kept, whatever its place.
    func submit(part index: Int, _ log: LogCutLog?, clean: Bool, then: @escaping (Bool) -> Void) {
        condition.lock()
        submitted[index] = (log, clean, then)
        guard !draining else {
            condition.unlock()
            return
        }
        draining = true
        while true {
            var verdicts: [((Bool) -> Void, Bool)] = []
            while !failed, let next = submitted.removeValue(forKey: kept) {
                verdicts.append((next.then, apply(part: kept, next.log, clean: next.clean)))
            }
            if failed {
                verdicts += submitted.values.map { ($0.then, false) }
                submitted = [:]
            }
            if verdicts.isEmpty { break }
            condition.unlock()
            for (then, kept) in verdicts { then(kept) }
            condition.lock()
        }
        draining = false
        condition.unlock()
    }

    /// Applies the check of part `index`, the next in order (with the lock held): whether it is kept.
    private func apply(part index: Int, _ log: LogCutLog?, clean: Bool) -> Bool {
        var why = log?.trouble ?? "not read to its end"
        let ok = clean && log.map { log in
            let trouble = state.trouble(applying: log)
            if let trouble { why = trouble }
            return trouble == nil
        } ?? false
        if ok {
            kept += 1
        } else {
            failed = true
            fellBack = (index, why)
        }
        condition.broadcast()
        return ok
    }

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
        return apply(part: index, log, clean: clean)
    }
}

extension LogCuts {
    /// What became of the parts, once all are checked.
    var report: (index: Int, why: String)? {
        condition.lock()
        defer { condition.unlock() }
        return fellBack
    }
}

/// The first line feed in `bytes` at or after `from` (CByteSearch's search, as the scanner's).
func firstNewline(in bytes: [UInt8], from: Int) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
        guard from < buffer.count, let base = buffer.baseAddress else { return nil }
        let found = stanzaq_find_byte(base, from, buffer.count, 0x0A)
        return found < buffer.count ? found : nil
    }
}
