import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C during a search. The first SIGINT asks the searcher to stop at the
/// next stanza boundary, so that standard output ends with a whole record and
/// stanzaq exits 130 (128 + SIGINT, what a shell reports for a program that
/// Ctrl-C killed). A second one kills at once, as Ctrl-C usually does.
///
/// Not for the REPL: its line editor has a handler of its own.
enum Interruption {
    private static let requested = Atomic<Bool>(false)
    /// The descriptor being read, or -1.
    private static let input = Atomic<Int32>(-1)
    /// `/dev/null`, opened beforehand (the handler only duplicates it).
    private static let devNull = Atomic<Int32>(-1)

    /// The exit status after an interruption.
    static let status: Int32 = 128 + SIGINT

    static func install() {
        // Statics are set up lazily, which is not something to do in a signal handler.
        // /dev/null goes above the standard descriptors: with standard input closed,
        // it would otherwise become descriptor 0 and be read as the input.
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if null >= 0 {
            devNull.store(fcntl(null, F_DUPFD_CLOEXEC, 3), ordering: .relaxed)
            close(null)
        }
        _ = requested.load(ordering: .relaxed)
        _ = input.load(ordering: .relaxed)
        // Atomics, dup2(), signal() and raise() are all async-signal-safe.
        signal(SIGINT) { _ in
            if Interruption.requested.exchange(true, ordering: .relaxed) {
                signal(SIGINT, SIG_DFL)
                raise(SIGINT)
                return
            }
            // The stanza being read will not be wanted: end its input, so that a read
            // waiting on an idle pipe or a terminal (restarted after the handler) or
            // one huge stanza does not keep stanzaq from stopping.
            let fd = Interruption.input.load(ordering: .relaxed)
            let null = Interruption.devNull.load(ordering: .relaxed)
            if fd >= 0 && null >= 0 { _ = dup2(null, fd) }
        }
    }

    /// Whether Ctrl-C was pressed.
    static var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Records the descriptor being read (-1: none), to be ended by Ctrl-C.
    static func reading(_ fd: Int32) {
        input.store(fd, ordering: .relaxed)
    }
}
