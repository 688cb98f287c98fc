import XCTest
import Foundation
@testable import StanzaQuery

/// `~` filters run ICU's backtracking matcher on attribute values that come from
/// the input: a pattern that backtracks catastrophically must end in bounded
/// time with an error for the stanza, never hang and never answer wrongly.
final class RegexBudgetTests: XCTestCase {
    private func outcome(_ pattern: String, _ value: String) throws -> RegexOutcome {
        try budgetedRegexMatch(NSRegularExpression(pattern: pattern, options: [.caseInsensitive]), value)
    }

    private func timed<T>(_ body: () throws -> T) rethrows -> (T, TimeInterval) {
        let start = Date()
        let value = try body()
        return (value, Date().timeIntervalSince(start))
    }

    /// Required case: `^(a+)+$` against a long value of `a`s ending in `b`.
    func testCatastrophicBacktrackingIsAnErrorForTheStanza() throws {
        let element = try XCTUnwrap(StanzaReader.stanzas(in: "<m a='\(String(repeating: "a", count: 5000))b'/>").first)
        let query = try Query("/<a~^(a+)+$>")
        let (message, seconds) = timed { evaluationError("/<a~^(a+)+$>", in: element) }
        XCTAssertEqual(message, "the regular expression '^(a+)+$' backtracked more than 20000000 times "
                       + "on attribute 'a' of <m> (matching abandoned)")
        XCTAssertLessThan(seconds, 5)
        // The same through every entry point.
        XCTAssertThrowsError(try query.findFirst(in: element))
        XCTAssertThrowsError(try query.check(in: element))
    }

    func testShortValuesAreCaughtToo() throws {
        // 30 `a`s are enough for 2^30 ways to split them.
        let (result, seconds) = try timed { try outcome("^(a+)+$", String(repeating: "a", count: 30) + "b") }
        XCTAssertEqual(result, .abandoned("backtracked more than 20000000 times"))
        XCTAssertLessThan(seconds, 5)
        // Unanchored: every start position backtracks; the count of calls still bounds it.
        let (unanchored, unanchoredSeconds) = try timed { try outcome("(a+)+$", String(repeating: "a", count: 5000) + "b") }
        XCTAssertEqual(unanchored, .abandoned("backtracked more than 20000000 times"))
        XCTAssertLessThan(unanchoredSeconds, 5)
    }

    /// ICU gives up on a long attempt by itself and says "no match" — even when there
    /// is one (here `^a+b`, once `^(a+)+c` has been tried). That must not pass for an answer.
    func testICUsSilentGivingUpIsNotTakenForNoMatch() throws {
        let value = String(repeating: "a", count: 40) + "b"
        let regex = try NSRegularExpression(pattern: "^(a+)+c|^a+b", options: [.caseInsensitive])
        if regex.firstMatch(in: value, options: [], range: NSRange(location: 0, length: value.utf16.count)) != nil {
            // A Foundation whose ICU does not give up: then the answer must be the match.
            XCTAssertEqual(try outcome("^(a+)+c|^a+b", value), .match)
            return
        }
        XCTAssertEqual(try outcome("^(a+)+c|^a+b", value), .abandoned("backtracked more than 20000000 times"))
        // With fewer `a`s ICU finds it, and so do we.
        XCTAssertEqual(try outcome("^(a+)+c|^a+b", String(repeating: "a", count: 12) + "b"), .match)
    }

    /// ICU's backtracking stack (8 MB) overflows on a long value even without
    /// catastrophic backtracking; NSRegularExpression then reports no match.
    func testBacktrackingStackOverflowIsAnError() throws {
        let value = String(repeating: "a", count: 1_000_000) + "c"
        XCTAssertEqual(try outcome("^(?:a|b)*c", value), .abandoned("ran out of backtracking memory"))
        XCTAssertEqual(try outcome("^(?:a|b)*c", String(repeating: "a", count: 1000) + "c"), .match)
    }

    func testTheTimeLimit() throws {
        let saved = regularExpressionTimeBudget
        defer { regularExpressionTimeBudget = saved }
        regularExpressionTimeBudget = 0.01
        // A plain search of a long value (no backtracking) that needs more than 10 ms.
        let value = String(repeating: "a", count: 10_000_000)
        let (result, seconds) = try timed { try outcome("x", value) }
        XCTAssertEqual(result, .abandoned("took longer than 0.01 s"))
        XCTAssertLessThan(seconds, 2)
        regularExpressionTimeBudget = saved
        XCTAssertEqual(try outcome("x", value), .noMatch)
        XCTAssertEqual(regularExpressionTimeLimit, 1)
    }

    /// Ordinary expressions on ordinary and long values give ordinary answers.
    func testOrdinaryMatching() throws {
        XCTAssertEqual(try outcome("^(chat|groupchat)$", "groupchat"), .match)
        XCTAssertEqual(try outcome("^(chat|groupchat)$", "normal"), .noMatch)
        XCTAssertEqual(try outcome("romeo", String(repeating: "y", count: 300) + "ROMEO"), .match)
        XCTAssertEqual(try outcome("x", String(repeating: "a", count: 100_000)), .noMatch)
        XCTAssertEqual(try outcome("x$", String(repeating: "a", count: 100_000) + "x"), .match)
        XCTAssertEqual(try outcome("^a*$", String(repeating: "a", count: 100_000)), .match)
        // Quadratic, but within the limits: still an answer.
        XCTAssertEqual(try outcome("a+b", String(repeating: "a", count: 3000)), .noMatch)
        XCTAssertEqual(try outcome(".*x", String(repeating: "a", count: 3000)), .noMatch)
        XCTAssertEqual(try outcome("é", String(repeating: "😀", count: 5000) + "É"), .match)
        XCTAssertEqual(try outcome("q", ""), .noMatch)
        XCTAssertEqual(try outcome("^$", ""), .match)
    }

    /// A regex error is per stanza: the query goes on with the next stanza.
    func testOtherStanzasAreUnaffected() throws {
        let query = try Query("/<a~^(a+)+$>@id")
        let good = try XCTUnwrap(StanzaReader.stanzas(in: "<m id='1' a='aaa'/>").first)
        let bad = try XCTUnwrap(StanzaReader.stanzas(in: "<m id='2' a='\(String(repeating: "a", count: 30))!'/>").first)
        XCTAssertEqual(try query.find(in: good).map(\.text), ["1"])
        XCTAssertThrowsError(try query.find(in: bad))
        XCTAssertEqual(try query.find(in: good).map(\.text), ["1"])
    }

    /// The error names the attribute as the query wrote it, and the element.
    func testMessageNamesTheAttribute() throws {
        let element = try XCTUnwrap(StanzaReader.stanzas(in: """
            <m xmlns:p='urn:p' p:a='\(String(repeating: "a", count: 30))!'/>
            """).first)
        XCTAssertEqual(evaluationError("/<p:a~^(a+)+$>", in: element),
                       "the regular expression '^(a+)+$' backtracked more than 20000000 times on attribute 'p:a' of <m> (matching abandoned)")
        XCTAssertEqual(evaluationError("/<{urn:p}a~^(a|a)*$>", in: element),
                       "the regular expression '^(a|a)*$' backtracked more than 20000000 times on attribute '{urn:p}a' of <m> (matching abandoned)")
    }
}
