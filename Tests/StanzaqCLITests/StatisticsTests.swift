import Foundation
import StanzaqTestSupport
import XCTest

/// `--stats`: what a search read and found, on standard error after the
/// output, the same whatever the threads.
final class StatisticsTests: CLITestCase {
    /// The lines of `--stats` but the last (the time), and whether that one is a time.
    private func statistics(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        var lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.popLast(), "", file: file, line: line)
        let time = lines.popLast() ?? ""
        XCTAssertNotNil(time.wholeMatch(of: /[0-9]+\.[0-9]{3} seconds/), time, file: file, line: line)
        return lines.map { $0 + "\n" }.joined()
    }

    func testInputsStanzasAndBytesAreCounted() throws {
        let run = try Runner.stanzaq(["--stats", "-c", "body#", "capture.xml", "logs/prosody.log", "mam-fin.xml"])
        XCTAssertEqual(run.output, "8\n")
        XCTAssertEqual(statistics(run.stderr), """
            3 inputs searched
            2 inputs with results
            25 stanzas read
            8 stanzas with results
            0 damage reports
            6458 bytes read

            """)
        XCTAssertEqual(run.status, 0)
    }

    /// Damage reported is counted, after the messages; an input that holds nothing counts as searched.
    func testDamageReportsAreCounted() throws {
        let run = try Runner.stanzaq(["--stats", "/@id"], stdin: .text("<iq id='a'/>\n<iq id='b'><oops></iq>\n<iq id='c'/>\n"))
        XCTAssertEqual(run.output, "a\nc\n")
        XCTAssertEqual(statistics(run.stderr.split(separator: "\n").dropFirst().map { $0 + "\n" }.joined()), """
            1 input searched
            1 input with results
            2 stanzas read
            2 stanzas with results
            1 damage report
            49 bytes read

            """)
        XCTAssertTrue(run.stderr.hasPrefix("(standard input):2:"), run.stderr)
        XCTAssertEqual(run.status, 2)
    }

    /// A large log read in parts, and through a prefilter's windows, counts as one thread's reading.
    func testTheCountsAreOneThreads() throws {
        let scratch = try ScratchDirectory()
        let text = try String(contentsOf: PackagePaths.file("Tests/Fixtures/real-logs/logs/prosody.log"), encoding: .utf8)
        let path = try scratch.write("prosody.log", String(repeating: text, count: 4)).path
        for query in [["-c", "/$"], ["-c", "/iq<type=error>@id"]] {
            // (The part size, which scales the windows, as the search chooses it whatever the threads.)
            for size in [2000, 16384] {
                let one = try Runner.stanzaq(["--threads", "1", "--stats"] + query + [path], environment: ["STANZAQ_PART_SIZE": String(size)])
                let two = try Runner.stanzaq(["--threads", "2", "--stats"] + query + [path], environment: ["STANZAQ_PART_SIZE": String(size)])
                XCTAssertEqual(two.output, one.output, "\(query) at \(size)")
                XCTAssertEqual(statistics(two.stderr), statistics(one.stderr), "\(query) at \(size)")
            }
        }
    }

    func testTheREPLRefusesIt() throws {
        try assertStanzaq(["-i", "--stats"], stdout: "", stderr: "stanzaq: error: --stats does not apply to the REPL (-i)\n", status: 2)
    }
}
