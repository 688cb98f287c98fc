import XCTest
@testable import StanzaLogs

/// A format's ``LogFormat/cutting`` and ``LogFormat/skipping`` come from the
/// conformances the compiler picked (``LogFormatDefinition/asCuttable``), not
/// from a cast at start-up: they must be what a cast finds.
final class FormatCapabilityTests: XCTestCase {
    func testEachFormatCutsAndSkipsAsItConforms() {
        for format in LogFormat.allCases {
            XCTAssertEqual(format.cutting != nil, (format.definition as? any CuttableLogFormat.Type) != nil, format.rawValue)
            XCTAssertEqual(format.skipping != nil, (format.definition as? any SkippableLogFormat.Type) != nil, format.rawValue)
        }
        // Both answers are among them: JSON rows are escaped, so not skipped.
        XCTAssertNotNil(LogFormat.prosody.skipping)
        XCTAssertNil(LogFormat.json.skipping)
        XCTAssertNotNil(LogFormat.json.cutting)
    }
}
