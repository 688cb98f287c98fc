import Synchronization

/// Ctrl-C, one design for the search and the REPL.
///
/// The handler only records the request and ends the input being read (so that
/// a read waiting on an idle pipe, a terminal or one huge stanza returns); the
/// code that was running sees ``isRequested`` at its next boundary and stops
/// there, so that standard output ends with a whole record.
///
/// - In a search the first SIGINT stops at the next stanza and stanzaq exits 130
///   (128 + SIGINT, what a shell reports for a program Ctrl-C killed); a second
///   one kills at once, as Ctrl-C usually does. SIGTERM and SIGHUP (a `kill`, a
///   closed terminal) stop the search the same way, with 128 + their number: a
///   reader behind a pipe never gets half a record.
/// - In the REPL every SIGINT abandons what is under way — the line being edited
///   (the handler does not restart the terminal read, so libedit returns), a paste,
///   a `:load` — and the REPL goes on; it calls ``reset()`` before each line.
public enum Interruption {
    public enum Policy: Sendable {
        /// Stop the search; a second Ctrl-C kills.
        case search
        /// Abandon what is under way and go on.
        case session
    }

    private static let requested = Atomic<Bool>(false)
    /// The signal that asked to stop (the first one), or 0.
    private static let signalNumber = Atomic<Int32>(0)
    private static let secondKills = Atomic<Bool>(true)
    /// The descriptor being read, or -1.
    private static let input = Atomic<Int32>(-1)
    /// `/dev/null`, opened beforehand (the handler only duplicates it).
    private static let devNull = Atomic<Int32>(-1)
    /// The pipe the handler writes a byte to (its read end: ``wakeDescriptor``).
    private static let wakeRead = Atomic<Int32>(-1)
    private static let wakeWrite = Atomic<Int32>(-1)

    /// A descriptor that becomes readable when a signal asked to stop (-1 before
    /// ``install(_:)``): a wait in `poll` on it and on the input cannot miss a
    /// Ctrl-C that came just before the wait began (the REPL's terminal reads).
    public static var wakeDescriptor: Int32 { wakeRead.load(ordering: .relaxed) }

    /// Empties the ``wakeDescriptor`` pipe.
    public static func drainWake() {
        let fd = wakeRead.load(ordering: .relaxed)
        guard fd >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(fd, &bytes, bytes.count) > 0 {}
    }

    /// The exit status after an interruption: 128 + the signal (130 for SIGINT).
    public static var status: Int32 {
        let number = signalNumber.load(ordering: .relaxed)
        return 128 + (number == 0 ? SIGINT : number)
    }

    public static func install(_ policy: Policy) {
        // Statics are set up lazily, which is not something to do in a signal handler.
        // /dev/null goes above the standard descriptors: with standard input closed,
        // it would otherwise become descriptor 0 and be read as the input.
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if null >= 0 {
            devNull.store(fcntl(null, F_DUPFD_CLOEXEC, 3), ordering: .relaxed)
            close(null)
        }
        if wakeRead.load(ordering: .relaxed) < 0 {
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                // Above the standard descriptors, as /dev/null; neither end ever blocks.
                let readEnd = fcntl(ends[0], F_DUPFD_CLOEXEC, 3), writeEnd = fcntl(ends[1], F_DUPFD_CLOEXEC, 3)
                close(ends[0])
                close(ends[1])
                _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
                _ = fcntl(writeEnd, F_SETFL, O_NONBLOCK)
                wakeRead.store(readEnd, ordering: .relaxed)
                wakeWrite.store(writeEnd, ordering: .relaxed)
            }
        }
        _ = requested.load(ordering: .relaxed)
        _ = signalNumber.load(ordering: .relaxed)
        _ = input.load(ordering: .relaxed)
        secondKills.store(policy == .search, ordering: .relaxed)
        var action = sigaction()
        // Atomics, dup2(), signal() and raise() are all async-signal-safe.
        action.__sigaction_handler.sa_handler = { number in
            if Interruption.requested.exchange(true, ordering: .relaxed)
                && Interruption.secondKills.load(ordering: .relaxed) {
                signal(number, SIG_DFL)
                raise(number)
                return
            }
            _ = Interruption.signalNumber.compareExchange(expected: 0, desired: number, ordering: .relaxed)
            // What is being read will not be wanted: end its input.
            let fd = Interruption.input.load(ordering: .relaxed)
            let null = Interruption.devNull.load(ordering: .relaxed)
            if fd >= 0 && null >= 0 { _ = dup2(null, fd) }
            let wake = Interruption.wakeWrite.load(ordering: .relaxed)
            if wake >= 0 {
                var byte: UInt8 = 1
                _ = write(wake, &byte, 1)
            }
        }
        sigemptyset(&action.sa_mask)
        // A search restarts its reads (the input, ended, then gives end of file);
        // the REPL's terminal read must return to abandon the line.
        action.sa_flags = policy == .search ? SA_RESTART : 0
        sigaction(SIGINT, &action, nil)
        // A search ends on a whole record whatever asked it to stop; the REPL leaves
        // SIGTERM and SIGHUP alone (they end it, as they end a shell).
        if policy == .search {
            sigaction(SIGTERM, &action, nil)
            sigaction(SIGHUP, &action, nil)
        }
    }

    /// Whether Ctrl-C was pressed (since the last ``reset()``).
    public static var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Forgets a Ctrl-C that was handled.
    public static func reset() {
        requested.store(false, ordering: .relaxed)
        drainWake()
    }

    /// Records the descriptor being read (-1: none), to be ended by Ctrl-C.
    public static func reading(_ fd: Int32) {
        input.store(fd, ordering: .relaxed)
    }
}
