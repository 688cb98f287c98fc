import XCTest
import Foundation
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// `~` filters run ICU's backtracking matcher on attribute values that come from
/// the input: a pattern that backtracks catastrophically must end in bounded
/// time with an error for the stanza, never hang and never answer wrongly. The
/// limits are ICU's own (`uregex_setTimeLimit`, `uregex_setStackLimit`, its
/// callbacks), set by ``RegexMatcher``.
final class RegexBudgetTests: XCTestCase {
    /// The step limit alone, lowered to be met quickly: the clock never moves.
    private let steps = EvaluationLimits.withoutTimeLimit(regularExpressionSteps: 1_000_000)
    private let stepsMessage = "backtracked more than 1000000 times"

    private func outcome(_ pattern: String, _ value: String, _ limits: EvaluationLimits) throws -> RegexOutcome {
        try XCTUnwrap(ICURegex(pattern, caseInsensitive: true)).makeMatcher().match(value, limits: limits)
    }

    /// The documented limits, which stanzaq(1) states ("Resource limits").
    func testTheDefaultLimits() {
        XCTAssertEqual(EvaluationLimits.default.regularExpressionSteps, 20_000_000)
        XCTAssertEqual(EvaluationLimits.default.regularExpressionSeconds, 10)
        XCTAssertEqual(EvaluationLimits.default.elementsReached, 1_000_000)
        // The default clock is the thread's processor time: it does not go back.
        let before = EvaluationLimits.default.clock()
        XCTAssertGreaterThanOrEqual(EvaluationLimits.default.clock(), before)
    }

    /// Required case: `^(a+)+$` against a long value of `a`s ending in `b`.
    func testCatastrophicBacktrackingIsAnErrorForTheStanza() throws {
        let element = try XCTUnwrap(StanzaReader.stanzas(in: "<m a='\(String(repeating: "a", count: 1000))b'/>").first)
        let query = try Query("/<a~^(a+)+$>")
        XCTAssertEqual(evaluationError("/<a~^(a+)+$>", in: element, limits: steps),
                       "the regular expression '^(a+)+$' \(stepsMessage) on attribute 'a' of <m> (matching abandoned)")
        // The same through every entry point.
        XCTAssertThrowsError(try query.findFirst(in: element, limits: steps))
        XCTAssertThrowsError(try query.check(in: element, limits: steps))
    }

    func testShortValuesAreCaughtToo() throws {
        // 30 `a`s are enough for 2^30 ways to split them.
        XCTAssertEqual(try outcome("^(a+)+$", String(repeating: "a", count: 30) + "b", steps), .abandoned(stepsMessage))
        // Unanchored: every start position backtracks; ICU counts the steps of them all.
        XCTAssertEqual(try outcome("(a+)+$", String(repeating: "a", count: 1000) + "b", steps), .abandoned(stepsMessage))
    }

    /// The steps are counted over the whole search of one value, every position
    /// tried: `a+b` on 3,000 `a`s takes some 4.5 million steps (3,000 positions,
    /// each backing off the `a`s it took), none of its attempts more than 3,000.
    func testTheStepsOfEveryPositionCount() throws {
        let value = String(repeating: "a", count: 3000)
        XCTAssertEqual(try outcome("a+b", value, steps), .abandoned(stepsMessage))
        XCTAssertEqual(try outcome("a+b", value, .withoutTimeLimit(regularExpressionSteps: 5_000_000)), .noMatch)
        // The limit is met past the steps allowed, at ICU's next tick of 10,000 steps.
        XCTAssertEqual(try outcome("a+b", value, .withoutTimeLimit(regularExpressionSteps: 4_000_000)),
                       .abandoned("backtracked more than 4000000 times"))
        XCTAssertEqual(try outcome("a+b", String(repeating: "a", count: 100), .withoutTimeLimit(regularExpressionSteps: 0)),
                       .noMatch)
        XCTAssertEqual(try outcome("a+b", String(repeating: "a", count: 200), .withoutTimeLimit(regularExpressionSteps: 0)),
                       .abandoned("backtracked more than 0 times"))
    }

    /// An expression that needs more steps than the limit allows is never
    /// answered "no match" (NSRegularExpression, which hides ICU's errors, gave
    /// up on `^(a+)+c` silently and then missed `^a+b`): the limit is an error.
    func testMeetingTheLimitIsNeverTakenForNoMatch() throws {
        let limits = EvaluationLimits.withoutTimeLimit()
        XCTAssertEqual(try outcome("^(a+)+c|^a+b", String(repeating: "a", count: 40) + "b", limits),
                       .abandoned("backtracked more than 20000000 times"))
        // With fewer `a`s ICU finds it.
        XCTAssertEqual(try outcome("^(a+)+c|^a+b", String(repeating: "a", count: 12) + "b", limits), .match)
    }

    /// ICU's backtracking stack (8 MB, `uregex_setStackLimit`) overflows on a
    /// long value even without catastrophic backtracking.
    func testBacktrackingStackOverflowIsAnError() throws {
        let limits = EvaluationLimits.withoutTimeLimit()
        let value = String(repeating: "a", count: 1_000_000) + "c"
        XCTAssertEqual(try outcome("^(?:a|b)*c", value, limits), .abandoned("ran out of backtracking memory"))
        XCTAssertEqual(try outcome("^(?:a|b)*c", String(repeating: "a", count: 1000) + "c", limits), .match)
    }

    /// The time limit alone, on a clock that moves 1 s per reading: met after the
    /// same work on any machine. It is read at every 64th position where a match
    /// is tried and at every tick of ICU (10,000 steps); the first reading starts
    /// the count.
    func testTheTimeLimit() throws {
        // A plain search (no backtracking: the step limit cannot apply), one callback per position.
        let value = String(repeating: "a", count: 100_000)
        let clock = SteppingClock(step: 1)
        let limits = EvaluationLimits(regularExpressionSeconds: 10, clock: clock.read)
        XCTAssertEqual(try outcome("x", value, limits), .abandoned("took longer than 10 s"))
        XCTAssertEqual(clock.reads, 12)
        // Fractions of a second are shown as such.
        let fraction = EvaluationLimits(regularExpressionSeconds: 0.01, clock: SteppingClock(step: 1).read)
        XCTAssertEqual(try outcome("x", value, fraction), .abandoned("took longer than 0.01 s"))
        // Backtracking, with a step limit out of reach: the time limit stops it.
        let backtracking = EvaluationLimits(regularExpressionSteps: .max, regularExpressionSeconds: 10,
                                            clock: SteppingClock(step: 5).read)
        XCTAssertEqual(try outcome("^(a+)+$", String(repeating: "a", count: 30) + "b", backtracking),
                       .abandoned("took longer than 10 s"))
        // With the clock frozen, the search ends with its answer.
        XCTAssertEqual(try outcome("x", value, .withoutTimeLimit()), .noMatch)
    }

    /// A short match never reads the clock (the processor-time clock is a system call).
    func testShortMatchesDoNotReadTheClock() throws {
        let clock = SteppingClock(step: 1)
        let limits = EvaluationLimits(clock: clock.read)
        XCTAssertEqual(try outcome("^(chat|groupchat)$", "groupchat", limits), .match)
        XCTAssertEqual(try outcome("romeo", String(repeating: "y", count: 30) + "ROMEO", limits), .match)
        XCTAssertEqual(clock.reads, 0)
    }

    /// Ordinary expressions on ordinary and long values give ordinary answers
    /// within the documented limits.
    func testOrdinaryMatching() throws {
        let limits = EvaluationLimits.default
        XCTAssertEqual(try outcome("^(chat|groupchat)$", "groupchat", limits), .match)
        XCTAssertEqual(try outcome("^(chat|groupchat)$", "normal", limits), .noMatch)
        XCTAssertEqual(try outcome("romeo", String(repeating: "y", count: 300) + "ROMEO", limits), .match)
        XCTAssertEqual(try outcome("x", String(repeating: "a", count: 100_000), limits), .noMatch)
        XCTAssertEqual(try outcome("x$", String(repeating: "a", count: 100_000) + "x", limits), .match)
        XCTAssertEqual(try outcome("^a*$", String(repeating: "a", count: 100_000), limits), .match)
        // Quadratic, but within the limits: still an answer.
        XCTAssertEqual(try outcome("a+b", String(repeating: "a", count: 3000), limits), .noMatch)
        XCTAssertEqual(try outcome(".*x", String(repeating: "a", count: 3000), limits), .noMatch)
        XCTAssertEqual(try outcome("é", String(repeating: "😀", count: 5000) + "É", limits), .match)
        XCTAssertEqual(try outcome("q", "", limits), .noMatch)
        XCTAssertEqual(try outcome("^$", "", limits), .match)
    }

    /// A regex error is per stanza: the query goes on with the next stanza.
    func testOtherStanzasAreUnaffected() throws {
        let query = try Query("/<a~^(a+)+$>@id")
        let good = try XCTUnwrap(StanzaReader.stanzas(in: "<m id='1' a='aaa'/>").first)
        let bad = try XCTUnwrap(StanzaReader.stanzas(in: "<m id='2' a='\(String(repeating: "a", count: 30))!'/>").first)
        XCTAssertEqual(try query.find(in: good, limits: steps).map(\.text), ["1"])
        XCTAssertThrowsError(try query.find(in: bad, limits: steps))
        XCTAssertEqual(try query.find(in: good, limits: steps).map(\.text), ["1"])
    }

    /// After `abandonedMatchesPerFilter` abandoned matches a filter is given up
    /// for the query's later evaluations: each fails at once with an error that
    /// says it repeats one reported before, so that the sum of the matches'
    /// costs is bounded, not their count times each one's.
    func testAFilterIsGivenUpAfterAbandonedMatches() throws {
        var limits = steps
        limits.abandonedMatchesPerFilter = 2
        XCTAssertEqual(EvaluationLimits.default.abandonedMatchesPerFilter, 3)
        let query = try Query("/<a~^(a+)+$>@id")
        let good = try XCTUnwrap(StanzaReader.stanzas(in: "<m id='1' a='aaa'/>").first)
        let bad = try XCTUnwrap(StanzaReader.stanzas(in: "<m id='2' a='\(String(repeating: "a", count: 30))!'/>").first)
        let without = try XCTUnwrap(StanzaReader.stanzas(in: "<m id='3'/>").first)
        func error(_ element: Element) -> EvaluationError? {
            do {
                _ = try query.find(in: element, limits: limits)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(try query.find(in: good, limits: limits).map(\.text), ["1"])
        let abandoned = "the regular expression '^(a+)+$' \(stepsMessage) on attribute 'a' of <m>"
        XCTAssertEqual(error(bad), EvaluationError(abandoned + " (matching abandoned)"))
        XCTAssertEqual(try query.find(in: good, limits: limits).map(\.text), ["1"])
        XCTAssertEqual(error(bad), EvaluationError(abandoned + " (matching abandoned 2 times: given up for the rest "
                                                   + "of the input, where stanzas that need it have no result and no message)"))
        // Given up: even a value it would match fails, at once, as a repeat.
        for element in [bad, good] {
            XCTAssertEqual(error(element), EvaluationError("the regular expression '^(a+)+$' was given up after 2 abandoned "
                                                           + "matches (attribute 'a' of <m>)", reportedBefore: true))
        }
        // Elements the filter does not test are unaffected; so is another query.
        XCTAssertEqual(try query.find(in: without, limits: limits).map(\.text), [])
        XCTAssertEqual(try Query("/<a~^(a+)+$>@id").find(in: good, limits: limits).map(\.text), ["1"])
    }

    /// The error names the attribute as the query wrote it, and the element.
    func testMessageNamesTheAttribute() throws {
        let element = try XCTUnwrap(StanzaReader.stanzas(in: """
            <m xmlns:p='urn:p' p:a='\(String(repeating: "a", count: 30))!'/>
            """).first)
        XCTAssertEqual(evaluationError("/<p:a~^(a+)+$>", in: element, limits: steps),
                       "the regular expression '^(a+)+$' \(stepsMessage) on attribute 'p:a' of <m> (matching abandoned)")
        XCTAssertEqual(evaluationError("/<{urn:p}a~^(a|a)*$>", in: element, limits: steps),
                       "the regular expression '^(a|a)*$' \(stepsMessage) on attribute '{urn:p}a' of <m> (matching abandoned)")
    }
}
