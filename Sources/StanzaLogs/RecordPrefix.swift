#if canImport(StanzaXML)
import StanzaXML
#endif

/// What starts every record of a log (stanzaq(1), LOGS, "Records"): learned from
/// the log's first record, so that a line without it — a log line pasted into a
/// message, `DEBUG    SEND: <message …>` in a log whose records start with a time
/// stamp — never starts a record.
///
/// The prefix is known by its shape: the time stamp at the start of the line (or
/// else what comes before the first letter or `<`), with each run of digits,
/// letters or blanks as one mark, so that the records of one log all have it
/// whatever their times, levels and widths.
public struct RecordPrefix: Equatable, Sendable {
    private let shape: [UInt8]

    /// The prefix of the record that starts `line`.
    init(of line: UnsafeBufferPointer<UInt8>) {
        var start = 0
        let end: Int
        if let time = leadingTimestamp(in: line) {
            end = time.upperBound
        } else if line.count > 1, line[0] == 0x60, let time = leadingTimestamp(in: line, from: 1) {
            // A paste in Markdown's inline code: a backtick before its first line's time stamp.
            start = 1
            end = time.upperBound
        } else {
            var index = 0
            while index < line.count, index < 48, !isASCIILetter(line[index]), line[index] != 0x3C { index += 1 }
            end = index
        }
        var shape: [UInt8] = []
        for byte in UnsafeBufferPointer(rebasing: line[start..<end]) {
            let mark: UInt8 = isASCIIDigit(byte) ? 0x39 : isASCIILetter(byte) ? 0x61 : isXMLSpace(byte) ? 0x20 : byte
            if (mark == 0x39 || mark == 0x61 || mark == 0x20), shape.last == mark { continue }
            shape.append(mark)
        }
        self.shape = shape
        hasTime = shape.contains(0x39)
    }

    /// Whether the prefix holds a time stamp: records then tell themselves from
    /// text by it alone. Without one, a record-looking line inside an open stanza
    /// may be text of that stanza (``StanzaCloseScan``).
    let hasTime: Bool

    /// Whether `line` starts with this prefix: its bytes walked along the shape,
    /// mark by mark, without making the line's own (asked of every record line of
    /// a log: making it was a noticeable part of reading a log).
    @inline(__always)
    private static func fits(_ byte: UInt8, _ mark: UInt8) -> Bool {
        mark == 0x39 ? isASCIIDigit(byte) : mark == 0x61 ? isASCIILetter(byte) : isXMLSpace(byte)
    }

    public func starts(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if walks(line, from: 0) { return true }
        // A paste in Markdown's inline code: a backtick before its first line.
        return line.count > 1 && line[0] == 0x60 && shape.first != 0x60 && walks(line, from: 1)
    }

    @inline(__always)
    private func walks(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var index = start
        let walked = shape.withUnsafeBufferPointer { marks -> Bool in
            for mark in marks {
                guard index < line.count else { return false }
                if mark == 0x39 || mark == 0x61 || mark == 0x20 {
                    guard Self.fits(line[index], mark) else { return false }
                    index += 1
                    while index < line.count, Self.fits(line[index], mark) { index += 1 }
                } else {
                    guard line[index] == mark else { return false }
                    index += 1
                }
            }
            return true
        }
        guard walked else { return false }
        // Without a time stamp the prefix is all that comes before the first letter or `<`.
        return hasTime || index >= line.count || index >= 48 || isASCIILetter(line[index]) || line[index] == 0x3C
    }

    /// The prefix to learn instead of the first record's, when that record's
    /// line carried words of its own before the log's prefix (a reporter's
    /// `Here is what I see: 10:41:07.1 SENT (0): …`): the second record line's
    /// prefix, if the first prefix has no time stamp, the second line's does
    /// and does not fit the first, and the first line holds the second's prefix
    /// after a blank. `nil`: the first record's prefix stands.
    static func replacing(_ first: RecordPrefix, firstLine: UnsafeBufferPointer<UInt8>,
                          by line: UnsafeBufferPointer<UInt8>) -> RecordPrefix? {
        guard !first.hasTime, !first.starts(line) else { return nil }
        let second = RecordPrefix(of: line)
        guard second.hasTime else { return nil }
        for index in firstLine.indices.dropFirst() where isXMLSpace(firstLine[index - 1]) && !isXMLSpace(firstLine[index]) {
            let rest = UnsafeBufferPointer(rebasing: firstLine[index...])
            if leadingTimestamp(in: rest) != nil, second.starts(rest) { return second }
        }
        return nil
    }
}
