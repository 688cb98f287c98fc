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
        // (printf 'DEBUG    RECV: <iq id="a"/>\n'; yes $'\x1b' | head -n 600000) > esc.log
        let scratch = try ScratchDirectory()
        try scratch.write("esc.log", "DEBUG    RECV: <iq id=\"a\"/>\n" + String(repeating: "\u{1B}\n", count: 600_000))
        for threads in ["1", "2"] {
            let run = try Runner.stanzaq(["--threads", threads, "/@id", "esc.log"], in: scratch.url)
            XCTAssertNil(run.signal, "--threads \(threads)")
            XCTAssertEqual(run.output, "a\n", "--threads \(threads)")
            XCTAssertEqual(run.stderr, "", "--threads \(threads)")
            XCTAssertEqual(run.status, 0, "--threads \(threads)")
        }
    }

    /// An element left open, more text than the reader keeps while skipping
    /// (its start tag forgotten), then a stanza whose attribute never ends: the
    /// message names the open element from what the skip remembered of it.
    func testAnElementOpenedBeforeTheBytesKeptIsNamedFromMemory() throws {
        let scratch = try ScratchDirectory()
        let make = #"(printf '<x>'; head -c 40000 /dev/zero | tr '\0' y; printf '\n<m id="a</m>') > c.xml"#
        let expected = "c.xml:1:1: <x> is not closed (a new <m> starts at 2:1)\nc.xml:2:9: Unescaped '<' not allowed in attributes values\n"
        for threads in ["1", "2"] {
            let run = try Runner.shell("\(make); stanzaq --threads \(threads) -c / c.xml", in: scratch.url)
            XCTAssertNil(run.signal)
            XCTAssertEqual(run.output, "0\n")
            XCTAssertEqual(run.stderr, expected)
            XCTAssertEqual(run.status, 2)
        }
        let piped = try Runner.shell("\(make); cat c.xml | stanzaq -c /", in: scratch.url)
        XCTAssertEqual(piped.output, "0\n")
        XCTAssertEqual(piped.stderr, expected.replacingOccurrences(of: "c.xml:", with: "(standard input):"))
        XCTAssertEqual(piped.status, 2)
        // A stanza after it is read, and the root's line and column are where it opened.
        try assertStanzaq(["-n", "/@id"], stdin: "<a/>\n  <x>" + String(repeating: "y", count: 70_000) + "\n<m id='b'/>\n<m id='c'/>\n",
                          stdout: "2:b\n3:c\n", stderr: "(standard input):2:3: <x> is not closed (a new <m> starts at 3:1)\n",
                          status: 2)
    }
}
