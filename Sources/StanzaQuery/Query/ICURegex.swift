import CICU

/// What matching a `~` filter's expression against a value gave.
enum RegexOutcome: Equatable {
    case match
    case noMatch
    /// Matching was stopped (or ICU failed); the reason, for a message:
    /// "took longer than 10 s".
    case abandoned(String)
}

/// A regular expression compiled by the system's ICU (`uregex`, the engine
/// NSRegularExpression wraps, called through its C API), with the options
/// Monal gives NSRegularExpression: none, or `.caseInsensitive`
/// (`UREGEX_CASE_INSENSITIVE`). Matching is done by a ``RegexMatcher``, one
/// per thread: this compiled form is only copied from (`uregex_clone`, which
/// ICU allows on several threads at once), never matched with.
final class ICURegex: @unchecked Sendable {
    /// The expression as written.
    let pattern: String
    let caseInsensitive: Bool
    private let compiled: OpaquePointer

    /// Compiles `pattern`; `nil` if ICU rejects it (where NSRegularExpression throws).
    init?(_ pattern: String, caseInsensitive: Bool) {
        let utf16 = Array(pattern.utf16)
        var error: Int32 = 0
        guard utf16.count < Int32.max,
              let compiled = stanzaq_regex_open(utf16, Int32(utf16.count), caseInsensitive ? 1 : 0, &error)
        else { return nil }
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.compiled = compiled
    }

    deinit { stanzaq_regex_close(compiled) }

    /// A matcher for the calling thread.
    func makeMatcher() -> RegexMatcher { RegexMatcher(self) }

    /// A copy to match with, calling `check` with `context` during matches.
    fileprivate func clone(stackLimit: Int32, check: stanzaq_regex_check, context: UnsafeRawPointer) -> OpaquePointer? {
        stanzaq_regex_clone(compiled, stackLimit, check, context)
    }

    /// `text` as an expression that matches it literally: each of `*?+[(){}^$|\./`
    /// gets a backslash, as NSRegularExpression's `escapedPattern(for:)` does.
    static func escapedPattern(for text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "*", "?", "+", "[", "(", ")", "{", "}", "^", "$", "|", "\\", ".", "/":
                result.unicodeScalars.append("\\")
            default:
                break
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}

/// Matches one ``ICURegex`` on one thread: its own copy of ICU's matcher, the
/// text buffer it hands ICU (reused), and the state ICU's callbacks read. Not
/// locked: one per thread, like the other caches of a compiled query
/// (``Query/copyForAnotherThread()``).
final class RegexMatcher {
    let regex: ICURegex
    private var matcher: OpaquePointer?
    private var text: [UInt16] = []
    private let progress = MatchProgress()

    fileprivate init(_ regex: ICURegex) { self.regex = regex }

    deinit { if let matcher { stanzaq_regex_close(matcher) } }

    /// A matcher of the same expression for another thread.
    func copyForAnotherThread() -> RegexMatcher { RegexMatcher(regex) }

    /// Whether the expression matches somewhere in `string`, with no limit.
    /// For expressions that cannot backtrack (the anchored literals of
    /// ``CaselessMatcher``, stanzaq's own patterns): a `~` filter's goes
    /// through ``match(_:limits:)``.
    func matches(_ string: String) -> Bool {
        match(string, limits: nil) == .match
    }

    /// Whether the expression matches somewhere in `string`, within the
    /// regular expression limits of `limits` (none if `nil`).
    ///
    /// The limits are ICU's own: ICU counts the states its backtracking
    /// matcher saves, over the whole search (every position it tries), and
    /// stops at `uregex_setTimeLimit`'s limit, in ticks of 10,000 of them
    /// (``EvaluationLimits/regularExpressionSteps``); it stops when its
    /// backtracking stack would pass 8 MB (`uregex_setStackLimit`); and it
    /// calls back at every tick and at every position it tries a match at,
    /// where the processor-time limit is checked
    /// (``EvaluationLimits/regularExpressionSeconds``): at every tick, and at
    /// every 64th position.
    func match(_ string: String, limits: EvaluationLimits?) -> RegexOutcome {
        guard let matcher = prepared() else { return .abandoned("could not be matched (ICU could not copy it)") }
        text.removeAll(keepingCapacity: true)
        text.append(contentsOf: string.utf16)
        guard text.count < Int32.max else { return .abandoned("could not be matched (the value is too long for ICU)") }
        let ticks: Int32
        if let limits {
            // One tick more than the steps fill: stopped after more than that many.
            ticks = Int32(clamping: max(0, limits.regularExpressionSteps) / RegexMatcher.stepsPerTick + 1)
        } else {
            ticks = 0
        }
        progress.start(limits)
        var error: Int32 = 0
        let found = text.withUnsafeBufferPointer { buffer in
            stanzaq_regex_find(matcher, buffer.baseAddress, Int32(buffer.count), ticks, &error)
        }
        progress.start(nil)
        switch found {
        case 1: return .match
        case 0: return .noMatch
        case Int32(STANZAQ_REGEX_TIME_OUT):
            return .abandoned("backtracked more than \(limits?.regularExpressionSteps ?? 0) times")
        case Int32(STANZAQ_REGEX_STOPPED):
            return .abandoned("took longer than \(secondsText(limits?.regularExpressionSeconds ?? 0)) s")
        case Int32(STANZAQ_REGEX_STACK_OVERFLOW):
            return .abandoned("ran out of backtracking memory")
        default:
            return .abandoned("failed in ICU (\(String(cString: stanzaq_icu_error_name(error))))")
        }
    }

    /// How many saved states ICU counts per tick of its time limit (its `TIMER_INITIAL_VALUE`).
    static let stepsPerTick = 10_000
    /// ICU's backtracking stack limit for one match, in bytes (ICU's default, stated).
    static let stackBytes: Int32 = 8_000_000

    /// This thread's copy of ICU's matcher, with its limits and callbacks set.
    private func prepared() -> OpaquePointer? {
        if let matcher { return matcher }
        let context = UnsafeRawPointer(Unmanaged.passUnretained(progress).toOpaque())
        guard let copy = regex.clone(stackLimit: RegexMatcher.stackBytes, check: checkCallback, context: context)
        else { return nil }
        matcher = copy
        return copy
    }
}

/// What ICU's callbacks see of the match under way: its processor-time limit.
/// The clock is first read at the first check, not at the start: most
/// matches end before it, and a short match should not pay for reading the
/// clock (the processor-time clock is a system call).
private final class MatchProgress {
    private var limits: EvaluationLimits?
    private var deadline: Double?
    private var positions = 0

    func start(_ limits: EvaluationLimits?) {
        self.limits = limits
        deadline = nil
        positions = 0
    }

    /// At every tick (10,000 steps): whether to go on.
    func tick() -> Bool { !expired() }

    /// At every position a match is tried at: whether to go on. (The clock is
    /// read every 64 positions: read at every one, it would cost as much as a short match.)
    func position() -> Bool {
        positions &+= 1
        return positions & 63 != 0 || !expired()
    }

    private func expired() -> Bool {
        guard let limits else { return false }
        let now = limits.clock()
        guard let deadline else {
            deadline = now + limits.regularExpressionSeconds
            return false
        }
        return now > deadline
    }
}

/// ICU's callbacks (through CICU): at every tick and every position, whether to go on.
private let checkCallback: stanzaq_regex_check = { context, kind in
    let progress = Unmanaged<MatchProgress>.fromOpaque(context!).takeUnretainedValue()
    return (kind == Int32(STANZAQ_REGEX_TICK) ? progress.tick() : progress.position()) ? 1 : 0
}

/// `10`, `0.05`: a number of seconds for a message.
private func secondsText(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
}
