import CSpawn
import Foundation

/// A program started for a test: the one way the tests start processes.
///
/// Started with `posix_spawn` (nothing runs in the child but the program), its
/// standard streams redirected as asked, in a directory of its choosing, or on a
/// new pseudo-terminal; reaped with `wait4`, which gives the exact status (an exit
/// status, or the signal that killed it) and the child's own peak memory.
public final class Child {
    /// Where a standard stream of the child goes.
    public enum Stream {
        /// `/dev/null`.
        case null
        /// A file, opened for reading (descriptor 0) or created for writing.
        case file(String)
        /// A descriptor of the test, duplicated (a pipe's end).
        case descriptor(Int32)
        /// No descriptor at all.
        case closed
    }

    /// How a child ended.
    public struct Ended {
        /// The exit status, or `nil` if it died of a signal.
        public var status: Int32?
        /// The signal that killed it, if one did.
        public var signal: Int32?
        public var peakMemoryKiB: Int
        /// The status as a shell shows it: 128 + the signal after a signal.
        public var shellStatus: Int32 { status ?? 128 + (signal ?? 0) }
    }

    public let pid: pid_t
    /// The test's side of the pseudo-terminal, for a child started ``onTerminal``.
    public let terminal: Int32?
    private var ended: Ended?
    /// The test process's own peak memory when the child started. A child's
    /// peak as `wait4` reports it is at least that (Linux carries the peak of
    /// the memory a process had before `exec` — the test's, shared by
    /// `posix_spawn` — into the program's), so where it is no more than that
    /// the child's own peak is the one read from /proc while it ran.
    private let testPeakKiB = testProcessPeakMemoryKiB()
    /// The highest `VmHWM` read from /proc/PID/status while the child ran.
    private var polledPeakKiB = 0

    /// Starts `argv[0]` (a path) with `argv`, `environment`, in `directory`.
    public init(_ argv: [String], environment: [String: String], directory: String? = nil,
                stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, fd)
            case .closed: posix_spawn_file_actions_addclose(&actions, fd)
            }
        }
        if let directory { stanzaq_spawn_file_actions_addchdir(&actions, directory) }
        pid = try Child.spawn(argv, environment: environment, actions: &actions, attributes: nil)
        terminal = nil
    }

    /// Starts `argv` on a new pseudo-terminal of `rows`×`columns`, which becomes its
    /// controlling terminal and standard streams; the test reads and writes ``terminal``.
    public init(onTerminal argv: [String], environment: [String: String], rows: UInt16 = 40, columns: UInt16 = 200) throws {
        var master: Int32 = -1
        var slaveDescriptor: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slaveDescriptor, nil, nil, &size) == 0, let name = ttyname(slaveDescriptor) else {
            throw RunFailure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = String(cString: name)
        // The child opens the terminal by name; the test keeps only its side.
        close(slaveDescriptor)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // In a new session, the first terminal the child opens becomes its controlling one.
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        stanzaq_spawnattr_setsid(&attributes)
        do {
            pid = try Child.spawn(argv, environment: environment, actions: &actions, attributes: &attributes)
        } catch {
            close(master)
            throw error
        }
        terminal = master
    }

    private static func spawn(_ argv: [String], environment: [String: String],
                              actions: inout posix_spawn_file_actions_t, attributes: UnsafePointer<posix_spawnattr_t>?) throws -> pid_t {
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnvp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, attributes, cArgv, cEnvp)
        guard spawned == 0 else {
            throw RunFailure(description: "posix_spawn \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Waits for the child to end; after `timeout` seconds kills it and returns `nil`.
    /// `meanwhile` runs between checks (to drain a terminal).
    public func wait(timeout: Double, meanwhile: () -> Void = {}) -> Ended? {
        if let ended { return ended }
        let start = Date()
        var rawStatus: Int32 = 0
        var usage = rusage()
        while true {
            pollPeak()
            let reaped = wait4(pid, &rawStatus, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { return nil }
            if Date().timeIntervalSince(start) > timeout {
                kill(pid, SIGKILL)
                _ = wait4(pid, &rawStatus, 0, &usage)
                ended = Ended(status: nil, signal: SIGKILL, peakMemoryKiB: peakKiB(usage))
                return nil
            }
            meanwhile()
            usleep(2_000)
        }
        let signal = rawStatus & 0x7f
        ended = Ended(status: signal == 0 ? (rawStatus >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
                      peakMemoryKiB: peakKiB(usage))
        return ended
    }

    /// The child's own peak memory: `wait4`'s, unless that may be the test's (see ``testPeakKiB``).
    private func peakKiB(_ usage: rusage) -> Int {
        // (A little over the test's own: what the spawning itself adds.)
        Int(usage.ru_maxrss) > testPeakKiB + 32 * 1024 ? Int(usage.ru_maxrss) : polledPeakKiB
    }

    /// Reads the running child's peak memory (`VmHWM`, that of its program since `exec`).
    private func pollPeak() {
        if let kib = peakMemoryKiB(ofProcess: String(pid)) { polledPeakKiB = max(polledPeakKiB, kib) }
    }

    /// Whether the child is still running.
    public var isRunning: Bool {
        if ended != nil { return false }
        var rawStatus: Int32 = 0
        var usage = rusage()
        pollPeak()
        guard wait4(pid, &rawStatus, WNOHANG, &usage) == pid else { return true }
        let signal = rawStatus & 0x7f
        ended = Ended(status: signal == 0 ? (rawStatus >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
                      peakMemoryKiB: peakKiB(usage))
        return false
    }

    /// Sends `signal` to the child.
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        ended == nil && kill(pid, signal) == 0
    }

    deinit {
        if ended == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        if let terminal { close(terminal) }
    }
}

/// A run that did not finish in time, or could not be started.
public struct RunFailure: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}
