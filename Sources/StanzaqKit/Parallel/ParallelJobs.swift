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
    /// Its parts, checked in order.
    let stitched = StitchedInput()
    /// How many parts the producer made and how many were kept (``ParallelOptions/reportsParts``).
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

/// The first line feed in `bytes` at or after `from` (CByteSearch's search, as the scanner's).
func firstNewline(in bytes: [UInt8], from: Int) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
        guard from < buffer.count, let base = buffer.baseAddress else { return nil }
        let found = stanzaq_find_byte(base, from, buffer.count, 0x0A)
        return found < buffer.count ? found : nil
    }
}
