#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// The limits on the work one evaluation of a query on one element may do.
/// Evaluation that would pass one is abandoned with an ``EvaluationError`` —
/// the stanza gets an error instead of a result, never a guess — and the
/// next evaluation starts afresh.
///
/// The defaults are the limits stanzaq(1) documents ("Resource limits"). Pass
/// your own to ``Query/find(in:strict:limits:)`` and its siblings, to meet a
/// limit sooner (tests, fuzzers) or to allow more:
///
/// ```swift
/// let limits = EvaluationLimits(regularExpressionSteps: 1_000_000)
/// let ids = try Query("/<from~^([a-z]+\\.?)+@example\\.com$>@id").find(in: stanza, limits: limits)
/// ```
public struct EvaluationLimits: Sendable {
    /// How many elements a path may reach at one step, counting duplicates:
    /// a node reached twice through `..` counts twice, so each `*/..`
    /// multiplies what a path reaches by the number of children, and a short
    /// query could otherwise fill memory. Default 1,000,000. Paths that only
    /// descend reach each element once and are not counted, unless they have
    /// a `**` segment: every step of those counts (and `**`, which reaches
    /// every element below where it starts, meets the limit first).
    public var elementsReached: Int

    /// How many bytes the results of one evaluation may add up to, counting
    /// duplicates (each is a result, and printed): the UTF-8 bytes of each
    /// string, of each name and value of an `@@` map, the bytes of `|base64`
    /// data, 8 for a number, date or UUID, and for an element the bytes of
    /// the names, attribute values and text of all it contains. Default
    /// 100,000,000. With `..`, a result reached many times is made once and
    /// shared, so this bounds what the results come to (and what printing
    /// them writes) rather than memory: `{*}*/..#` on an element with 1 MB
    /// of text and 1,000 children would give 1 GB.
    public var resultBytes: Int

    /// How many backtracking steps (saved states of ICU's matcher) one `~`
    /// filter may take on one attribute value, over the whole search: every
    /// position a match is tried at counts. Default 20,000,000. ICU counts
    /// them itself and stops there (its `uregex_setTimeLimit`, in ticks of
    /// 10,000 steps: the match is stopped at the first tick past the limit).
    /// This limit counts work, so where it is met does not depend on the
    /// machine.
    public var regularExpressionSteps: Int

    /// How many seconds, by ``clock``, one `~` filter may take on one
    /// attribute value. Default 10 seconds of processor time: a backstop for
    /// expressions that are slow without backtracking. It is well above what
    /// the step limit costs (about a second), so for those the step limit is
    /// met first whatever the machine and its load, and the message is the
    /// same everywhere. Checked at each of ICU's ticks (10,000 steps) and at
    /// every 64th position where a match is tried, so a match may run a
    /// little past it.
    public var regularExpressionSeconds: Double

    /// How many matches of one `~` filter may be abandoned (for either
    /// limit above, or ICU's running out of backtracking memory) before the
    /// filter is given up. Default 3. The limits above bound one match, this
    /// bounds their sum: each abandoned match costs up to a second or more,
    /// and input made to fail a filter would otherwise cost that per stanza.
    /// The count is kept by the ``Query``, over all its evaluations (for
    /// stanzaq, one run); from then on the filter fails on every element it
    /// tests with an ``EvaluationError`` that is ``EvaluationError/reportedBefore``.
    public var abandonedMatchesPerFilter: Int

    /// The clock ``regularExpressionSeconds`` is measured by, in seconds from
    /// any fixed start. Default ``threadProcessorSeconds()``; tests pass a
    /// clock that moves as they tell it to.
    public var clock: @Sendable () -> Double

    public init(elementsReached: Int = 1_000_000,
                resultBytes: Int = 100_000_000,
                regularExpressionSteps: Int = 20_000_000,
                regularExpressionSeconds: Double = 10,
                abandonedMatchesPerFilter: Int = 3,
                clock: @escaping @Sendable () -> Double = EvaluationLimits.threadProcessorSeconds) {
        self.elementsReached = elementsReached
        self.resultBytes = resultBytes
        self.regularExpressionSteps = regularExpressionSteps
        self.regularExpressionSeconds = regularExpressionSeconds
        self.abandonedMatchesPerFilter = abandonedMatchesPerFilter
        self.clock = clock
    }

    /// The documented limits.
    public static let `default` = EvaluationLimits()

    /// The processor time the calling thread has used, in seconds. Other
    /// processes and threads do not advance it, so a busy machine does not
    /// make a limit trip sooner.
    public static func threadProcessorSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
