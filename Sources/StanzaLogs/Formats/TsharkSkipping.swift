/// How tshark's follow output writes a stanza's bytes, for a search that
/// skips records (``TsharkFollowParser/recordSpelling``).
///
/// ui/cli/tap-follow.c writes each chunk of a TCP stream (one side's segment
/// data) as its length on a line of its own (after a tab for node 1), then its
/// bytes with `\r` and `\n` as they are and every other byte that is not
/// printable ASCII (a tab, a byte past ASCII) as `.`, then a line feed. So a
/// needle is in the output as the bytes that a full read reads too, with the
/// same dots; but a chunk may end anywhere in a stanza, even in a needle, whose
/// rest is in the side's next chunk, maybe chunks later; and a chunk's end is
/// found only by counting from its length, which no byte search does.
///
/// A chunk's end is always a line's end, so lines are checked, not chunks: a
/// line of whole stanzas (its tags close what they open and it ends after a
/// tag's end, or it is blank) leaves the streams as it found them, whichever
/// chunk it is in. Every other line is read (the format's mark is the line
/// feed, so each is checked): a window around it is kept only if every stanza
/// open in it ends in it, so that a stanza, and a needle, cut between chunks
/// is read whole, and the records skipped are whole stanzas. (A multi-line
/// stanza is read though its chunk be whole: the cost of not counting.) A chunk's
/// length and tshark's own lines (the separator, `Follow:`, `Filter:`,
/// `Node`) are no stanza's; a line of data that looks like one of them is
/// either in a stanza, whose other lines are read around it, or text between
/// stanzas, which no stream without damage has. The `Filter:` lines, which
/// give the chunks after them their session, are noted where skipped
/// (``RecordSpelling/noted``), as stream headers are.
extension TsharkFollowParser {
    /// `bytes` as tshark writes them: printable ASCII, `\r` and `\n` as they
    /// are, any other byte as `.`.
    static func spellings(_ bytes: [UInt8]) -> [[UInt8]] {
        [bytes.map { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D ? $0 : 0x2E }]
    }

    /// Whether the line that `bytes` ends with (with its line feed) is to be
    /// read (``RecordSpelling/mustRead``): unless it is a chunk's length, or
    /// leaves the streams as it found them.
    static func mustRead(_ bytes: UnsafeBufferPointer<UInt8>, _ needles: LogNeedles) -> Bool {
        let end = bytes.count - 1
        let start = bytes.lastIndex(of: 0x0A, before: end).map { $0 + 1 } ?? 0
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if chunkLength(line) != nil || isOwnLine(line) { return false }
        // (ejabberd's check of a record's data: the same question of other bytes.)
        return !EjabberdLogParser.isWholeStanzas(line, escaped: false)
    }

    /// Whether `line` is one of the lines tshark writes before and after a
    /// stream's chunks.
    static func isOwnLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("===") || line.has("Follow: ") || line.has("Filter: ") || line.has("Node 0: ") || line.has("Node 1: ")
    }
}
