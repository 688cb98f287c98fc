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
/// A chunk's end is always a line's end, and every line is checked (the
/// format's mark is the line feed): which chunk a line is in is counted from
/// a length of node 1 before it (the only lines that start with a tab), and
/// the last line of a chunk is read unless the chunk is whole stanzas (its
/// tags close what they open and it ends after a tag's end, or it is blank);
/// its other lines, the chunks' lengths and tshark's own lines (the
/// separator, `Follow:`, `Filter:`, `Node`) are skipped. So the records
/// skipped are whole stanzas, and leave the streams as they found them; a
/// window around a chunk that is not is kept only if every stanza open in it
/// ends in it, so that a stanza, and a needle, cut between chunks is read
/// whole. The `Filter:` lines, which give the chunks after them their
/// session, are noted where skipped (``RecordSpelling/noted``), as stream
/// headers are.
extension TsharkFollowParser {
    /// `bytes` as tshark writes them: printable ASCII, `\r` and `\n` as they
    /// are, any other byte as `.`.
    static func spellings(_ bytes: [UInt8]) -> [[UInt8]] {
        [bytes.map { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D ? $0 : 0x2E }]
    }

    /// Whether the line that `bytes` ends with (with its line feed) is to be
    /// read (``RecordSpelling/mustRead``): the last line of a chunk that is not
    /// whole stanzas. Which chunk a line is in is counted from the last
    /// length of node 1 held (a tab starts no line of data: tshark writes a
    /// tab as `.`); where none is held near enough, or the count goes wrong,
    /// the line is read.
    static func mustRead(_ bytes: UnsafeBufferPointer<UInt8>, _ needles: LogNeedles) -> Bool {
        let end = bytes.count - 1
        let lineStart = bytes.lastIndex(of: 0x0A, before: end).map { $0 + 1 } ?? 0
        let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<end])
        if line.first == 0x09 { return chunkLength(line) == nil }
        guard var position = bytes.lastIndex(of: 0x09, before: lineStart),
              position == 0 || bytes[position - 1] == 0x0A else { return true }
        // From one length to the next, over tshark's lines between two streams
        // followed; a few hundred at most (else each line of a long run of node
        // 0's chunks would count them all again).
        var steps = 0
        while position < lineStart {
            steps += 1
            if steps > 256 { return true }
            guard let lineEnd = bytes.firstIndex(of: 0x0A, from: position) else { return true }
            let at = UnsafeBufferPointer(rebasing: bytes[position..<lineEnd])
            guard let (length, _) = chunkLength(at) else {
                guard at.isEmpty || isOwnLine(at) else { return true }
                position = lineEnd + 1
                continue
            }
            let dataStart = lineEnd + 1, dataEnd = dataStart + length
            // The line is in this chunk's data: its last line is checked with all of it.
            if dataEnd > end { return false }
            if dataEnd == end {
                return !EjabberdLogParser.isWholeStanzas(UnsafeBufferPointer(rebasing: bytes[dataStart..<dataEnd]), escaped: false)
            }
            position = dataEnd + 1
        }
        // Where a chunk's length, or a line of tshark's own, is due.
        return position != lineStart || !(chunkLength(line) != nil || line.isEmpty || isOwnLine(line))
    }

    /// Whether `line` is one of the lines tshark writes before and after a
    /// stream's chunks.
    static func isOwnLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("===") || line.has("Follow: ") || line.has("Filter: ") || line.has("Node 0: ") || line.has("Node 1: ")
    }
}
