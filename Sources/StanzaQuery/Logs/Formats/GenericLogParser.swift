/// Lines of any other format: the data of a line runs from its first `<` that
/// can start a tag to its last `>`, and a line without one continues a stanza
/// left open. One stream, no direction.
struct GenericLogParser: LogLineParser {
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        var start = 0
        while let open = line.firstIndex(of: 0x3C, from: start), open < end {
            if open + 1 < end, isASCIILetter(line[open + 1]) || line[open + 1] == 0x5F || line[open + 1] == 0x3F || line[open + 1] == 0x2F {
                var close = end
                while close > open, line[close - 1] != 0x3E { close -= 1 }
                if close > open { return ParsedLine(kind: .record(RecordHeader()), payload: open..<close) }
                return ParsedLine(kind: .record(RecordHeader()), payload: open..<end)
            }
            start = open + 1
        }
        return ParsedLine(kind: .maybeMore, payload: 0..<end)
    }
}
