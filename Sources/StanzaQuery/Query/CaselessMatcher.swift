#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// Tests strings for equality with a fixed string, ignoring case, giving the
/// answers of Monal's filter: the case-insensitive ICU expression
/// `^value$` (value escaped). ICU's `$` also matches before one line
/// terminator that ends the input, so `result\n` (or `\r`, `\r\n`, VT, FF,
/// NEL, LS, PS) equals `result` too.
///
/// ASCII against ASCII is compared directly (the common case, and cheap);
/// anything else goes through that ICU expression, so that the answers are
/// ICU's (the Kelvin sign matches "k", for example). It is compiled on first
/// need, once.
final class CaselessMatcher {
    let value: String
    /// The value in ASCII lower case, when the direct comparison can answer:
    /// the value is ASCII and has no line terminator of its own.
    private let asciiLowercased: [UInt8]?
    private var regex: RegexMatcher?

    init(_ value: String) {
        self.value = value
        asciiLowercased = value.utf8.allSatisfy { $0 < 0x80 && !(0x0A...0x0D).contains($0) }
            ? value.utf8.map(asciiLower) : nil
    }

    func matches(_ candidate: String) -> Bool {
        if let expected = asciiLowercased, let answer = asciiMatch(expected, candidate) { return answer }
        if regex == nil {
            let pattern = "^" + ICURegex.escapedPattern(for: value) + "$"
            regex = ICURegex(pattern, caseInsensitive: true)?.makeMatcher()
        }
        return regex.map { $0.matches(candidate) } ?? (candidate == value)
    }

    /// The answer for an ASCII candidate; `nil` when it has other characters.
    private func asciiMatch(_ expected: [UInt8], _ candidate: String) -> Bool? {
        var index = 0
        var rest: [UInt8] = []
        for byte in candidate.utf8 {
            if byte >= 0x80 { return nil }
            if index < expected.count {
                if asciiLower(byte) != expected[index] { return false }
                index += 1
            } else {
                rest.append(byte)
                if rest.count > 2 { return false }
            }
        }
        guard index == expected.count else { return false }
        // Nothing more, or one line terminator (ASCII ones: LF, VT, FF, CR, CR LF).
        switch rest.count {
        case 0: return true
        case 1: return (0x0A...0x0D).contains(rest[0])
        default: return rest == [0x0D, 0x0A]
        }
    }
}

@inline(__always)
func asciiLower(_ byte: UInt8) -> UInt8 {
    (byte >= 65 && byte <= 90) ? byte + 32 : byte
}
