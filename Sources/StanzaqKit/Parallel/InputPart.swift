#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// What one search reads: a whole input (a path, `-` for standard input), or a
/// part of one that a parallel search cut at stanza boundaries.
struct InputPart {
    var path: String
    var part: PartOfInput?

    init(path: String, part: PartOfInput? = nil) {
        self.path = path
        self.part = part
    }

    /// The name in messages and prefixes.
    var name: String { path == "-" ? "(standard input)" : path }

    /// Where reading starts, and what the reader takes as already done there.
    struct Start {
        /// The stanzas before it (numbered on from there).
        var stanzasBefore = 0
        /// The lines before it (a log's lines are numbered on from there).
        var linesBefore = 0
        /// The lines up to which what is found was written already (a log read
        /// again from its start after its parts).
        var silentThrough = 0
        /// Whether the input's warnings were said (by the reader of its start).
        var warned = false
        /// Whether the reading starts at the file's first byte: compression
        /// and an envelope are looked for only there.
        var isWholeFile = true
    }

    /// Where this search starts reading: at the input's start, or where a part starts.
    var start: Start {
        guard let part else { return Start() }
        // (The parts of an enveloped log warn at its end, as one reader does.)
        return Start(stanzasBefore: part.stanzasBefore, linesBefore: part.log != nil ? part.line - 1 : 0,
                     silentThrough: part.silentThrough,
                     warned: part.enveloped == nil && (part.offset > 0 || part.silentThrough > 0),
                     isWholeFile: part.offset == 0 && part.bytes == nil && part.continuing == nil)
    }
}

/// A part of a file read on its own: from `offset`, either `bytes` (which end
/// at a stanza boundary inside the file) or everything to the file's end.
struct PartOfInput {
    /// The file, open (it is read with pread, so that parts share it).
    var fileDescriptor: Int32
    /// Where the part starts in the file.
    var offset: Int
    /// The part's bytes; `nil`: from `offset` to the end of the file.
    var bytes: [UInt8]?
    /// The stream's start tag, which a reader taking up the stream at `offset`
    /// is given; `nil` for the part that starts the file (read from its start).
    var continuing: [UInt8]?
    /// The stream's start tag the part must end inside.
    var header: [UInt8]
    /// The line where the part starts (at its first column).
    var line: Int
    /// How many stanzas come before the part.
    var stanzasBefore: Int
    /// How many stanzas start in `bytes`, by the scanner's count.
    var stanzas: Int?
    /// A part of a top-level sequence of stanzas (no stream): one that does not
    /// start the file is read by a reader taking up the sequence there
    /// (``StanzaReader/init(continuingSequenceAt:defaultNamespace:recovery:handler:)``).
    var sequence = false
    /// For a part of a log: its format. A part that does not start the log is
    /// read by a log reader started there (``LogReader/startsMidLog``).
    var log: LogFormat?
    /// For a part of a log that does not start it: the state its reader starts in,
    /// as the producer guessed it (``LogCutScanner``).
    var logStart: LogPartStart?
    /// Which part of its input this is (0 for the first), in the order they are checked (``Stitcher``).
    var index = 0
    /// For a part of a log: whether `bytes` run to the end of the file.
    var endsInput = false
    /// For a log read again from its start (its parts could not be read on their
    /// own): what the reader finds while reading the lines up to this one was
    /// written by the parts before, and is not written again.
    var silentThrough = 0
    /// For a part of a log taken out of its envelope (``UnwrappedLog``): the
    /// input's lines of its text, and the envelope's facts. Its `bytes` and
    /// `offset` are the log's text, not the input's.
    var enveloped: EnvelopedLines?

    /// `file` read again from its start by one reader, which writes what it
    /// finds from `line` on (the parts before wrote the rest).
    static func rereading(_ file: SplitFile, from line: Int) -> PartOfInput {
        PartOfInput(fileDescriptor: file.fileDescriptor, offset: 0, bytes: nil, continuing: nil, header: [], line: 1,
                    stanzasBefore: 0, stanzas: nil, silentThrough: line - 1)
    }

    /// Readies the reader of a part of a log: one that does not start the log
    /// notes what it may need of the lines before, and starts in the state the
    /// producer guessed; every one notes what depends on the stanzas logged before.
    func prepare(_ reader: LogReader) {
        guard log != nil else { return }
        reader.startsMidLog = offset > 0
        reader.recordsCuts = true
        if let logStart, offset > 0 { reader.resume(from: logStart) }
    }

    /// The part's bytes are read: a reader of a part that ends inside the log
    /// lets go what it holds for later lines (``LogReader/settleAtCut()``).
    func end(_ reader: LogReader) {
        if !endsInput { reader.settleAtCut() }
    }

    /// Reads the file from `offset` to its end, handing each chunk to `body`
    /// until it returns `false`; returns `errno` if reading failed.
    func readToEnd(_ body: (UnsafeRawBufferPointer) -> Bool) -> Int32? {
        let size = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        var position = offset
        while true {
            let count = pread(fileDescriptor, buffer.baseAddress, size, off_t(position))
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
