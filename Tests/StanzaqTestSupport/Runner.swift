import Foundation

/// What one run of a program produced.
public struct RunResult {
    /// The exit status (or, if the program died of a signal, 128 + the signal number).
    public var status: Int32
    /// The signal that killed it, if one did.
    public var signal: Int32?
    /// Standard output, byte for byte.
    public var stdout: Data
    /// Standard error, decoded as UTF-8 (invalid bytes replaced).
    public var stderr: String
    /// The wall time of the run.
    public var seconds: Double
    /// The program's peak memory (`ru_maxrss` from `wait4`). Linux carries the
    /// peak of the process that exec'd it into this (``testProcessPeakMemoryKiB``):
    /// it is the program's own only while the test process has stayed smaller.
    public var peakMemoryKiB: Int

    /// Standard output decoded as UTF-8 (invalid bytes replaced).
    public var output: String { String(decoding: stdout, as: UTF8.self) }

    public init(status: Int32, signal: Int32? = nil, stdout: Data, stderr: String, seconds: Double = 0, peakMemoryKiB: Int = 0) {
        self.status = status
        self.signal = signal
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.peakMemoryKiB = peakMemoryKiB
    }
}

/// The test process's own peak resident memory (VmHWM), in KiB: at exec, Linux
/// raises a child's `ru_maxrss` to the peak of the address space it replaces,
/// which is this process's (posix_spawn shares it until the exec); ``Child``
/// then reads the child's own peak while it runs.
public func testProcessPeakMemoryKiB() -> Int {
    peakMemoryKiB(ofProcess: "self") ?? 0
}

/// The peak resident memory (`VmHWM` of /proc/PROCESS/status), in KiB, of a
/// running process (`self`, or a pid); `nil` once it has ended.
func peakMemoryKiB(ofProcess process: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
}

/// Where a run's standard input comes from.
public enum RunInput {
    /// `/dev/null`.
    case none
    case data(Data)
    case text(String)
    case file(URL)
    /// No standard input at all: descriptor 0 is closed.
    case closed
}

/// Finds and runs the built `stanzaq` binary and other programs, without ever hanging.
public enum Runner {
    /// `examples/` in the package, where runs happen unless told otherwise.
    public static var examples: URL { PackagePaths.examples }

    /// The built `stanzaq` executable: `$STANZAQ_BINARY` if set, else the one next to the
    /// test bundle (on Linux the XCTest runner sits in the build directory, e.g. `.build/debug/`;
    /// on macOS the `.xctest` bundle does).
    public static let binary: URL? = {
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
    public static func requireBinary() throws -> URL {
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
    public static func environment(_ overrides: [String: String?] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["LC_ALL"] = "C.UTF-8"
        for (key, value) in overrides { environment[key] = value }
        return environment
    }

    /// Runs `executable` with `arguments` in `directory`, its standard input from `stdin`,
    /// and returns what it wrote. Output goes to files, so the program can never block
    /// on a full pipe; a program still running after `timeout` seconds is killed and
    /// the run fails.
    public static func run(_ executable: URL, _ arguments: [String], stdin: RunInput = .none, in directory: URL,
                           environment: [String: String], timeout: TimeInterval = 120) throws -> RunResult {
        let scratch = try ScratchDirectory()
        let out = scratch.url.appendingPathComponent("stdout").path
        let err = scratch.url.appendingPathComponent("stderr").path
        let input: Child.Stream
        switch stdin {
        case .none: input = .null
        case .closed: input = .closed
        case .file(let url): input = .file(url.path)
        case .data(let data): input = .file(try scratch.write("stdin", data).path)
        case .text(let text): input = .file(try scratch.write("stdin", text).path)
        }
        let start = Date()
        let child = try Child([executable.path] + arguments, environment: environment, directory: directory.path,
                              stdin: input, stdout: .file(out), stderr: .file(err))
        guard let ended = child.wait(timeout: timeout) else {
            throw RunFailure(description: "\(executable.lastPathComponent) \(arguments) did not finish within \(Int(timeout)) s; killed")
        }
        return RunResult(status: ended.shellStatus, signal: ended.signal,
                         stdout: try Data(contentsOf: URL(fileURLWithPath: out)),
                         stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: err)), as: UTF8.self),
                         seconds: Date().timeIntervalSince(start), peakMemoryKiB: ended.peakMemoryKiB)
    }

    /// Runs the `stanzaq` binary with `arguments`.
    public static func stanzaq(_ arguments: [String], stdin: RunInput = .none, in directory: URL = examples,
                               environment overrides: [String: String?] = [:], timeout: TimeInterval = 120) throws -> RunResult {
        try run(requireBinary(), arguments, stdin: stdin, in: directory, environment: environment(overrides), timeout: timeout)
    }

    /// Runs `/bin/sh -c command` with the directory of the built `stanzaq` first in `PATH`.
    public static func shell(_ command: String, stdin: RunInput = .none, in directory: URL = examples,
                             environment overrides: [String: String?] = [:], timeout: TimeInterval = 120) throws -> RunResult {
        try run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], stdin: stdin, in: directory,
                environment: shellEnvironment(overrides), timeout: timeout)
    }

    /// ``environment(_:)`` with the directory of the built `stanzaq` first in `PATH`.
    public static func shellEnvironment(_ overrides: [String: String?] = [:]) throws -> [String: String] {
        let binDirectory = try requireBinary().deletingLastPathComponent().path
        var environment = environment(overrides)
        environment["PATH"] = binDirectory + ":" + (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        return environment
    }
}

/// A scratch directory for files a test generates; removed when it goes away,
/// or when the test process exits: XCTest keeps every test case instance (and
/// so the directories that `setUp` stores in them) alive until the end.
public final class ScratchDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("stanzaq-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        Self.removedAtExit.register(url)
    }

    /// Writes `text` to `name` in the directory and returns its URL.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    /// Writes `data` to `name` in the directory and returns its URL.
    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
        Self.removedAtExit.forget(url)
    }

    private static let removedAtExit = ExitCleanup()
}

/// The scratch directories still there when the process exits, removed then.
private final class ExitCleanup: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: Set<String> = []

    init() {
        atexit { ExitCleanup.shared?.removeAll() }
        ExitCleanup.shared = self
    }

    // The one instance, for the C function atexit calls (it cannot capture).
    nonisolated(unsafe) static var shared: ExitCleanup?

    func register(_ url: URL) { lock.withLock { _ = paths.insert(url.path) } }
    func forget(_ url: URL) { lock.withLock { _ = paths.remove(url.path) } }

    func removeAll() {
        let all = lock.withLock { paths }
        for path in all { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// `word` quoted for a shell, for messages.
public func shellQuote(_ word: String) -> String {
    let safe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_./=:@,+%"))
    if !word.isEmpty && word.unicodeScalars.allSatisfy(safe.contains) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Whether `text` matches the regular expression `pattern` as a whole.
public func fullyMatches(_ text: String, _ pattern: String) -> Bool {
    text.range(of: "\\A(?:\(pattern))\\z", options: .regularExpression) != nil
}
