#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Opens the inputs a search names (stanzaq(1), "Inputs"): a file, relative to
/// the search's directory, or standard input (`-`). What is in them — XML, a
/// log, compressed data — is told by what reads them (``InputSearch``); which files a
/// directory holds, by ``FileWalk``.
struct InputOpener {
    /// Where relative paths are opened.
    let directory: Int32
    /// The descriptor read for `-` (negative: the process has none).
    let standardInput: Int32

    /// Opens `path` for reading and marks it as the input Ctrl-C ends, or says why it cannot.
    func open(_ path: String, name: String) -> Result<Int32, Diagnostic> {
        if path == "-" && standardInput < 0 {
            // The process was started without standard input.
            return .failure(.reading(name, StanzaReaderError.io(errno: EBADF)))
        }
        // Opened non-blocking: a FIFO with no writer yet would block open() itself,
        // which Ctrl-C (its handler restarts system calls) could not end.
        let fd = path == "-" ? standardInput : openat(directory, path.fileSystemPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { return .failure(.opening(path, errno: errno)) }
        Interruption.reading(fd)
        if fd != standardInput {
            Self.awaitWriter(fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        return .success(fd)
    }

    /// Closes what ``open(_:name:)`` opened (standard input stays open).
    func finish(_ fd: Int32) {
        Interruption.reading(-1)
        if fd != standardInput { close(fd) }
    }

    /// A FIFO opened before any writer: waits for one (poll, unlike open, returns
    /// on Ctrl-C, whose handler also ends the input), so that reading does not
    /// take "no writer yet" for the end of the input.
    private static func awaitWriter(_ fd: Int32) {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&entry, 1, -1) < 0 && errno == EINTR && !Interruption.isRequested {}
    }
}
