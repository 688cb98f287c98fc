import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of `stanzaq` with what it cost: wall time and peak memory (the child's
/// own `ru_maxrss`, from `wait4`, so no other process is counted).
struct MeasuredRun {
    /// The exit status, or `nil` if the program died of a signal.
    var status: Int32?
    /// The signal that killed it, if one did.
    var signal: Int32?
    var stdout: Data
    var stderr: String
    var seconds: Double
    var peakMemoryKiB: Int

    var output: String { String(decoding: stdout, as: UTF8.self) }
}

/// Where a measured run's standard input comes from.
enum MeasuredInput {
    /// `/dev/null`.
    case none
    case data(Data)
    case text(String)
    case file(URL)
    /// No standard input at all: descriptor 0 is closed.
    case closed
}

extension Runner {
    /// Runs `stanzaq` with `arguments` in `directory`, killing it after `timeout` seconds
    /// (which fails the run). Spawned with `posix_spawn` and reaped with `wait4` (not with
    /// `Process`, which gives no resource usage), through `/bin/sh` only to set up the
    /// redirections: `exec` leaves the shell's process to `stanzaq`.
    static func measured(_ arguments: [String], stdin: MeasuredInput = .none, in directory: URL = examples,
                         timeout: Double = 60) throws -> MeasuredRun {
        let binary = try requireBinary()
        let scratch = try ScratchDirectory()
        let out = scratch.url.appendingPathComponent("stdout").path
        let err = scratch.url.appendingPathComponent("stderr").path
        var input = "/dev/null"
        switch stdin {
        case .none, .closed: break
        case .data(let data):
            input = scratch.url.appendingPathComponent("stdin").path
            try data.write(to: URL(fileURLWithPath: input))
        case .text(let text):
            input = scratch.url.appendingPathComponent("stdin").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        case .file(let url):
            input = url.path
        }
        let redirectInput: String
        if case .closed = stdin { redirectInput = "<&-" } else { redirectInput = "<\"$STANZAQ_IN\"" }
        let script = "cd \"$1\" || exit 126; shift; exec \"$@\" \(redirectInput) >\"$STANZAQ_OUT\" 2>\"$STANZAQ_ERR\""
        var environment = Runner.environment()
        environment["STANZAQ_IN"] = input
        environment["STANZAQ_OUT"] = out
        environment["STANZAQ_ERR"] = err
        let argv = ["/bin/sh", "-c", script, "sh", directory.path, binary.path] + arguments
        let start = Date()
        let pid = try Spawned.start(argv, environment: environment)
        guard let ended = Spawned.wait(pid, timeout: timeout) else {
            throw RunFailure(description: "stanzaq \(arguments) did not finish within \(Int(timeout)) s; killed")
        }
        let seconds = Date().timeIntervalSince(start)
        return MeasuredRun(
            status: ended.status,
            signal: ended.signal,
            stdout: try Data(contentsOf: URL(fileURLWithPath: out)),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: err)), as: UTF8.self),
            seconds: seconds,
            peakMemoryKiB: ended.peakMemoryKiB)
    }
}

/// Child processes started with `posix_spawn` and reaped with `wait4`: their exact
/// status (an exit status, or the signal that killed them) and resource usage, which
/// `Process` does not give.
enum Spawned {
    /// Starts `argv[0]` (a path) with `argv` and `environment`.
    static func start(_ argv: [String], environment: [String: String]) throws -> pid_t {
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnvp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], nil, nil, cArgv, cEnvp)
        guard spawned == 0 else { throw RunFailure(description: "posix_spawn \(argv[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// Waits for `pid` to end; after `timeout` seconds kills it and returns `nil`.
    static func wait(_ pid: pid_t, timeout: Double) -> (status: Int32?, signal: Int32?, peakMemoryKiB: Int)? {
        let start = Date()
        var rawStatus: Int32 = 0
        var usage = rusage()
        while true {
            let reaped = wait4(pid, &rawStatus, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { return nil }
            if Date().timeIntervalSince(start) > timeout {
                kill(pid, SIGKILL)
                _ = wait4(pid, &rawStatus, 0, &usage)
                return nil
            }
            usleep(5_000)
        }
        let signal = rawStatus & 0x7f
        return (signal == 0 ? (rawStatus >> 8) & 0xff : nil, signal == 0 ? nil : signal, Int(usage.ru_maxrss))
    }
}

extension CLITestCase {
    /// The bounds every hostile input must stay within: hang guards, ten times
    /// and more what a run costs on a slow, busy machine.
    static let timeLimit = 10.0
    static let memoryLimitKiB = 200 * 1024

    /// Runs `stanzaq` on hostile input and checks that it ended by itself (no signal)
    /// within 10 s (or `timeLimit`, for runs that meet a limit on work that takes
    /// seconds) and 200 MiB, with exactly `stdout` (what came before the trouble
    /// survives), the status, and every fragment in stderr.
    @discardableResult
    func assertBounded(_ arguments: [String], stdin: MeasuredInput = .none, in directory: URL = Runner.examples,
                       stdout expected: String, stderrContains fragments: [String] = [], stderrMatches pattern: String? = nil,
                       status expectedStatus: Int32, timeLimit: Double = timeLimit,
                       file: StaticString = #filePath, line: UInt = #line) throws -> MeasuredRun {
        let run = try Runner.measured(arguments, stdin: stdin, in: directory, timeout: max(60, 2 * timeLimit))
        let shown = "stanzaq \(arguments.map(shellQuote).joined(separator: " "))"
        XCTAssertNil(run.signal, "\(shown) died of signal \(run.signal ?? 0); stderr: \(run.stderr.prefix(2000))",
                     file: file, line: line)
        XCTAssertLessThan(run.seconds, timeLimit, "\(shown) took \(run.seconds) s", file: file, line: line)
        XCTAssertLessThan(run.peakMemoryKiB, Self.memoryLimitKiB, "\(shown) used \(run.peakMemoryKiB) KiB",
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
}
