import Foundation
import XCTest
import StanzaqTestSupport

/// Output safety (stanzaq(1), OUTPUT, EXIT STATUS): Ctrl-C during a long run exits 130 and leaves whole
/// records on standard output — never half of one — and no message; output that
/// cannot be written is an error, never a silent success. (A reader that goes away,
/// `stanzaq … | head -1`, is CommandTests.testBrokenPipeIsQuiet; flushing per stanza
/// with `--line-buffered` is CommandTests.testLineBufferedStreaming.)
final class OutputSafetyTests: CLITestCase {
    /// Endless numbered stanzas, written into `fifo` by awk until stanzaq stops reading.
    private static let endless = #"awk 'BEGIN { for (i = 0; ; i++) printf "<m id=\"%d\"><b>hello %d</b></m>\n", i, i }' >"$1" 2>/dev/null"#

    private struct Interrupted {
        var status: Int32?
        var signal: Int32?
        var stdout: Data
        var stderr: String
    }

    /// Starts `writer` (a shell script given the FIFO as `$1`) feeding stanzaq with
    /// `arguments` through a FIFO, sends SIGINT once stdout has `after` bytes (with 0,
    /// as soon as stanzaq handles SIGINT: never before, or the signal would kill it
    /// however fast the machine), and returns how stanzaq ended.
    private func interrupt(_ arguments: [String], writer: String = endless, after bytes: Int = 1, signal: Int32 = SIGINT,
                           piped: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws -> Interrupted {
        let scratch = try ScratchDirectory()
        let fifo = scratch.url.appendingPathComponent("input").path
        let out = scratch.url.appendingPathComponent("stdout").path
        let err = scratch.url.appendingPathComponent("stderr").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let environment = Runner.environment()
        let feeder = try Child(["/bin/sh", "-c", writer, "sh", fifo], environment: environment)
        defer {
            feeder.send(SIGKILL)
            _ = feeder.wait(timeout: 10)
        }
        // With `piped`, standard output is a pipe to a reader (cat), as in `stanzaq … | reader`.
        var ends: [Int32] = [-1, -1]
        var reader: Child?
        if piped {
            XCTAssertEqual(pipe(&ends), 0)
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }   // no other child may hold an end
            reader = try Child(["/bin/cat"], environment: environment, stdin: .descriptor(ends[0]), stdout: .file(out))
            close(ends[0])
        }
        defer { if let reader { reader.send(SIGKILL); _ = reader.wait(timeout: 10) } }
        // Opening the FIFO for reading waits for the writer: the child does it, not the test.
        let stanzaq = try Child(
            ["/bin/sh", "-c", "exec \"$@\" <\"$STANZAQ_IN\"", "sh", try Runner.requireBinary().path] + arguments,
            environment: environment.merging(["STANZAQ_IN": fifo]) { $1 },
            stdout: piped ? .descriptor(ends[1]) : .file(out), stderr: .file(err))
        if piped { close(ends[1]) }
        let start = Date()
        func ready() -> Bool {
            if bytes == 0 { return Self.handlesSIGINT(stanzaq.pid) }
            // The handlers are installed before the first read, so output means they are there.
            return (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0 >= bytes
        }
        while !ready() {
            if Date().timeIntervalSince(start) > 30 {
                stanzaq.send(SIGKILL)
                _ = stanzaq.wait(timeout: 10)
                throw RunFailure(description: "stanzaq \(arguments) not ready for SIGINT within 30 s")
            }
            usleep(2_000)
        }
        XCTAssertTrue(stanzaq.send(signal), file: file, line: line)
        let interrupted = Date()
        guard let ended = stanzaq.wait(timeout: 10) else {
            throw RunFailure(description: "stanzaq \(arguments) still running 10 s after SIGINT; killed")
        }
        XCTAssertLessThan(Date().timeIntervalSince(interrupted), 5, "stanzaq took long to stop", file: file, line: line)
        if let reader, reader.wait(timeout: 10) == nil {
            throw RunFailure(description: "the reader of stanzaq \(arguments) did not end")
        }
        return Interrupted(status: ended.status, signal: ended.signal,
                           stdout: try Data(contentsOf: URL(fileURLWithPath: out)),
                           stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: err)), as: UTF8.self))
    }

    /// Whether process `pid` is stanzaq (no longer the shell that starts it, which may
    /// have handlers of its own) and has a handler for SIGINT (Linux: its `SigCgt` mask
    /// in /proc; elsewhere, once it has run for a second, a guess).
    private static func handlesSIGINT(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            usleep(1_000_000)
            return true
        }
        guard status.hasPrefix("Name:\tstanzaq\n") else { return false }
        for line in status.split(separator: "\n") where line.hasPrefix("SigCgt:") {
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
            return mask & (1 << UInt64(SIGINT - 1)) != 0
        }
        return false
    }

    /// Every record is `hello N`, N counting from 0 without a gap: nothing lost, nothing cut.
    private func assertWholeRecords(_ run: Interrupted, separator: Character = "\n", prefix: (Int) -> String = { _ in "" },
                                    status: Int32 = 130, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(run.signal, "stanzaq died of signal \(run.signal ?? 0)", file: file, line: line)
        XCTAssertEqual(run.status, status, file: file, line: line)
        XCTAssertEqual(run.stderr, "", file: file, line: line)
        let text = String(decoding: run.stdout, as: UTF8.self)
        XCTAssertFalse(text.isEmpty, file: file, line: line)
        XCTAssertEqual(text.last, separator, "output ends in the middle of a record: …\(text.suffix(40).debugDescription)",
                       file: file, line: line)
        let records = text.split(separator: separator, omittingEmptySubsequences: false).dropLast()
        for (index, record) in records.enumerated() where record != "\(prefix(index))hello \(index)" {
            XCTFail("record \(index) is \(record.debugDescription)", file: file, line: line)
            return
        }
    }

    /// Required case: SIGINT after the first output, on a large input through a pipe.
    func testInterruptLeavesWholeRecords() throws {
        assertWholeRecords(try interrupt(["b#"]))
        // Output flushed per stanza, and with NUL separators.
        assertWholeRecords(try interrupt(["--line-buffered", "b#"], after: 1000))
        assertWholeRecords(try interrupt(["-0", "b#"]), separator: "\0")
        assertWholeRecords(try interrupt(["-n", "b#"]), prefix: { "\($0 + 1):" })
        // Several queries: TSV rows.
        let rows = try interrupt(["-e", "/@id", "-e", "b#"])
        XCTAssertEqual(rows.status, 130)
        let text = String(decoding: rows.stdout, as: UTF8.self)
        XCTAssertEqual(text.last, "\n")
        for (index, row) in text.split(separator: "\n").enumerated() where row != "\(index)\thello \(index)" {
            XCTFail("row \(index) is \(row.debugDescription)")
            break
        }
    }

    /// SIGTERM and SIGHUP stop a search as SIGINT does: whole records (behind a pipe,
    /// for a reader that must not get half of one), exit 128 + the signal.
    func testTerminateAndHangUpLeaveWholeRecords() throws {
        assertWholeRecords(try interrupt(["b#"], signal: SIGTERM), status: 128 + SIGTERM)
        assertWholeRecords(try interrupt(["b#"], signal: SIGHUP), status: 128 + SIGHUP)
        assertWholeRecords(try interrupt(["b#"], signal: SIGTERM, piped: true), status: 143)
        assertWholeRecords(try interrupt(["-n", "b#"], signal: SIGHUP, piped: true), prefix: { "\($0 + 1):" }, status: 129)
    }

    /// Ctrl-C while start tags with 300,000 attributes come (libxml2 took 100 s on
    /// each, and Ctrl-C waited for it): each is refused before libxml2 reads it, so
    /// the search stops at once, with whole records and whole messages.
    func testInterruptDuringHugeStartTags() throws {
        let writer = #"awk 'BEGIN { for (i = 0; ; i++) { printf "<m id=\"%d\"><b>hello %d</b></m>\n<m", i, i; "#
            + #"for (j = 0; j < 300000; j++) printf " a%d=\"\"", j; printf "/>\n" } }' >"$1" 2>/dev/null"#
        let run = try interrupt(["b#"], writer: writer)
        XCTAssertNil(run.signal)
        XCTAssertEqual(run.status, 130)
        let text = String(decoding: run.stdout, as: UTF8.self)
        XCTAssertEqual(text.last, "\n")
        for (index, record) in text.split(separator: "\n").enumerated() where record != "hello \(index)" {
            XCTFail("record \(index) is \(record.debugDescription)")
            break
        }
        for line in run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        where !fullyMatches(String(line), #"\(standard input\):[0-9]+:1: <m> has more than 1024 attributes and namespace declarations \(stanzaq's limit\)"#) {
            XCTFail("stderr has \(line.prefix(200).debugDescription)")
        }
        XCTAssertTrue(run.stderr.isEmpty || run.stderr.hasSuffix("\n"))
    }

    /// A count would be a partial one: none is printed.
    func testInterruptedCountPrintsNothing() throws {
        let run = try interrupt(["-c", "b"], after: 0)
        XCTAssertNil(run.signal)
        XCTAssertEqual(run.status, 130)
        XCTAssertEqual(run.stdout, Data())
        XCTAssertEqual(run.stderr, "")
    }

    /// An input that goes quiet in the middle of a stanza: one Ctrl-C still stops stanzaq
    /// at once, with the records before it and without calling the cut stanza malformed.
    func testInterruptWhileWaitingForInput() throws {
        let run = try interrupt(["--line-buffered", "b#"], writer: #"printf '<m><b>hello 0</b></m>\n<m><b>hel' >"$1"; exec sleep 60 >"$1""#)
        assertWholeRecords(run)
        XCTAssertEqual(String(decoding: run.stdout, as: UTF8.self), "hello 0\n")
    }

    /// Results that cannot be written are lost: that is an error (as in grep), not success.
    func testWriteErrorsAreErrors() throws {
        let closed = try Runner.shell("stanzaq 'body#' capture.xml >&-")
        XCTAssertEqual(closed.stderr, "stanzaq: error: write error: Bad file descriptor\n")
        XCTAssertEqual(closed.status, 2)
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let full = try Runner.shell("stanzaq -c -H body capture.xml >/dev/full")
            XCTAssertEqual(full.stderr, "stanzaq: error: write error: No space left on device\n")
            XCTAssertEqual(full.status, 2)
        }
    }
}
