#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Buffered writing of whole records to a file descriptor, or to memory.
///
/// Records are appended to a buffer that is written out once it is large, at
/// ``flush()``, or at the end of each stanza when ``lineBuffered``. Writing never ends
/// the program: ``flush()`` throws ``OutputError`` and the caller decides
/// (the command exits quietly when the reader went away, as `grep | head` does).
public final class Output {
    private let fileDescriptor: Int32?
    /// Where a piece of a parallel search keeps what it writes.
    private let transcript: Transcript?
    // Unchecked at run time (each record and stanza made two checks): nothing
    // accesses them re-entrantly.
    @exclusivity(unchecked) private(set) var buffer: [UInt8] = []
    /// Everything written, when the output is kept in memory.
    public private(set) var contents: [UInt8] = []
    private let limit = 1 << 16
    /// Write out at the end of every stanza (on a terminal, or `--line-buffered`).
    @exclusivity(unchecked) public var lineBuffered = false
    /// With `--merge`: the records held until the end, to be written in time
    /// order (``writeInTimeOrder()``); `nil`: written as they come.
    var timeOrder: TimeOrder?

    /// An output to `fileDescriptor` (standard output by default).
    public init(fileDescriptor: Int32 = 1) {
        self.fileDescriptor = fileDescriptor
        transcript = nil
        buffer.reserveCapacity(limit * 2)
    }

    private init() {
        fileDescriptor = nil
        transcript = nil
    }

    /// An output kept in `transcript`, in order with the diagnostics there.
    init(transcript: Transcript) {
        fileDescriptor = nil
        self.transcript = transcript
    }

    /// An output kept in ``contents``.
    public static func inMemory() -> Output { Output() }

    /// ``contents`` as text (invalid UTF-8 replaced).
    public var text: String { String(decoding: contents, as: UTF8.self) }

    /// Appends a whole record and writes the buffer out if it is full.
    public func write(_ record: [UInt8]) throws(OutputError) {
        buffer.append(contentsOf: record)
        if buffer.count >= limit { try flush() }
    }

    public func write(_ string: String) throws(OutputError) {
        try write(Array(string.utf8))
    }

    /// Lets `body` append a whole record to the buffer (no copy), then writes
    /// the buffer out if it is full.
    @inline(__always)
    public func writeRecord(_ body: (inout [UInt8]) -> Void) throws(OutputError) {
        body(&buffer)
        if buffer.count >= limit { try flush() }
    }

    /// The end of a stanza's records: written out now when line-buffered.
    @inline(__always)
    public func endStanza() throws(OutputError) {
        if lineBuffered { try flush() }
    }

    /// With `--merge`: the records written from now on are of a stanza of time `key`.
    func beginStanza(at key: DateTime?) {
        guard let timeOrder else { return }
        timeOrder.keep(buffer)
        buffer.removeAll(keepingCapacity: true)
        timeOrder.key = key
    }

    /// With `--merge`: writes every record held, in time order, and ends holding them.
    func writeInTimeOrder() throws(OutputError) {
        guard let timeOrder else { return }
        timeOrder.keep(buffer)
        buffer = timeOrder.ordered()
        self.timeOrder = nil
        try flush()
    }

    /// Writes the buffer out. On failure the buffer is dropped (its records are lost
    /// either way) and the error thrown.
    public func flush() throws(OutputError) {
        if let timeOrder {
            // Held, with the time of the stanza they are of.
            timeOrder.keep(buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        }
        guard let fileDescriptor else {
            if let transcript {
                if !buffer.isEmpty { transcript.append(.output(buffer)) }
                buffer.removeAll(keepingCapacity: true)
                return
            }
            contents.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        }
        let code = buffer.withUnsafeBytes { writeAll(fileDescriptor, $0) }
        buffer.removeAll(keepingCapacity: true)
        if code == EPIPE { throw .brokenPipe }
        if code != 0 { throw .failed(errno: code) }
    }
}

/// Why standard output could not be written.
public enum OutputError: Error, Equatable {
    /// The reader went away (EPIPE, as with `stanzaq … | head -1`): not an error.
    case brokenPipe
    /// Any other failure (a full disk, a closed descriptor): the results are lost,
    /// so this is an error, as in grep.
    case failed(errno: Int32)

    public var diagnostic: Diagnostic {
        switch self {
        case .brokenPipe: return Diagnostic("write error: \(errorMessage(EPIPE))")
        case .failed(let code): return Diagnostic("write error: \(errorMessage(code))")
        }
    }
}
