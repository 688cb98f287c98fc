import Foundation
import XCTest

/// What one run of a program produced.
struct RunResult {
    /// The exit status (or, if the program died of a signal, 128 + the signal number).
    var status: Int32
    /// Standard output, byte for byte.
    var stdout: Data
    /// Standard error, decoded as UTF-8 (invalid bytes replaced).
    var stderr: String

    /// Standard output decoded as UTF-8 (invalid bytes replaced).
    var output: String { String(decoding: stdout, as: UTF8.self) }
}

/// A run that did not finish in time, or could not be started.
struct RunFailure: Error, CustomStringConvertible {
    var description: String
}

/// Finds and runs the built `stanzaq` binary and other programs, without ever hanging.
enum Runner {
    /// The package root (this file is `Tests/StanzaqCLITests/StanzaqRunner.swift`).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `examples/` in the package.
    static let examples: URL = packageRoot.appendingPathComponent("examples")

    /// The built `stanzaq` executable: `$STANZAQ_BINARY` if set, else the one next to the
    /// test bundle (on Linux the XCTest runner sits in the build directory, e.g. `.build/debug/`;
    /// on macOS the `.xctest` bundle does).
    static let binary: URL? = {
        let fileManager = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["STANZAQ_BINARY"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        var directories: [URL] = []
        let main = Bundle.main.bundleURL.resolvingSymlinksInPath()
        directories.append(main)
        directories.append(main.deletingLastPathComponent())
        if let argument0 = CommandLine.arguments.first {
            let runner = URL(fileURLWithPath: argument0).resolvingSymlinksInPath()
            directories.append(runner.deletingLastPathComponent())
            directories.append(runner.deletingLastPathComponent().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("stanzaq")
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }()

    /// The binary, or an error that explains where it was looked for.
    static func requireBinary() throws -> URL {
        guard let binary else {
            throw RunFailure(description: """
                cannot find the built stanzaq binary next to the test runner \
                (Bundle.main: \(Bundle.main.bundlePath), argv[0]: \(CommandLine.arguments.first ?? "?")); \
                build it first or set STANZAQ_BINARY
                """)
        }
        return binary
    }

    /// The environment the programs run in: the test's own, without `NO_COLOR`, with
    /// `LC_ALL=C.UTF-8`, then `overrides` (a `nil` value removes a variable).
    static func environment(_ overrides: [String: String?] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["LC_ALL"] = "C.UTF-8"
        for (key, value) in overrides { environment[key] = value }
        return environment
    }

    /// Runs `executable` with `arguments` in `directory`, feeding it `stdin` (or nothing:
    /// standard input is `/dev/null`), and returns what it wrote. Output goes to files,
    /// so the program can never block on a full pipe; a program still running after
    /// `timeout` seconds is killed and the run fails.
    static func run(_ executable: URL, _ arguments: [String], stdin: Data? = nil, in directory: URL,
                    environment: [String: String], timeout: TimeInterval = 120) throws -> RunResult {
        let fileManager = FileManager.default
        let scratch = fileManager.temporaryDirectory
            .appendingPathComponent("stanzaq-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try fileManager.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: scratch) }

        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        let inURL = scratch.appendingPathComponent("stdin")
        _ = fileManager.createFile(atPath: outURL.path, contents: nil)
        _ = fileManager.createFile(atPath: errURL.path, contents: nil)
        let stdinHandle: FileHandle
        if let stdin {
            _ = fileManager.createFile(atPath: inURL.path, contents: stdin)
            stdinHandle = try FileHandle(forReadingFrom: inURL)
        } else {
            stdinHandle = FileHandle(forReadingAtPath: "/dev/null") ?? FileHandle.nullDevice
        }
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer {
            try? stdinHandle.close()
            try? outHandle.close()
            try? errHandle.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardInput = stdinHandle
        process.standardOutput = outHandle
        process.standardError = errHandle
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            if finished.wait(timeout: .now() + 5) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                _ = finished.wait(timeout: .now() + 5)
            }
            throw RunFailure(description: "\(executable.lastPathComponent) \(arguments) did not finish within \(Int(timeout)) s; killed")
        }
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
        return RunResult(status: status,
                         stdout: try Data(contentsOf: outURL),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `stanzaq` with `arguments`.
    static func stanzaq(_ arguments: [String], stdin: Data? = nil, in directory: URL = examples,
                        environment overrides: [String: String?] = [:], timeout: TimeInterval = 120) throws -> RunResult {
        try run(requireBinary(), arguments, stdin: stdin, in: directory,
                environment: environment(overrides), timeout: timeout)
    }

    /// Runs `/bin/sh -c command` with the directory of the built `stanzaq` first in `PATH`.
    static func shell(_ command: String, stdin: Data? = nil, in directory: URL = examples,
                      environment overrides: [String: String?] = [:], timeout: TimeInterval = 120) throws -> RunResult {
        let binDirectory = try requireBinary().deletingLastPathComponent().path
        var environment = environment(overrides)
        environment["PATH"] = binDirectory + ":" + (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        return try run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], stdin: stdin, in: directory,
                       environment: environment, timeout: timeout)
    }
}

/// A scratch directory for files a test generates; removed when the test ends.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("stanzaq-cli-scratch-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the directory and returns its URL.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Assertions on `stanzaq` runs.
class CLITestCase: XCTestCase {
    /// Runs `stanzaq` and checks exact stdout, exit status, and stderr (exactly, or, with
    /// `stderrContains`, that every fragment occurs in it). Returns the run for further checks.
    @discardableResult
    func assertStanzaq(_ arguments: [String], stdin: String? = nil, in directory: URL = Runner.examples,
                       environment: [String: String?] = [:],
                       stdout expectedOut: String, stderr expectedErr: String? = "", stderrContains fragments: [String] = [],
                       status expectedStatus: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try Runner.stanzaq(arguments, stdin: stdin.map { Data($0.utf8) }, in: directory,
                                        environment: environment)
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
}

/// `word` quoted for a shell, for messages.
func shellQuote(_ word: String) -> String {
    let safe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_./=:@,+%"))
    if !word.isEmpty && word.unicodeScalars.allSatisfy(safe.contains) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Whether `text` matches the regular expression `pattern` as a whole.
func fullyMatches(_ text: String, _ pattern: String) -> Bool {
    text.range(of: "\\A(?:\(pattern))\\z", options: .regularExpression) != nil
}
