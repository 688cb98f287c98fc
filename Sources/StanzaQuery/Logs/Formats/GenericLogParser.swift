/// Lines of any other format: the data of a line runs from its first `<` that
/// can start a tag to its last `>`, and a line without one continues a stanza
/// left open. One stream, no direction.
struct GenericLogParser: LogLineParser {
    private static let header: RecordHeader = {
        var header = RecordHeader()
        header.separatedByLineBreaks = true
        return header
    }()

    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        var start = 0
        while let open = line.firstIndex(of: 0x3C, from: start), open < end {
            if open + 1 < end, isASCIILetter(line[open + 1]) || line[open + 1] == 0x5F || line[open + 1] == 0x3F {
                // Up to the last `>`, or to the end when the line ends inside a tag.
                var close = end
                while close > open, line[close - 1] != 0x3E && line[close - 1] != 0x3C { close -= 1 }
                if close == open || line[close - 1] == 0x3C { close = end }
                // Text after the last tag belongs to the stanza when it is left open:
                // the reader takes the whole line as more of it.
                return ParsedLine(kind: .maybeMoreElseRecord(Self.header, open..<close), payload: 0..<end)
            }
            start = open + 1
        }
        return ParsedLine(kind: .maybeMore, payload: 0..<end)
    }
}
