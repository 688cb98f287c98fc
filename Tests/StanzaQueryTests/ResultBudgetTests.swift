import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// The results of one evaluation are bounded in bytes, counting duplicates
/// (``EvaluationLimits/resultBytes``), and a result reached many times
/// through `..` is made once.
final class ResultBudgetTests: XCTestCase {
    private let message = "the results add up to more than 10 bytes, counting duplicates (evaluation abandoned)"

    func testTheBudgetCountsEveryResult() throws {
        let limits = EvaluationLimits(resultBytes: 10)
        XCTAssertEqual(EvaluationLimits.default.resultBytes, 100_000_000)
        let element = stanza("<m a='12345'>abc<c/><c/><c/>def</m>")
        // 2 × 5 bytes: within; 3 × 5: over.
        XCTAssertEqual(try Query("/@a").find(in: element, limits: limits).map(\.text), ["12345"])
        XCTAssertEqual(try Query("c/../@a").find(in: element, limits: EvaluationLimits(resultBytes: 15)).map(\.text),
                       ["12345", "12345", "12345"])
        XCTAssertEqual(evaluationError("c/../@a", in: element, limits: limits), message)
        XCTAssertEqual(evaluationError("c/..#", in: element, limits: limits), message)
        // `@@` counts names and values: a + 12345 = 6 bytes, once within, twice over.
        XCTAssertEqual(try Query("/@@").find(in: element, limits: limits).count, 1)
        XCTAssertEqual(evaluationError("c/..@@", in: element, limits: limits), message)
        // The first result alone is within.
        XCTAssertEqual(try Query("c/..#").findFirst(in: element, limits: limits)?.text, "abcdef")
        // An element counts its names, attribute names and values and text, all
        // the way down: m a 12345 abc def c c c = 16 bytes, three times.
        XCTAssertEqual(try Query("c/..").find(in: element, limits: EvaluationLimits(resultBytes: 48)).count, 3)
        XCTAssertEqual(evaluationError("c/..", in: element, limits: EvaluationLimits(resultBytes: 47)),
                       message.replacingOccurrences(of: " 10 ", with: " 47 "))
        XCTAssertEqual(try Query("").find(in: element, limits: EvaluationLimits(resultBytes: 16)).count, 1)
        XCTAssertEqual(evaluationError("", in: element, limits: EvaluationLimits(resultBytes: 15)),
                       message.replacingOccurrences(of: " 10 ", with: " 15 "))
        // The first result of a path that only goes down (a walk of its own)
        // is bounded as every result is: within at 16 bytes, over at 15.
        XCTAssertNotNil(try Query("").findFirst(in: element, limits: EvaluationLimits(resultBytes: 16)))
        let root = try Query("")
        do {
            _ = try root.findFirst(in: element, limits: EvaluationLimits(resultBytes: 15))
            XCTFail("findFirst over the budget gave a result")
        } catch {
            XCTAssertEqual(error.message, message.replacingOccurrences(of: " 10 ", with: " 15 "))
        }
    }

    /// Duplicates share one string: the text of an element in several runs is
    /// joined once, however often the element is reached.
    func testDuplicatesShareTheirResult() throws {
        let element = stanza("<m>ab<c/>cd<c/>ef</m>")
        let results = try Query("c/..#").find(in: element)
        XCTAssertEqual(results.map(\.text), ["abcdef", "abcdef"])
        guard case .string(let first) = results[0], case .string(let second) = results[1] else { return XCTFail() }
        XCTAssertEqual(first.utf8.withContiguousStorageIfAvailable { $0.baseAddress },
                       second.utf8.withContiguousStorageIfAvailable { $0.baseAddress })
    }
}
