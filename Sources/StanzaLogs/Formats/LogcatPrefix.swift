#if canImport(StanzaXML)
import StanzaXML
#endif

/// The prefix Android's logcat writes before each line of a message, in its
/// `threadtime` (`05-01 12:00:00.123  1234  1250 D SMACK   : `), `time`
/// (`05-01 12:00:00.123 D/SMACK( 1234): `) and `brief` (`D/SMACK( 1234): `)
/// formats. A message with newlines gets the prefix on every line.
struct LogcatPrefix {
    var time: Range<Int>?
    var tag: Range<Int>
    /// Where the message starts.
    var message: Int

    init?(_ line: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let time = leadingTimestamp(in: line)
        if let time { index = time.upperBound }
        index = line.skippingBlanks(from: index)
        // threadtime: PID TID LEVEL TAG: message
        if time != nil, index < line.count, isASCIIDigit(line[index]) {
            while index < line.count, isASCIIDigit(line[index]) { index += 1 }
            index = line.skippingBlanks(from: index)
            while index < line.count, isASCIIDigit(line[index]) { index += 1 }
            index = line.skippingBlanks(from: index)
            guard index + 1 < line.count, Self.isLevel(line[index]), line[index + 1] == 0x20 else { return nil }
            let tagStart = line.skippingBlanks(from: index + 1)
            guard let colon = line.firstRange(of: ": ", from: tagStart) else { return nil }
            self.time = time
            self.tag = line.trimmed(tagStart..<colon.lowerBound)
            self.message = colon.upperBound
            return
        }
        // brief and time: LEVEL/TAG( PID): message, or LEVEL/TAG: message
        guard index + 2 < line.count, Self.isLevel(line[index]), line[index + 1] == 0x2F else { return nil }
        let tagStart = index + 2
        guard let colon = line.firstRange(of: ": ", from: tagStart) else { return nil }
        var tagEnd = colon.lowerBound
        if tagEnd > tagStart, line[tagEnd - 1] == 0x29, let paren = line.firstIndex(of: 0x28, from: tagStart), paren < tagEnd {
            tagEnd = paren
        }
        self.time = time
        self.tag = line.trimmed(tagStart..<tagEnd)
        self.message = colon.upperBound
    }

    private static func isLevel(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "V"), UInt8(ascii: "D"), UInt8(ascii: "I"), UInt8(ascii: "W"), UInt8(ascii: "E"), UInt8(ascii: "F"), UInt8(ascii: "A"):
            return true
        default:
            return false
        }
    }
}
