import Foundation
import StanzaqKit
import StanzaqTestSupport
import XCTest
@testable import stanzaq

/// The whole command run inside the test process: ``Stanzaq/main(_:in:)`` with its
/// standard output and error in memory, its standard input from a file, and
/// relative paths opened in `directory` — exact and fast, with no process.
/// What only a process shows (signals, pipes, the terminal, memory) runs the
/// binary through ``Runner``.
enum InProcess {
    static func stanzaq(_ arguments: [String], stdin: Data? = nil, in directory: URL = Runner.examples,
                        noColor: Bool = false) throws -> RunResult {
        let scratch = try ScratchDirectory()
        let inputPath = try stdin.map { try scratch.write("stdin", $0).path } ?? "/dev/null"
        let input = open(inputPath, O_RDONLY | O_CLOEXEC)
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer {
            close(input)
            close(folder)
        }
        guard input >= 0, folder >= 0 else { throw RunFailure(description: "cannot open \(inputPath) or \(directory.path)") }
        let environment = CommandEnvironment(
            standardInput: input, output: .inMemory(), diagnostics: .inMemory(), noColor: noColor, directory: folder)
        let start = Date()
        let status = Stanzaq.main(arguments, in: environment)
        try? environment.output.flush()
        return RunResult(status: status, signal: nil, stdout: Data(environment.output.contents),
                         stderr: environment.diagnostics.text, seconds: Date().timeIntervalSince(start), peakMemoryKiB: 0)
    }
}

/// Assertions on `stanzaq` runs.
class CLITestCase: XCTestCase {
    /// Runs `stanzaq` in process and checks exact stdout, exit status, and stderr (exactly,
    /// or, with `stderrContains`, that every fragment occurs in it). `environment` may
    /// set `NO_COLOR`. Returns the run for further checks.
    @discardableResult
    func assertStanzaq(_ arguments: [String], stdin: String? = nil, in directory: URL = Runner.examples,
                       environment: [String: String?] = [:],
                       stdout expectedOut: String, stderr expectedErr: String? = "", stderrContains fragments: [String] = [],
                       status expectedStatus: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        XCTAssertTrue(Set(environment.keys).isSubset(of: ["NO_COLOR"]), "in process, only NO_COLOR can be set",
                      file: file, line: line)
        let noColor = (environment["NO_COLOR"] ?? nil).map { !$0.isEmpty } ?? false
        let result = try InProcess.stanzaq(arguments, stdin: stdin.map { Data($0.utf8) }, in: directory, noColor: noColor)
        let shown = "stanzaq \(arguments.map(shellQuote).joined(separator: " "))"
        XCTAssertEqual(result.output, expectedOut, "stdout of \(shown)", file: file, line: line)
        if let expectedErr {
            XCTAssertEqual(result.stderr, expectedErr, "stderr of \(shown)", file: file, line: line)
        }
        for fragment in fragments {
            XCTAssertTrue(result.stderr.contains(fragment),
                          "stderr of \(shown) should contain \(fragment.debugDescription), is \(result.stderr.debugDescription)",
                          file: file, line: line)
        }
        XCTAssertEqual(result.status, expectedStatus, "exit status of \(shown) (stderr: \(result.stderr))",
                       file: file, line: line)
        return result
    }

    /// The bounds every hostile input must stay within: hang guards, ten times
    /// and more what a run costs on a slow, busy machine.
    static let timeLimit = 10.0
    static let memoryLimitKiB = 200 * 1024

    /// Runs the `stanzaq` binary on hostile input and checks that it ended by itself (no
    /// signal) within 10 s (or `timeLimit`, for runs that meet a limit on work that takes
    /// seconds) and 200 MiB (a process's own peak memory, hence a process),
    /// with exactly `stdout` (what came before the trouble survives), the status, and
    /// every fragment in stderr.
    @discardableResult
    func assertBounded(_ arguments: [String], stdin: RunInput = .none, in directory: URL = Runner.examples,
                       stdout expected: String, stderrContains fragments: [String] = [], stderrMatches pattern: String? = nil,
                       status expectedStatus: Int32, timeLimit: Double = timeLimit,
                       file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let run = try Runner.stanzaq(arguments, stdin: stdin, in: directory, timeout: max(60, 2 * timeLimit))
        let shown = "stanzaq \(arguments.map(shellQuote).joined(separator: " "))"
        XCTAssertNil(run.signal, "\(shown) died of signal \(run.signal ?? 0); stderr: \(run.stderr.prefix(2000))",
                     file: file, line: line)
        XCTAssertLessThan(run.seconds, timeLimit, "\(shown) took \(run.seconds) s", file: file, line: line)
        XCTAssertLessThan(run.peakMemoryKiB, Self.memoryLimitKiB,
                          "\(shown) used \(run.peakMemoryKiB) KiB (this test process peaked at "
                          + "\(testProcessPeakMemoryKiB()) KiB)",
                          file: file, line: line)
        XCTAssertEqual(run.output, expected, "stdout of \(shown)", file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(run.stderr.contains(fragment),
                          "stderr of \(shown) should contain \(fragment.debugDescription), is \(run.stderr.prefix(2000).debugDescription)",
                          file: file, line: line)
        }
        if let pattern {
            XCTAssertTrue(fullyMatches(run.stderr, pattern),
                          "stderr of \(shown) should match \(pattern), is \(run.stderr.prefix(2000).debugDescription)",
                          file: file, line: line)
        }
        XCTAssertEqual(run.status, expectedStatus, "exit status of \(shown) (stderr: \(run.stderr.prefix(2000)))",
                       file: file, line: line)
        return run
    }

    /// Runs `arguments` with one thread and with `threads`, each part size in
    /// turn, and checks that stdout, stderr and the exit status are the same.
    /// (Shared by the parallel tests of streams, sequences and logs.)
    func assertSameAsOneThread(_ arguments: [String], threads: Int = 2, partSizes: [Int], in directory: URL = Runner.examples,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        // (--read-all: the parts, not the windows of a prefilter, which PrefilterTests compares with a full read.)
        let arguments = ["--read-all"] + arguments
        let one = try Runner.stanzaq(["--threads", "1"] + arguments, in: directory)
        XCTAssertNil(one.signal, file: file, line: line)
        for size in partSizes {
            let several = try Runner.stanzaq(["--threads", String(threads)] + arguments, in: directory,
                                             environment: ["STANZAQ_PART_SIZE": String(size)])
            let shown = "STANZAQ_PART_SIZE=\(size) stanzaq --threads \(threads) \(arguments.map(shellQuote).joined(separator: " "))"
            XCTAssertEqual(several.output, one.output, "stdout of \(shown)", file: file, line: line)
            XCTAssertEqual(several.stderr, one.stderr, "stderr of \(shown)", file: file, line: line)
            XCTAssertEqual(several.status, one.status, "exit status of \(shown)", file: file, line: line)
        }
    }

    /// What became of the parts of `path` cut at `size` (`STANZAQ_DEBUG_PARTS`):
    /// the line the search adds to standard error, after what one thread writes.
    func partsReport(_ arguments: [String], _ path: String, size: Int, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let one = try Runner.stanzaq(["--threads", "1"] + arguments + [path])
        let several = try Runner.stanzaq(["--threads", "2"] + arguments + [path],
                                         environment: ["STANZAQ_PART_SIZE": String(size), "STANZAQ_DEBUG_PARTS": "1"])
        XCTAssertEqual(several.output, one.output, "stdout of \(path) at \(size)", file: file, line: line)
        XCTAssertEqual(several.status, one.status, "exit status of \(path) at \(size)", file: file, line: line)
        guard several.stderr.hasPrefix(one.stderr) else {
            XCTFail("stderr of \(path) at \(size): \(several.stderr)", file: file, line: line)
            return ""
        }
        return String(several.stderr.dropFirst(one.stderr.count))
    }

    /// The output, messages and exit status of a search that skips what cannot
    /// match (stanzaq(1), "Skipping what cannot match") are those of a full
    /// read, whatever the threads and wherever its windows fall.
    func assertSameAsReadingAll(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let all = try Runner.stanzaq(["--read-all", "--threads", "1"] + arguments)
        XCTAssertNil(all.signal, file: file, line: line)
        for (size, threads) in [(64, 2), (16384, 1), (16384, 2), (65536, 2)] {
            let skipping = try Runner.stanzaq(["--threads", String(threads)] + arguments,
                                              environment: ["STANZAQ_PART_SIZE": String(size)])
            let shown = "STANZAQ_PART_SIZE=\(size) stanzaq --threads \(threads) \(arguments.map(shellQuote).joined(separator: " "))"
            XCTAssertEqual(skipping.output, all.output, "stdout of \(shown)", file: file, line: line)
            XCTAssertEqual(skipping.stderr, all.stderr, "stderr of \(shown)", file: file, line: line)
            XCTAssertEqual(skipping.status, all.status, "exit status of \(shown)", file: file, line: line)
        }
    }

    /// `stanzaq --follow ARGUMENTS PATH`, its standard output in a file of
    /// `scratch`, once it follows `path` from the end of what it holds.
    func startFollowing(_ arguments: [String], _ path: URL, in scratch: ScratchDirectory) throws -> (process: Child, output: URL) {
        let output = scratch.url.appendingPathComponent("followed-output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let size = try FileManager.default.attributesOfItem(atPath: path.path)[.size] as! Int
        let process = try Child([try Runner.requireBinary().path, "--follow"] + arguments + [path.path],
                                environment: Runner.environment(), stdout: .file(output.path))
        waitUntilFollowing(process.pid, path.path, at: size)
        return (process, output)
    }

    /// Waits (60 s at most, a hang guard: it normally takes a tenth of a
    /// second) until `output` holds `expected`.
    func waitForOutput(_ output: URL, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if (try? String(contentsOf: output, encoding: .utf8)) == expected { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("stdout is \(String(describing: try? String(contentsOf: output, encoding: .utf8))), not \(expected)", file: file, line: line)
    }

    /// Ends a follower as Ctrl-C does: exit status 130.
    func stopFollowing(_ process: Child, file: StaticString = #filePath, line: UInt = #line) {
        process.send(SIGINT)
        XCTAssertEqual(process.wait(timeout: 60)?.status, 130, file: file, line: line)
    }

    /// Waits (60 s at most, a hang guard) until process `pid` holds `path` open
    /// at `offset`: a follower that has read what the file held.
    func waitUntilFollowing(_ pid: pid_t, _ path: String, at offset: Int) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            for fd in fds where (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == path {
                let info = (try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)) ?? ""
                if info.split(separator: "\n").contains("pos:\t\(offset)") { return }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTFail("\(path) is not followed from its end")
    }

    /// Runs the binary on pipes: writes `first`, reads the first line it prints
    /// while its input is still open (`nil`: none within 30 s, a hang guard),
    /// then writes `rest`, ends the input, and reads what else it prints.
    func streaming(_ arguments: [String], first: String, rest: String) throws -> (firstLine: String?, rest: String, status: Int32?) {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&input), 0)
        XCTAssertEqual(pipe(&output), 0)
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let child = try Child([try Runner.requireBinary().path] + arguments, environment: Runner.environment(),
                              stdin: .descriptor(input[0]), stdout: .descriptor(output[1]))
        close(input[0])
        close(output[1])
        let writer = FileHandle(fileDescriptor: input[1], closeOnDealloc: true)
        let reader = FileHandle(fileDescriptor: output[0], closeOnDealloc: true)
        signal(SIGPIPE, SIG_IGN) // a write to a stanzaq that died must fail, not kill the test runner
        try writer.write(contentsOf: Data(first.utf8))
        let firstLine = LineBox()
        let gotLine = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var collected = Data()
            while !collected.contains(0x0A) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                collected.append(chunk)
            }
            firstLine.set(collected)
            gotLine.signal()
        }
        let timedOut = gotLine.wait(timeout: .now() + 30) == .timedOut
        if timedOut { child.send(SIGTERM); _ = gotLine.wait(timeout: .now() + 10) }
        try writer.write(contentsOf: Data(rest.utf8))
        try writer.close()
        let ended = child.wait(timeout: 30)
        let more = reader.readDataToEndOfFile()
        return (timedOut ? nil : String(decoding: firstLine.get(), as: UTF8.self), String(decoding: more, as: UTF8.self), ended?.status)
    }
}
