#if canImport(StanzaQuery)
import StanzaQuery
#endif

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
    /// read by a log reader started there, its past unknown (``searched(_:)``).
    var log: LogFormat?
    /// For a part of a log that does not start it: the state its reader starts in,
    /// as the producer guessed it (``LogCutScanner``).
    var logStart: LogHandover?
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

    /// The search of this part of the input at `path`: where its reading
    /// starts, and the state its reader starts in. A part of a log that does
    /// not start it is read by a log reader started from a checkpoint whose
    /// past is unknown, but for the state the producer guessed (``logStart``);
    /// every part of a log keeps a ledger, for the ``Stitcher``.
    func searched(_ path: String) -> SearchedInput {
        var input = SearchedInput(path: path)
        input.piece = self
        var start = ReadingStart(file: fileDescriptor, offset: offset, bytes: bytes, endsInput: bytes == nil || endsInput,
                                 enveloped: enveloped, logFormat: log, keepsLedger: log != nil, stanzasBefore: stanzasBefore,
                                 linesBefore: log != nil ? line - 1 : 0, silentThrough: silentThrough,
                                 // (The parts of an enveloped log warn at its end, as one reader does.)
                                 warned: enveloped == nil && (offset > 0 || silentThrough > 0),
                                 isWholeFile: offset == 0 && bytes == nil && continuing == nil)
        if let continuing {
            start.reader = .stream(header: continuing, line: line)
        } else if sequence && offset != 0 {
            start.reader = .sequence(line: line)
        } else if let log, offset > 0 {
            start.reader = .log(LogCheckpoint(unknownPastAt: line, format: log, handover: logStart ?? LogHandover()))
        }
        input.start = start
        return input
    }
}
