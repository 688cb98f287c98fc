import CByteSearch

/// tshark's follow output walked from chunk length to chunk length
/// (``RecordWalk``, TsharkSkipping.swift): the lines to read are the last line
/// of each chunk that is not whole stanzas, and every line whose chunk cannot
/// be told.
///
/// A chunk's length tells where its data ends, so the walk goes from length
/// to length, over tshark's own lines and empty lines between streams, and
/// looks at a chunk's data only to tell whether it is whole stanzas (and holds
/// no tab). Where a line is none of these where a length is due, the walk is
/// lost: every line is read until a line that starts with a tab is a length
/// (of node 1: tshark writes a tab of data as `.`), where it goes on. So it
/// is lost before the first length of node 1 too. (What a check of each line
/// from the last length of node 1 before it reads, and more where the output
/// is damaged: data holding a tab, a chunk that ends inside a line.)
final class TsharkChunkWalk: RecordWalk {
    /// Whether every line is read until a length of node 1; else a length,
    /// or an own or empty line, is due where the walk stopped.
    private var lost = true
    /// A chunk held whole for its test; a longer one is read whatever it holds.
    static let longestChunk = 1 << 24

    func walk(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, atEnd: Bool, mark: (Range<Int>) -> Void) -> Int {
        guard let base = bytes.baseAddress else { return position }
        let count = bytes.count
        var at = 0
        while at < count {
            if lost {
                let found = resynchronise(bytes, from: at, atEnd: atEnd)
                if found.end > at { mark((position + at)..<(position + found.end)) }
                guard found.length else { return position + found.end }
                at = found.end
                lost = false
            }
            // The line where a length, or a line of tshark's own, is due.
            let lineEnd = stanzaq_find_byte(base, at, count, 0x0A)
            guard lineEnd < count else { return position + (atEnd ? count : at) }
            let line = UnsafeBufferPointer(rebasing: bytes[at..<lineEnd])
            let tab = stanzaq_find_byte(base, at + 1, lineEnd, 0x09)
            if let (length, _) = TsharkFollowParser.chunkLength(line) {
                let dataStart = lineEnd + 1
                guard length <= Self.longestChunk else { lost = true; at = dataStart; continue }
                let dataEnd = dataStart + length
                guard dataEnd < count else {
                    // Not all held, or past the log's end: none of its lines ends it.
                    guard atEnd else { return position + at }
                    if stanzaq_find_byte(base, dataStart, count, 0x09) < count { lost = true; at = dataStart; continue }
                    return position + count
                }
                // A tab in the data (not tshark's writing), or a chunk that ends
                // inside a line: read from there.
                if stanzaq_find_byte(base, dataStart, dataEnd + 1, 0x09) <= dataEnd {
                    lost = true
                    at = dataStart
                    continue
                }
                if base[dataEnd] != 0x0A {
                    lost = true
                    at = stanzaq_find_last_byte(base, dataEnd, 0x0A) + 1
                    continue
                }
                if !EjabberdLogParser.isWholeStanzas(UnsafeBufferPointer(rebasing: bytes[dataStart..<dataEnd]), escaped: false) {
                    mark((position + dataEnd)..<(position + dataEnd + 1))
                }
                at = dataEnd + 1
            } else if line.first != 0x09 && (line.isEmpty || TsharkFollowParser.isOwnLine(line)) {
                // (A tab later in it: the lines after it are read.)
                if tab < lineEnd { lost = true }
                at = lineEnd + 1
            } else {
                lost = true
            }
        }
        return position + at
    }

    /// Where the lines from `start` on (a line's start) are read up to: the
    /// first line that starts with a tab and is a length (`length`), or the
    /// end of the last line held.
    private func resynchronise(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, atEnd: Bool) -> (end: Int, length: Bool) {
        let base = bytes.baseAddress!, count = bytes.count
        var from = start
        while true {
            let tab = stanzaq_find_byte(base, from, count, 0x09)
            guard tab < count else { break }
            let lineEnd = stanzaq_find_byte(base, tab, count, 0x0A)
            if tab == start || base[tab - 1] == 0x0A {
                guard lineEnd < count else {
                    // Its line not all held: up to it (at the log's end, it ends no line to read).
                    return (atEnd ? count : tab, false)
                }
                if TsharkFollowParser.chunkLength(UnsafeBufferPointer(rebasing: bytes[tab..<lineEnd])) != nil { return (tab, true) }
            }
            guard lineEnd < count else { break }
            from = lineEnd + 1
        }
        if atEnd { return (count, false) }
        // To the end of the last line held: a tab may start the next.
        return (max(start, stanzaq_find_last_byte(base, count, 0x0A) + 1), false)
    }
}
