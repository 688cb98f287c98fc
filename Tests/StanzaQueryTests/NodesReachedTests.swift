import XCTest
@testable import StanzaQuery

/// Duplicates are kept along a path (SPEC 3.2), so `*/..` repeated multiplies the
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

    func testMoreThanTheLimitIsAnErrorInBoundedTime() throws {
        let element = stanza(tenChildren)
        let start = Date()
        for times in [7, 30, 1000] {
            XCTAssertEqual(evaluationError(climbing(times), in: element),
                           "the path reaches more than 1000000 elements at column 31, counting duplicates (evaluation abandoned)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertThrowsError(try Query(climbing(7)).check(in: element))
    }

    func testTheLimitCountsTheElementsOfOneStep() throws {
        let saved = nodesReachedLimit
        defer { nodesReachedLimit = saved }
        nodesReachedLimit = 99
        let element = stanza(tenChildren)
        XCTAssertEqual(try Query(climbing(1)).find(in: element).count, 10)
        // The second `*` reaches 10 × 10 children.
        XCTAssertEqual(evaluationError(climbing(2), in: element),
                       "the path reaches more than 99 elements at column 6, counting duplicates (evaluation abandoned)")
        // Paths that only descend reach each element once: no limit applies to them.
        XCTAssertEqual(try Query("*").find(in: stanza("<m>" + String(repeating: "<c/>", count: 500) + "</m>")).count, 500)
    }
}
