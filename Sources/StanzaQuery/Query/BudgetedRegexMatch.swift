import Foundation
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// What matching a `~` filter's expression against a value gave.
enum RegexOutcome: Equatable {
    case match
    case noMatch
    /// Matching was stopped (or ICU gave up); the reason, for a message:
    /// "took longer than 10 s".
    case abandoned(String)
}

/// Whether `regex` matches somewhere in `string`, within the regular
/// expression limits of `limits`.
///
/// NSRegularExpression exposes neither ICU's time limit nor its errors, but
/// with `.reportProgress` `enumerateMatches` calls its block at every
/// position where it starts an attempt and, within an attempt, every 10,000
/// saved backtracking states (well under a millisecond), and the block can
/// stop it there; with `.reportCompletion` it says whether ICU failed (its
/// backtracking stack overflowed). Counting the calls bounds the
/// backtracking: no more than one per position (code point) comes from
/// starting attempts — though each of those may hide up to 10,000 steps, so
/// a long value allows more (stanzaq(1), "Resource limits"). That costs some
/// 40 ns per position of the value, which is why it is kept to `~` filters.
///
/// The two kinds of calls cannot be told apart, so the steps cannot be
/// counted exactly: Foundation hands both ICU callbacks (the match callback,
/// every 10,000 steps, and the find-progress callback, every start position)
/// to the block with the same arguments, and ICU's own limit on the steps of
/// a whole search (`uregex_setTimeLimit`) is not exposed. What bounds a long
/// value's extra steps in the end is ``EvaluationLimits/abandonedMatchesPerFilter``:
/// the cost of a run, not of one match.
func budgetedRegexMatch(_ regex: NSRegularExpression, _ string: String, limits: EvaluationLimits) -> RegexOutcome {
    let range = NSRange(location: 0, length: string.utf16.count)
    let clock = MatchClock(limits)
    let ticks = limits.regularExpressionSteps / 10_000
    let (outcome, calls) = enumerate(regex, string, range, options: [], clock: clock, limits: limits,
                                     callLimit: range.length + 2 + ticks)
    guard outcome == .noMatch, calls > ticks else { return outcome }
    // Many calls and no match: many positions tried (a long value), or one
    // long attempt that ICU may have given up silently — an anchored
    // expression (`^…`) makes a single attempt, at the start. Try that one
    // attempt alone and count its calls: they are all backtracking.
    return enumerate(regex, string, range, options: .anchored, clock: clock, limits: limits, callLimit: ticks + 2).outcome
}

/// The time limit of one match. The clock is first read at the first check,
/// not at the start: most matches end before it, and a short match should
/// not pay for reading the clock (the processor-time clock is a system
/// call). What comes before the first check is at most 64 calls' worth.
private final class MatchClock {
    let limits: EvaluationLimits
    var deadline: Double?

    init(_ limits: EvaluationLimits) { self.limits = limits }

    /// Whether the time is up.
    func expired() -> Bool {
        let now = limits.clock()
        guard let deadline else {
            deadline = now + limits.regularExpressionSeconds
            return false
        }
        return now > deadline
    }
}

private func enumerate(_ regex: NSRegularExpression, _ string: String, _ range: NSRange,
                       options: NSRegularExpression.MatchingOptions, clock: MatchClock,
                       limits: EvaluationLimits, callLimit: Int) -> (outcome: RegexOutcome, calls: Int) {
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
                outcome = .abandoned("backtracked more than \(limits.regularExpressionSteps) times")
                stop.pointee = true
            } else if calls & 63 == 0 && clock.expired() {
                // (The clock is read every 64 calls: every call would double the cost of short matches.)
                outcome = .abandoned("took longer than \(secondsText(limits.regularExpressionSeconds)) s")
                stop.pointee = true
            }
        }
    }
    return (outcome, calls)
}

/// `10`, `0.05`: a number of seconds for a message.
private func secondsText(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
}
