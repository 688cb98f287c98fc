import Foundation
import StanzaqTestSupport
import XCTest

/// The names of `--fields` are checked, and a field or `--direction` that an input
/// cannot have is said once per input (stanzaq(1), `--fields`, `--direction`).
final class FieldCheckTests: CLITestCase {
    private let usage = "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n"

    func testAnUnknownFieldIsAnErrorWithASuggestion() throws {
        let fields = "(the fields are line, time, direction, session and jid, and the columns of archive rows)"
        try assertStanzaq(["--fields=time,dir", "-e", "/@id", "logs/prosody.log"], stdout: "",
                          stderr: "stanzaq: error: --fields: unknown field 'dir' \(fields). Did you mean 'direction'?\n" + usage, status: 2)
        try assertStanzaq(["--fields", "sesion", "/@id", "logs/prosody.log"], stdout: "",
                          stderr: "stanzaq: error: --fields: unknown field 'sesion' \(fields). Did you mean 'session'?\n" + usage, status: 2)
        // Where no input can have a column: any other name.
        try assertStanzaq(["--xml", "--fields", "nope", "/@id", "capture.xml"], stdout: "",
                          stderr: "stanzaq: error: --fields: unknown field 'nope' \(fields)\n" + usage, status: 2)
        try assertStanzaq(["--log=smack", "--fields", "with", "/@id", "logs/smack.log"], stdout: "",
                          stderr: "stanzaq: error: --fields: unknown field 'with' \(fields)\n" + usage, status: 2)
        // Archive rows named: a column, whatever its name.
        try assertStanzaq(["--log=json", "--fields", "dir", "-c", "/@id", "logs/prosody-archive.json"],
                          stdout: "1\t\tmsg1\n1\t\tmsg2\n1\t\tmsg3\n", status: 0)
    }

    func testAFieldTheInputCannotHaveIsSaidOncePerInput() throws {
        try assertStanzaq(["--fields", "time,session", "/@id", "http-upload-disco.xml", "message-delay.xml"], stdout: """
            \t\tstep_02
            \t\t5bd3c1f0-6e3b-4f8a-9d6e-2f1c7a4b8e90

            """, stderr: """
            stanzaq: warning: http-upload-disco.xml: XML input has no fields 'time', 'session' (it has only 'line'): printed empty
            stanzaq: warning: message-delay.xml: XML input has no fields 'time', 'session' (it has only 'line'): printed empty

            """, status: 0)
        // A column asked of a log that is not archive rows.
        try assertStanzaq(["--fields", "line,nope", "-c", "-v", "/nothing", "logs/prosody.log"], stdout: "6\n",
                          stderr: "stanzaq: warning: logs/prosody.log: a prosody log has no field 'nope' (only archive rows have columns): printed empty\n",
                          status: 0)
    }

    func testADirectionTheInputCannotHaveIsSaid() throws {
        try assertStanzaq(["--direction", "in", "/@id", "capture.xml"], stdout: "",
                          stderr: "stanzaq: warning: capture.xml: XML input has no direction: --direction in selects none of their stanzas\n",
                          status: 1)
        try assertStanzaq(["--direction", "out", "-c", "/", "logs/prosody-archive.json"], stdout: "0\n",
                          stderr: "stanzaq: warning: logs/prosody-archive.json: archive rows have no direction: --direction out selects none of their stanzas\n",
                          status: 1)
        // A log that has directions: nothing to say.
        try assertStanzaq(["--direction", "in", "-c", "/", "logs/prosody.log"], stdout: "3\n", status: 0)
    }

    /// Parts of one input read by several threads: still once.
    func testOncePerInputWithThreads() throws {
        let scratch = try ScratchDirectory()
        let big = String(repeating: "<message id='m'><body>x</body></message>\n", count: 20_000)
        _ = try scratch.write("big.xml", Data(big.utf8))
        let run = try Runner.stanzaq(["--threads", "4", "--direction", "in", "-c", "/", "big.xml"], in: scratch.url)
        XCTAssertEqual(run.output, "0\n")
        XCTAssertEqual(run.stderr, "stanzaq: warning: big.xml: XML input has no direction: --direction in selects none of their stanzas\n")
        XCTAssertEqual(run.status, 1)
    }
}
