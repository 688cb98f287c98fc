import XCTest
import StanzaQuery

/// libxml2's limits, which its push parser does not apply to SAX2 callers, applied by the reader.
final class LimitTests: XCTestCase {
    private func readError(_ xml: String) -> (stanzas: Int, error: String?) {
        var count = 0
        let reader = StanzaReader { _ in count += 1; return true }
        do {
            try reader.feed(Array(xml.utf8))
            try reader.finish()
            return (count, nil)
        } catch {
            return (count, "\(error)")
        }
    }

    func testNestingUpTo256LevelsIsRead() {
        let xml = String(repeating: "<a>", count: 256) + String(repeating: "</a>", count: 256)
        XCTAssertEqual(readError(xml).stanzas, 1)
        XCTAssertNil(readError(xml).error)
    }

    func testNestingDeeperThan256LevelsIsAnErrorNotACrash() {
        let deep = "<ok/>\n" + String(repeating: "<a>", count: 100_000)
        let result = readError(deep)
        XCTAssertEqual(result.stanzas, 1)
        XCTAssertEqual(result.error, "2:771: elements nested deeper than 256 levels (libxml2's limit)")
    }

    func testTextLongerThanTenMillionBytesIsAnError() {
        let xml = "<m><b>" + String(repeating: "x", count: 10_000_001) + "</b></m>"
        let result = readError(xml)
        XCTAssertEqual(result.stanzas, 0)
        XCTAssertTrue(result.error?.hasSuffix(": text longer than 10000000 bytes (libxml2's limit)") ?? false, result.error ?? "no error")
    }

    func testTextOfTenMillionBytesIsRead() throws {
        let text = String(repeating: "y", count: 10_000_000)
        let message = try XCTUnwrap(StanzaReader.stanzas(in: "<m><b>" + text + "</b></m>").first)
        XCTAssertEqual(try Query("b#").findFirst(in: message)?.text.count, 10_000_000)
    }

    func testLongSequencesOfTopLevelStanzasKeepTheirPositions() {
        // Positions are counted on from the last document, not from the start of the
        // retained bytes: the line of an error after many stanzas is still right.
        var xml = ""
        for index in 0..<3000 { xml += "<message id='\(index)'><body>hi</body></message>\n" }
        xml += "<message><body></message>"
        let result = readError(xml)
        XCTAssertEqual(result.stanzas, 3000)
        XCTAssertEqual(result.error, "3001:26: Opening and ending tag mismatch: body line 3001 and message")
        XCTAssertEqual(readError("<message><body></message>").error, "1:26: Opening and ending tag mismatch: body line 1 and message")
    }
}

final class NumberRenderingTests: XCTestCase {
    func testIntegralDoublesWithinInt64PrintAllTheirDigits() throws {
        let element = try XCTUnwrap(StanzaReader.stanzas(in: "<a v='1e15' w='1234567890123456789' x='1e20' y='-0' z='2.5e-7'/>").first)
        XCTAssertEqual(try Query("/@v|double").findFirst(in: element)?.text, "1000000000000000")
        XCTAssertEqual(try Query("/@w|double").findFirst(in: element)?.text, "1234567890123456768")
        XCTAssertEqual(try Query("/@x|double").findFirst(in: element)?.text, "1e+20")
        XCTAssertEqual(try Query("/@y|double").findFirst(in: element)?.text, "-0")
        XCTAssertEqual(try Query("/@z|double").findFirst(in: element)?.text, "2.5e-07")
    }
}
