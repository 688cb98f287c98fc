import Foundation

/// Tests strings for equality with a fixed string, ignoring case, the way
/// Monal's case-insensitive regular expressions do.
///
/// ASCII against ASCII is compared directly (the common case, and cheap);
/// anything else goes through an anchored ICU expression, so that the answers
/// are ICU's (the Kelvin sign matches "k", for example). That expression is
/// compiled on first need, once.
final class CaselessMatcher {
    let value: String
    private let asciiLowercased: [UInt8]?
    private var regex: NSRegularExpression?

    init(_ value: String) {
        self.value = value
        asciiLowercased = value.utf8.allSatisfy { $0 < 0x80 } ? value.utf8.map(asciiLower) : nil
    }

    func matches(_ candidate: String) -> Bool {
        if let expected = asciiLowercased {
            var ascii = true
            var index = 0
            for byte in candidate.utf8 {
                if byte >= 0x80 { ascii = false; break }
                if index >= expected.count || asciiLower(byte) != expected[index] { return false }
                index += 1
            }
            if ascii { return index == expected.count }
        }
        if regex == nil {
            let pattern = "\\A" + NSRegularExpression.escapedPattern(for: value) + "\\z"
            regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        }
        return regex.map { regexMatches($0, candidate) } ?? (candidate == value)
    }
}

@inline(__always)
func asciiLower(_ byte: UInt8) -> UInt8 {
    (byte >= 65 && byte <= 90) ? byte + 32 : byte
}

/// Whether `regex` matches somewhere in `string`. For the anchored literal
/// patterns of ``CaselessMatcher`` only: they cannot backtrack, so they need
/// no limits (see ``budgetedRegexMatch(_:_:limits:)`` for `~` filters).
func regexMatches(_ regex: NSRegularExpression, _ string: String) -> Bool {
    regex.firstMatch(in: string, options: [], range: NSRange(location: 0, length: string.utf16.count)) != nil
}
