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
/// A chunk's end is always a line's end, and the lines are walked from length
/// to length (``TsharkChunkWalk``): the last line of a chunk is read unless
/// the chunk is whole stanzas (its tags close what they open and it ends after
/// a tag's end, or it is blank); its other lines, the chunks' lengths and
/// tshark's own lines (the separator, `Follow:`, `Filter:`, `Node`) are
/// skipped, and every line where the walk cannot tell its chunk is read. So
/// the records skipped are whole stanzas, and leave the streams as they found
/// them; a window around a chunk that is not is kept only if every stanza open
/// in it ends in it, so that a stanza, and a needle, cut between chunks is
/// read whole. The `Filter:` lines, which give the chunks after them their
/// session, are noted where skipped (``RecordSpelling/noted``), as stream
/// headers are.
extension TsharkFollowParser {
    /// `bytes` as tshark writes them: printable ASCII, `\r` and `\n` as they
    /// are, any other byte as `.`.
    static func spellings(_ bytes: [UInt8]) -> [[UInt8]] {
        [bytes.map { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D ? $0 : 0x2E }]
    }

    /// Whether `line` is one of the lines tshark writes before and after a
    /// stream's chunks.
    static func isOwnLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("===") || line.has("Follow: ") || line.has("Filter: ") || line.has("Node 0: ") || line.has("Node 1: ")
    }
}
