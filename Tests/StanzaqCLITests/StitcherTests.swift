import StanzaQuery
@testable import StanzaLogs
@testable import StanzaqKit
import XCTest

/// The stitcher decides the parts of a log in order, whatever order they are
/// read in, and gives up on every part after one that is not kept.
final class StitcherTests: XCTestCase {
    let good = Stitcher.Report(ledger: LogLedger(), clean: true)
    let notToItsEnd = Stitcher.Report(ledger: nil, clean: false)

    func verdict(_ group: Int, _ kept: Bool) -> Stitcher.Verdict { Stitcher.Verdict(group: group, kept: kept) }

    func testVerdictsComeInOrderOnceThePartsBeforeAreRead() {
        var stitcher = Stitcher()
        XCTAssertEqual(stitcher.partsRead(2..<4, [good, good]), [])
        XCTAssertEqual(stitcher.partsRead(1..<2, [good]), [])
        XCTAssertEqual(stitcher.partsRead(0..<1, [good]), [verdict(0, true), verdict(1, true), verdict(2, true)])
        XCTAssertEqual(stitcher.partsRead(4..<5, [good]), [verdict(4, true)])
        XCTAssertNil(stitcher.fellBack)
    }

    func testAPartNotKeptTakesEveryLaterGroupWithIt() {
        var stitcher = Stitcher()
        XCTAssertEqual(stitcher.partsRead(3..<4, [good]), [])
        XCTAssertEqual(stitcher.partsRead(0..<2, [good, notToItsEnd]), [verdict(0, false), verdict(3, false)])
        XCTAssertEqual(stitcher.fellBack?.index, 1)
        XCTAssertEqual(stitcher.fellBack?.why, "not read to its end")
        XCTAssertEqual(stitcher.partsRead(2..<3, [good]), [verdict(2, false)])
    }

    /// A part whose reader started otherwise than the part before ended is not kept.
    func testAPartStartedOtherwiseThanThePartBeforeEndedIsNotKept() {
        var stitcher = Stitcher()
        var second = LogLedger()
        second.firstLine = 10
        XCTAssertEqual(stitcher.partsRead(1..<2, [Stitcher.Report(ledger: second, clean: true)]), [])
        XCTAssertEqual(stitcher.partsRead(0..<1, [good]), [verdict(0, true), verdict(1, false)])
        XCTAssertEqual(stitcher.fellBack?.why, "its parser started otherwise than the one before ended")
    }

    /// A part of a stream stands alone: kept once read cleanly and the parts before were.
    func testAPartOfAStreamStandsAloneOnceReadCleanly() {
        var stitcher = Stitcher()
        XCTAssertEqual(stitcher.partsRead(1..<2, [Stitcher.Report(standingAlone: true)]), [])
        XCTAssertEqual(stitcher.partsRead(0..<1, [Stitcher.Report(standingAlone: true)]), [verdict(0, true), verdict(1, true)])
        XCTAssertEqual(stitcher.partsRead(2..<3, [Stitcher.Report(standingAlone: false)]), [verdict(2, false)])
        XCTAssertEqual(stitcher.fellBack?.why, "not read to its end")
    }
}
