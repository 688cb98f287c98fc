import Foundation
import XCTest
import StanzaqTestSupport

/// What the process around stanzaq may do to it (stanzaq(1), INPUT, DIAGNOSTICS):
/// file names that are not UTF-8, descriptors a parent made non-blocking, standard
/// descriptors closed, a FIFO with no writer, and where the binary loads its
/// libraries from.
final class ProcessEdgeTests: CLITestCase {
    /// Names with bytes that are not UTF-8 (here Latin-1 `é`, 0xE9) open their own
    /// file — on the command line, with -i and with :load — and are shown with `\xHH`.
    func testFileNamesThatAreNotUTF8() throws {
        let scratch = try ScratchDirectory()
        let setup = #"printf '<m><b>caf\303\251</b></m>\n' > "$(printf 'caf\351.xml')"; "#
        let run = try Runner.shell(setup + #"stanzaq -H 'b#' "$(printf 'caf\351.xml')" "$(printf 'no\351.xml')""#, in: scratch.url)
        XCTAssertEqual(run.output, "caf\\xe9.xml:café\n")
        XCTAssertEqual(run.stderr, "stanzaq: error: no\\xe9.xml: No such file or directory\n")
        XCTAssertEqual(run.status, 2)
        // JSON keeps the shown name (JSON strings are text).
        let json = try Runner.shell(setup + #"stanzaq -H -o json 'b#' caf*.xml"#, in: scratch.url)
        XCTAssertEqual(json.output, #"{"file":"caf\\xe9.xml","value":"café"}"# + "\n")
        // The REPL: a file given to -i, and :load (its line read as bytes too).
        let repl = try Runner.shell(setup + #"printf ':load caf\351.xml\n:all b#\n:load no\351.xml\n' | stanzaq -i "$(printf 'caf\351.xml')""#,
                                    in: scratch.url)
        XCTAssertEqual(repl.output, "caf\\xe9.xml:1:café\ncaf\\xe9.xml:2:café\n")
        XCTAssertTrue(repl.stderr.contains("no\\xe9.xml: No such file or directory"), repl.stderr)
        // A name that is valid UTF-8 of the escapes' own range is kept as it is.
        let odd = try Runner.shell(#"printf '<m/>' > "$(printf '\364\217\276\200.xml')"; stanzaq -c / "$(printf '\364\217\276\200.xml')""#,
                                   in: scratch.url)
        XCTAssertEqual(odd.output, "1\n")
        XCTAssertEqual(odd.status, 0)
    }

    /// O_NONBLOCK belongs to the open file, which a parent shares: reads and writes
    /// that would block wait instead of failing with EAGAIN.
    func testNonBlockingStandardInputAndOutput() throws {
        let scratch = try ScratchDirectory()
        let nonBlocking = #"python3 -c 'import fcntl, os, sys; fd = int(sys.argv[1]); "#
            + #"fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK); os.execvp(sys.argv[2], sys.argv[2:])'"#
        let input = try Runner.shell(#"(sleep 1; printf '<m><b>late</b></m>') | "# + nonBlocking + #" 0 stanzaq 'b#'"#, in: scratch.url)
        XCTAssertEqual(input.output, "late\n")
        XCTAssertEqual(input.stderr, "")
        XCTAssertEqual(input.status, 0)
        // 2 MB of results into a pipe read a second late: its buffer fills first.
        let text = String(repeating: "x", count: 1000)
        try scratch.write("many.xml", String(repeating: "<m><b>\(text)</b></m>\n", count: 2000))
        let output = try Runner.shell(#"( "# + nonBlocking + #" 1 stanzaq 'b#' many.xml; echo "exit $?" >&2 ) | (sleep 1; wc -c)"#,
                                      in: scratch.url)
        XCTAssertEqual(output.output.trimmingCharacters(in: .whitespacesAndNewlines), "2002000")
        XCTAssertEqual(output.stderr, "exit 0\n")
    }

    /// With standard input closed, the first file opened is not descriptor 0, so `-`
    /// after it does not read it again: it is an error, as standard input is closed.
    func testClosedStandardInputIsNotAFileOpenedLater() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("good.xml", "<m><b>good</b></m>\n")
        try assertBounded(["b#", "good.xml", "-"], stdin: .closed, in: scratch.url, stdout: "good\n",
                          stderrMatches: #"stanzaq: error: \(standard input\): Bad file descriptor\n"#, status: 2)
        // Closed standard output: an error, not output written into a file.
        let run = try Runner.shell("stanzaq 'b#' good.xml >&-", in: scratch.url)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("stanzaq: error: write error: Bad file descriptor"), run.stderr)
        XCTAssertEqual(try String(contentsOf: scratch.url.appendingPathComponent("good.xml"), encoding: .utf8), "<m><b>good</b></m>\n")
    }

    /// Opening a FIFO no writer has opened blocks; one Ctrl-C ends it (exit 130).
    func testFIFOWithNoWriterEndsOnOneInterrupt() throws {
        let scratch = try ScratchDirectory()
        let fifo = scratch.url.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let stanzaq = try Child([try Runner.requireBinary().path, "b#", fifo], environment: Runner.environment())
        defer {
            stanzaq.send(SIGKILL)
            _ = stanzaq.wait(timeout: 10)
        }
        let start = Date()
        while !Self.handlesSIGINT(stanzaq.pid) {
            if Date().timeIntervalSince(start) > 30 { return XCTFail("stanzaq did not install its handler within 30 s") }
            usleep(2_000)
        }
        usleep(200_000)   // into open() or poll() (either way, one SIGINT must end it)
        XCTAssertTrue(stanzaq.send(SIGINT))
        guard let ended = stanzaq.wait(timeout: 10) else { return XCTFail("stanzaq still waits for a writer 10 s after one SIGINT") }
        XCTAssertNil(ended.signal)
        XCTAssertEqual(ended.status, 130)
        // With a writer, the FIFO is read to its end.
        let run = try Runner.shell(#"(sleep 1; printf '<m><b>fifo</b></m>' > fifo) & stanzaq 'b#' fifo"#, in: scratch.url)
        XCTAssertEqual(run.output, "fifo\n")
        XCTAssertEqual(run.status, 0)
    }

    /// The release binary (`make build`) does not look for libraries beside itself:
    /// installed in /usr/local/bin, `$ORIGIN` would load a libxml2.so.2 put there.
    func testReleaseBinaryHasNoOriginRunpath() throws {
        let binary = try Runner.requireBinary()
        guard binary.path.contains("/release/") else { throw XCTSkip("the binary under test is not the release build (make check)") }
        let run = try Runner.run(URL(fileURLWithPath: "/usr/bin/env"), ["readelf", "-d", binary.path], in: Runner.examples,
                                 environment: Runner.environment())
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.output.contains("$ORIGIN"), run.output.split(separator: "\n").filter { $0.contains("PATH") }.joined())
    }

    /// Whether process `pid` is stanzaq with a handler for SIGINT (its `SigCgt` mask).
    private static func handlesSIGINT(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        guard status.hasPrefix("Name:\tstanzaq\n") else { return false }
        for line in status.split(separator: "\n") where line.hasPrefix("SigCgt:") {
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
            return mask & (1 << UInt64(SIGINT - 1)) != 0
        }
        return false
    }
}
