import Foundation
import StanzaqTestSupport
import XCTest

/// Damage in a log or a long damaged stanza costs that stanza (stanzaq(1),
/// INPUT and LOGS): what fuzzing the readers with real logs found, each pinned
/// with the exact command, output, messages and exit status.
final class LogDamageTests: CLITestCase {
    /// A log over 1 MiB whose lines hold lone ESC bytes (colour codes cut short):
    /// cutting it into parts asked, for each line, what the line was without its
    /// escapes, and a lone ESC survived that, so the question was asked again forever.
    func testLoneEscapesInALargeLogAreTextWithAnyNumberOfThreads() throws {
        let scratch = try ScratchDirectory()
        for threads in ["1", "2"] {
            let run = try Runner.shell(
                #"(printf 'DEBUG    RECV: <iq id="a"/>\n'; yes "$(printf '\033')" | head -n 600000) > esc.log; stanzaq --threads \#(threads) '/@id' esc.log"#,
                in: scratch.url)
            XCTAssertNil(run.signal, "--threads \(threads)")
            XCTAssertEqual(run.output, "a\n", "--threads \(threads)")
            XCTAssertEqual(run.stderr, "", "--threads \(threads)")
            XCTAssertEqual(run.status, 0, "--threads \(threads)")
        }
    }
}
