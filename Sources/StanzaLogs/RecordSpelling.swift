/// How a log format writes a stanza's bytes into its records, as far as a
/// search that skips the records lacking what a query needs must know
/// (stanzaq(1), "Skipping what cannot match"; ``LogNeedles``): the byte runs a
/// record holds where its stanza holds a needle, and the places where the
/// format may hide a needle from a byte search — a stanza's bytes cut between
/// two records or two lines, bytes written as numbers — which are checked, and
/// read if they may hold one.
public struct RecordSpelling: Sendable {
    /// The ways the format may write `bytes` of a stanza (`[]`: never as a
    /// run a search finds, only at places ``mustRead`` checks); `nil` if it may
    /// write them in a way that neither finds, so that no record may be skipped.
    let spellings: @Sendable (_ bytes: [UInt8]) -> [[UInt8]]?
    /// Byte runs that mark places a needle may be hidden at (matched with case),
    /// each at the end of a line (ending with its line feed).
    let marks: [[UInt8]]
    /// Makes the format's walk over its records to the places to read, where
    /// a byte search for marks would stop too often to find them (tshark's
    /// chunks: every line's end); `nil`: the marks find them.
    let walk: (@Sendable () -> any RecordWalk)?
    /// Whether the place marked by the mark that `bytes` ends with may hide one
    /// of `needles`: it is then read. `bytes` holds what is before the mark as
    /// far as the search still holds it, from the start of a line (at least the
    /// mark's line); where that is too little to tell, it is read.
    let mustRead: @Sendable (_ bytes: UnsafeBufferPointer<UInt8>, _ needles: LogNeedles) -> Bool
    /// Whether a needle found at the end of `line` (its line up to the needle)
    /// may be in a stanza's bytes, as the format writes them (not in a message
    /// of its own: ejabberd's debugging terms); `nil`: wherever it is found.
    let mayBeStanzaBytes: (@Sendable (_ line: UnsafeBufferPointer<UInt8>) -> Bool)?
    /// Byte runs of lines of the format's own that change what its parser
    /// carries from part to part (tshark's `Filter:`, the session of the
    /// chunks after it): searched for as stream headers are, and noted where
    /// no window holds them (``LogCutScanner/skipped(_:)``), not read.
    let noted: [[UInt8]]

    init(spellings: @escaping @Sendable ([UInt8]) -> [[UInt8]]?, marks: [[UInt8]],
         mustRead: @escaping @Sendable (UnsafeBufferPointer<UInt8>, LogNeedles) -> Bool,
         mayBeStanzaBytes: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)? = nil, noted: [[UInt8]] = [],
         walk: (@Sendable () -> any RecordWalk)? = nil) {
        self.spellings = spellings
        self.marks = marks
        self.walk = walk
        self.mustRead = mustRead
        self.mayBeStanzaBytes = mayBeStanzaBytes
        self.noted = noted
    }

    /// A format that writes a stanza's bytes as they are, save for what it puts
    /// at the start of a line (its prefix, an indent), and records of whole
    /// stanzas: a name, or a value without white space, is then in the log as
    /// it is in the stanza.
    static let asWritten = RecordSpelling(spellings: { [$0] }, marks: [], mustRead: { _, _ in true })
}

/// A walk over a log's records that finds the places a search that skips
/// records must read whatever the needles (``RecordSpelling/walk``): line
/// feeds, each ending a line to read. It is handed the log's bytes in order,
/// as far as they are read, and keeps what it needs to go on from where it
/// stopped.
public protocol RecordWalk: AnyObject {
    /// Walks on over `bytes`, the log's bytes from `position` (where the walk
    /// stopped last, 0 at first) on, as far as they are read (`atEnd`: to the
    /// log's end); tells `mark` the ranges every line feed of which ends a line
    /// to read, in order; returns where it stopped: every place before it was
    /// told. Where it needs more bytes to go on, it stops, maybe where it was.
    func walk(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, atEnd: Bool, mark: (Range<Int>) -> Void) -> Int
}

extension LogFormat {
    /// A new walk over the records of a log of the format (``RecordSpelling/walk``), if it has one.
    public func makeRecordWalk() -> (any RecordWalk)? {
        recordSpelling?.walk?()
    }
}
