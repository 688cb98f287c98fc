/// What one piece of a parallel search (a file, or a part of one) wrote —
/// records for standard output and lines for standard error, in the order it
/// wrote them — kept until the pieces before it have been written, so that
/// the output is what one thread writes (stanzaq(1), "Parallelism").
///
/// The piece being written out (the head) is handed over as it comes; any
/// other piece that holds more than ``limit`` bytes waits until it is the head,
/// which bounds the memory of pieces waiting their turn. A piece run when its
/// turn has come (``ParallelSearch/runInOrder()``) passes each segment on as
/// it is appended, holding nothing.
final class Transcript: @unchecked Sendable {
    enum Segment {
        case output([UInt8])
        case diagnostic(String)
        /// A warning said once per input (stanzaq(1), `--since`): of the parts of
        /// one input, only the first that has it writes it, as one reader would.
        case diagnosticOnce(key: String, line: String)
    }

    /// How many bytes a piece that is not being written out may hold before it waits.
    static let limit = 4 << 20

    private let condition = Condition()
    private var segments: [Segment] = []
    private var heldBytes = 0
    private var isHead = false
    private var isDone = false
    private var isAbandoned = false
    /// Whether appending never waits (a piece kept whole until it is known to be good).
    private let unbounded: Bool

    /// What the piece found, set by its worker before ``finish()``.
    var count = 0
    var matched = false
    var failed = false
    var unboundPrefixes: UnboundPrefixes?
    /// What the piece read and found (`--stats`).
    var statistics = SearchStatistics()
    /// The piece's sink, for what it keeps until the end (``SearchSink/absorb(_:)``).
    var sink: (any SearchSink)?

    /// Where each segment goes as it is appended, for a piece whose turn has
    /// come, and what is told if that fails.
    private let passOn: ((Segment) throws(OutputError) -> Void)?
    private let passingFailed: (() -> Void)?
    /// Why passing a segment on failed (what follows is dropped).
    private(set) var passingFailure: OutputError?

    init(unbounded: Bool = false) {
        self.unbounded = unbounded
        passOn = nil
        passingFailed = nil
    }

    /// A transcript that passes each segment on at once; `failed` is called
    /// if that fails, and what follows is dropped.
    init(passingOn: @escaping (Segment) throws(OutputError) -> Void, failed: @escaping () -> Void) {
        unbounded = true
        passOn = passingOn
        passingFailed = failed
    }

    func append(_ segment: Segment) {
        if let passOn {
            guard passingFailure == nil else { return }
            do {
                try passOn(segment)
            } catch {
                passingFailure = error
                passingFailed?()
            }
            return
        }
        let size: Int
        switch segment {
        case .output(let bytes): size = bytes.count
        case .diagnostic(let line), .diagnosticOnce(_, let line): size = line.utf8.count
        }
        condition.lock()
        segments.append(segment)
        heldBytes += size
        condition.broadcast()
        while !unbounded && heldBytes > Self.limit && !isHead && !isAbandoned { condition.wait() }
        condition.unlock()
    }

    /// Moves everything `other` holds here.
    func append(contentsOf other: Transcript) {
        other.condition.lock()
        let moved = other.segments
        other.segments = []
        other.heldBytes = 0
        other.condition.unlock()
        for segment in moved { append(segment) }
    }

    /// Takes what `trial` (a piece kept whole until it was known to be good)
    /// found and holds: what it found first, so that a writer that fails on its
    /// records still knows whether its stanzas counted.
    func adopt(_ trial: Transcript) {
        count = trial.count
        matched = trial.matched
        failed = trial.failed
        unboundPrefixes = trial.unboundPrefixes
        statistics = trial.statistics
        // Moved, not shared: the sink's output holds the trial, which would hold the sink.
        sink = trial.sink
        trial.sink = nil
        append(contentsOf: trial)
    }

    /// Waits until the piece is complete (its worker stops at its next stanza
    /// once the search stopped), dropping what it holds.
    func waitForEnd() {
        condition.lock()
        defer { condition.unlock() }
        isHead = true
        while !isDone {
            segments = []
            heldBytes = 0
            condition.broadcast()
            condition.wait()
        }
    }

    /// Forgets what was written (a part read again another way).
    func discard() {
        condition.lock()
        segments = []
        heldBytes = 0
        condition.unlock()
    }

    /// The piece is complete: nothing more will be appended.
    func finish() {
        condition.lock()
        isDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// The piece will not be written (the search stopped): a wait ends.
    func abandon() {
        condition.lock()
        isAbandoned = true
        condition.broadcast()
        condition.unlock()
    }

    /// For the writer: makes this piece the head, then waits for what it holds
    /// (or its end). Returns the segments and whether the piece is complete.
    func take() -> (segments: [Segment], done: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if !isHead {
            isHead = true
            condition.broadcast()
        }
        while segments.isEmpty && !isDone { condition.wait() }
        let taken = segments
        segments = []
        heldBytes = 0
        condition.broadcast()
        return (taken, isDone && segments.isEmpty)
    }

    /// Whether the piece is complete (without waiting).
    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isDone
    }
}
