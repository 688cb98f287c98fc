import ArgumentParser
import XCTest
@testable import stanzaq

/// A command line of operands only is made without ArgumentParser (start-up):
/// it must be the command ArgumentParser makes of it, every option unset.
final class OperandsOnlyTests: XCTestCase {
    func testOperandsOnlyIsWhatParsingMakes() throws {
        for arguments in [["body#"], ["/@id", "a.xml", "-"], ["{urn:xmpp:delay}delay@stamp|datetime", "x", "y", "z"]] {
            let fast = try XCTUnwrap(StanzaqCommand.operandsOnly(arguments))
            let parsed = try XCTUnwrap(try StanzaqCommand.parseAsRoot(arguments) as? StanzaqCommand)
            XCTAssertEqual(String(describing: fast), String(describing: parsed), "\(arguments)")
            XCTAssertEqual(fast.positionals, arguments)
        }
    }

    func testAnyOptionIsLeftToArgumentParser() {
        for arguments in [[], ["-c", "/"], ["/", "--"], ["/", "--json"], ["-"], ["-i"], ["--help"]] {
            if arguments == ["-"] {
                XCTAssertNotNil(StanzaqCommand.operandsOnly(arguments))
            } else {
                XCTAssertNil(StanzaqCommand.operandsOnly(arguments), "\(arguments)")
            }
        }
    }
}
