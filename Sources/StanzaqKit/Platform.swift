// The C library, in the one place that names the platform: every file of
// StanzaqKit, and every module that imports it, sees it from here.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// The message for an `errno` value, as `strerror` gives it.
func errorMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// A new file no one else sees, open for reading and writing: unlinked as
/// soon as it is made, in `$TMPDIR` (or /tmp); `nil` if it cannot be made.
func unlinkedTemporaryFile() -> Int32? {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((directory + "/stanzaq-input-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return nil }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return fd
}

/// Writes bytes to a descriptor whole, retrying after interruptions; returns
/// 0, or the `errno` of the write that failed.
func writeAll(_ fileDescriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let written = write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            // A descriptor a parent made non-blocking (shared with it): wait, as a blocking one would.
            if errno == EAGAIN || errno == EWOULDBLOCK { waitUntilReady(fileDescriptor, for: Int16(POLLOUT)); continue }
            return errno
        }
        offset += written
    }
    return 0
}

/// read(2), for code inside types that have a `read` of their own. A descriptor
/// a parent made non-blocking (`O_NONBLOCK` is shared with it) is waited on, as a
/// blocking one would be, instead of failing with EAGAIN.
func systemRead(_ fileDescriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    while true {
        let result = read(fileDescriptor, buffer, count)
        guard result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { return result }
        waitUntilReady(fileDescriptor, for: Int16(POLLIN))
    }
}

/// Waits until `fileDescriptor` is ready (or a signal comes: poll is never
/// restarted, so Ctrl-C, which ends the input, is seen at once).
func waitUntilReady(_ fileDescriptor: Int32, for events: Int16) {
    var entry = pollfd(fd: fileDescriptor, events: events, revents: 0)
    _ = poll(&entry, 1, -1)
}

/// Seconds on the monotonic clock (the time `--stats` gives).
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
