#if canImport(StanzaXML)
import StanzaXML
#endif

extension LogFormat {
    /// How many of a log's first lines ``misfit(firstBytes:)`` looks at: as many
    /// as detection looks at after a line that suggests a format.
    public static let fitLines = FormatDetector.suggestionLines

    /// The format detection would read a log as, when this format (named with
    /// `--log=NAME`) reads none of its first lines as a record and detection
    /// picks another format that reads at least one (stanzaq(1), LOGS): the
    /// format named was most likely a mistake. `nil` when this format fits, or
    /// when the first lines tell no other format either (a long preamble, a
    /// `generic` log).
    ///
    /// `firstBytes`: the start of the log, of which the first ``fitLines`` whole
    /// lines (or all of them, if fewer) are looked at.
    public func misfit(firstBytes: UnsafeRawBufferPointer) -> LogFormat? {
        guard self != .generic else { return nil }
        let lines = Self.firstLines(of: firstBytes)
        guard !lines.isEmpty, Self.records(in: lines, by: self) == 0 else { return nil }
        var detector = FormatDetector()
        var detected: LogFormat?
        for line in lines where detected == nil {
            detected = line.withUnsafeBufferPointer { raw in withTerminalEscapesRemoved(raw) { detector.decide(after: $0) } }
        }
        let other = detected ?? detector.atEnd
        guard other != self, other != .generic, Self.records(in: lines, by: other) > 0 else { return nil }
        return other
    }

    /// The first ``fitLines`` lines of `bytes` that end in a line feed, or all
    /// of `bytes` as one line if none does.
    private static func firstLines(of bytes: UnsafeRawBufferPointer) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            var end = index
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            lines.append(Array(bytes[start..<end]))
            start = index + 1
            if lines.count == fitLines { break }
        }
        if lines.isEmpty && !bytes.isEmpty { lines.append(Array(bytes)) }
        return lines
    }

    /// How many of `lines` a parser of `format` reads as records.
    private static func records(in lines: [[UInt8]], by format: LogFormat) -> Int {
        let parser = format.makeParser()
        return lines.reduce(0) { count, line in
            let isRecord = line.withUnsafeBufferPointer { raw in
                withTerminalEscapesRemoved(raw) { [.record, .maybeMoreElseRecord].contains(parser.parse($0).kind) }
            }
            return count + (isRecord ? 1 : 0)
        }
    }
}
