#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Where a search starts reading its input, and what its reader takes as done
/// before that place: by default the input's first byte, the input opened by
/// its path; else a place inside a file already open (read with `pread`, so
/// that searches share it), the bytes to read there, and the state the reader
/// starts in.
struct ReadingStart {
    /// The file, already open; `nil`: opened by the input's path, and only
    /// then is compression undone.
    var file: Int32?
    /// Where reading starts in the file.
    var offset = 0
    /// The bytes to read, which end inside the input; `nil`: the file from
    /// `offset` to its end.
    var bytes: [UInt8]?
    /// Whether the input ends where reading ends. If not, nothing is finished,
    /// and a log reader hands off (``LogReader/handOff()``).
    var endsInput = true
    /// What the bytes are read as; `nil`: recognised from the first bytes.
    var reader: Reader?
    /// A log taken out of its envelope (``UnwrappedLog``): the input's lines of
    /// its text, and the envelope's facts. `bytes` and `offset` are then the
    /// log's text, not the input's.
    var enveloped: EnvelopedLines?
    /// The log's format, where it is known beforehand (for its warning).
    var logFormat: LogFormat?
    /// Whether a log reader keeps a ledger (``LogReader/keepLedger()``).
    var keepsLedger = false
    /// The stanzas before (numbered on from there).
    var stanzasBefore = 0
    /// The lines before (a log's lines are numbered on from there).
    var linesBefore = 0
    /// The lines up to which what is found was written already (a log read
    /// again from its start).
    var silentThrough = 0
    /// Whether the input's warnings were said (by the reader of its start).
    var warned = false
    /// Whether reading starts at the file's first byte: compression and an
    /// envelope are looked for only there.
    var isWholeFile = true

    /// How the reader starts where it is not at the input's start.
    enum Reader {
        /// Inside an XMPP stream, after its start tag `header`, at `line`.
        case stream(header: [UInt8], line: Int)
        /// Inside a sequence of top-level elements, at `line`.
        case sequence(line: Int)
        /// A log, from a checkpoint (``LogReader/init(resuming:defaultNamespace:reusing:handler:damage:)``).
        case log(LogCheckpoint)
    }

    /// Reads `file` from `offset` to its end, handing each chunk to `body`
    /// until it returns `false`; returns `errno` if reading failed.
    func readToEnd(of file: Int32, _ body: (UnsafeRawBufferPointer) -> Bool) -> Int32? {
        let size = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        var position = offset
        while true {
            let count = pread(file, buffer.baseAddress, size, off_t(position))
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { return nil }
            position += count
            if !body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { return nil }
        }
    }
}
