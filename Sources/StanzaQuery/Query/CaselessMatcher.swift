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
/// no limits (see ``budgetedRegexMatch(_:_:)`` for `~` filters).
func regexMatches(_ regex: NSRegularExpression, _ string: String) -> Bool {
    regex.firstMatch(in: string, options: [], range: NSRange(location: 0, length: string.utf16.count)) != nil
}

/// The time one `~` filter may spend on one attribute value, in seconds,
/// before matching is abandoned and the stanza gets an ``EvaluationError``
/// (stanzaq(1), "Resource limits").
public let regularExpressionTimeLimit: Double = 1

/// The backtracking one `~` filter may do on one attribute value (ICU's
/// saved states) before matching is abandoned. ICU itself gives up on a
/// match attempt after 40 to 60 million of them and answers "no match"
/// without telling NSRegularExpression (so `^(a+)+c|^a+b` finds nothing in
/// 25 `a`s and a `b`); stopping earlier turns that silent wrong answer into
/// an error.
public let regularExpressionBacktrackingLimit = 20_000_000

/// The limits ``budgetedRegexMatch(_:_:)`` applies; tests and the fuzz
/// targets lower them to meet them quickly.
nonisolated(unsafe) var regularExpressionTimeBudget = regularExpressionTimeLimit
nonisolated(unsafe) var regularExpressionBacktrackingBudget = regularExpressionBacktrackingLimit

/// What matching a `~` filter's expression against a value gave.
enum RegexOutcome: Equatable {
    case match
    case noMatch
    /// Matching was stopped (or ICU gave up); the reason, for a message:
    /// "took longer than 1 s".
    case abandoned(String)
}

/// Whether `regex` matches somewhere in `string`, within the limits above.
///
/// NSRegularExpression exposes neither ICU's time limit nor its errors, but
/// with `.reportProgress` `enumerateMatches` calls its block at every
/// position where it starts an attempt and, within an attempt, every 10,000
/// saved backtracking states (well under a millisecond), and the block can
/// stop it there; with `.reportCompletion` it says whether ICU failed (its
/// backtracking stack overflowed). Counting the calls bounds the
/// backtracking: no more than one per position (code point) comes from
/// starting attempts. That costs some 40 ns per position of the value, which
/// is why it is kept to `~` filters.
func budgetedRegexMatch(_ regex: NSRegularExpression, _ string: String) -> RegexOutcome {
    let range = NSRange(location: 0, length: string.utf16.count)
    let deadline = monotonicSeconds() + regularExpressionTimeBudget
    let ticks = regularExpressionBacktrackingBudget / 10_000
    let (outcome, calls) = enumerate(regex, string, range, options: [], deadline: deadline,
                                     callLimit: range.length + 2 + ticks)
    guard outcome == .noMatch, calls > ticks else { return outcome }
    // Many calls and no match: many positions tried (a long value), or one
    // long attempt that ICU may have given up silently — an anchored
    // expression (`^…`) makes a single attempt, at the start. Try that one
    // attempt alone and count its calls: they are all backtracking.
    return enumerate(regex, string, range, options: .anchored, deadline: deadline, callLimit: ticks + 2).outcome
}

private func enumerate(_ regex: NSRegularExpression, _ string: String, _ range: NSRange,
                       options: NSRegularExpression.MatchingOptions, deadline: Double, callLimit: Int)
    -> (outcome: RegexOutcome, calls: Int) {
    var outcome = RegexOutcome.noMatch
    var calls = 0
    regex.enumerateMatches(in: string, options: options.union([.reportProgress, .reportCompletion]),
                           range: range) { result, flags, stop in
        if result != nil {
            outcome = .match
            stop.pointee = true
        } else if flags.contains(.completed) {
            if flags.contains(.internalError) { outcome = .abandoned("ran out of backtracking memory") }
        } else {
            calls += 1
            if calls > callLimit {
                outcome = .abandoned("backtracked more than \(regularExpressionBacktrackingBudget) times")
                stop.pointee = true
            } else if calls & 63 == 0 && monotonicSeconds() > deadline {
                // (The clock is read every 64 calls: every call would double the cost of short matches.)
                outcome = .abandoned("took longer than \(secondsText(regularExpressionTimeBudget)) s")
                stop.pointee = true
            }
        }
    }
    return (outcome, calls)
}

/// `1`, `0.05`: a number of seconds for a message.
private func secondsText(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
}

private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
