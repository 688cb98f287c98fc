import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// Duplicates are kept along a path (stanzaq-query(7), PARENT), so `*/..` repeated multiplies the
/// nodes reached by the number of children each time. Found by the query fuzzer: a
/// 36-character query took 17 s and, a few segments longer, all memory.
final class NodesReachedTests: XCTestCase {
    private let tenChildren = "<m>" + String(repeating: "<c/>", count: 10) + "</m>"

    private func climbing(_ times: Int) -> String {
        Array(repeating: "*/..", count: times).joined(separator: "/") + "$"
    }

    func testDuplicatesAreKeptUpToTheLimit() throws {
        let element = stanza(tenChildren)
        // 10^5 copies of <m>, each reported.
        XCTAssertEqual(try Query(climbing(5)).find(in: element).count, 100_000)
        XCTAssertEqual(try Query(climbing(6)).check(in: element), true)
    }

    /// The documented limit: the seventh `*` would reach 10^7 elements. However
    /// long the path, the evaluation stops there (a bound on work, not on time).
    func testMoreThanTheLimitIsAnError() throws {
        let element = stanza(tenChildren)
        XCTAssertEqual(evaluationError(climbing(7), in: element),
                       "the path reaches more than 1000000 elements at column 31, counting duplicates (evaluation abandoned)")
        XCTAssertThrowsError(try Query(climbing(7)).check(in: element))
        // Longer paths, with a lower limit (met at the fifth `*`) to keep the test quick.
        let limits = EvaluationLimits(elementsReached: 10_000)
        for times in [30, 1000] {
            XCTAssertEqual(evaluationError(climbing(times), in: element, limits: limits),
                           "the path reaches more than 10000 elements at column 21, counting duplicates (evaluation abandoned)")
        }
    }

    func testTheLimitCountsTheElementsOfOneStep() throws {
        let limits = EvaluationLimits(elementsReached: 99)
        let element = stanza(tenChildren)
        XCTAssertEqual(try Query(climbing(1)).find(in: element, limits: limits).count, 10)
        // The second `*` reaches 10 × 10 children.
        XCTAssertEqual(evaluationError(climbing(2), in: element, limits: limits),
                       "the path reaches more than 99 elements at column 6, counting duplicates (evaluation abandoned)")
        XCTAssertThrowsError(try Query(climbing(2)).findFirst(in: element, limits: limits))
        // Paths that only descend reach each element once: no limit applies to them.
        let wide = stanza("<m>" + String(repeating: "<c/>", count: 500) + "</m>")
        XCTAssertEqual(try Query("*").find(in: wide, limits: limits).count, 500)
    }
}
