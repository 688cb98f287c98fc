import Foundation
import StanzaqTestSupport
import XCTest

/// How options are written (stanzaq(1), OPTIONS): `--log`'s format binds only
/// with `=`, and `-V` is `--version`.
final class OptionSpellingTests: CLITestCase {
    func testAFormatAfterABareLogIsAnError() throws {
        try assertStanzaq(["--log", "prosody", "-c", "/", "logs/prosody.log"], stdout: "", stderr: """
            stanzaq: error: --log takes its format after '=': --log=prosody (a bare --log detects the format, and 'prosody' would be the query)

            """, status: 2)
        try assertStanzaq(["-c", "/", "--log", "tshark", "logs/prosody.log"], stdout: "", stderr: """
            stanzaq: error: --log takes its format after '=': --log=tshark (a bare --log detects the format, and 'tshark' would be the query)

            """, status: 2)
        try assertStanzaq(["--log=prosody", "-c", "/", "logs/prosody.log"], stdout: "6\n", status: 0)
        // A bare --log followed by anything else: the format is detected.
        try assertStanzaq(["--log", "-c", "/", "logs/prosody.log"], stdout: "6\n", status: 0)
        // After --, a format's name is the query (no <prosody> element here).
        try assertStanzaq(["-c", "--log", "--", "prosody", "logs/prosody.log"], stdout: "0\n", status: 1)
    }

    func testHelpShowsTheOptionalValueOfLog() throws {
        let result = try assertStanzaq(["--help"], stdout: try Runner.stanzaq(["--help"]).output, status: 0)
        let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("  --log") || $0.contains("--version") }
        XCTAssertEqual(lines, [
            "  --log[=FORMAT]          Read the input as a log: --log, or --log=FORMAT",
            "  -V, --version           Print the versions of stanzaq, libxml2 and ICU, and",
        ])
    }

    func testVShortForVersion() throws {
        let version = try Runner.stanzaq(["--version"]).output
        XCTAssertTrue(version.hasPrefix("stanzaq "), version)
        try assertStanzaq(["-V"], stdout: version, status: 0)
        // Whatever else is given, as --version.
        try assertStanzaq(["-c", "-V", "body#", "capture.xml"], stdout: version, status: 0)
        try assertStanzaq(["--version", "--bogus"], stdout: version, status: 0)
        // An option's value is no request.
        try assertStanzaq(["-c", "--glob", "-V", "body#"], stdout: "",
                          stderr: "stanzaq: error: -g filters the files -r finds: add -r\nUsage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n",
                          status: 2)
    }
}
