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

/// The CPUs this process may use, counted as FoundationEssentials'
/// `ProcessInfo.activeProcessorCount` counts them on Linux: the CPU quota of
/// its cgroup (v2's `cpu.max`, v1's `cpu.cfs_quota_us` over
/// `cpu.cfs_period_us`), rounded up, else the CPUs of its affinity mask. Read
/// with two small reads: Foundation's reading of the same files was a tenth
/// of a start-up.
public func availableProcessorCount() -> Int {
    if let quota = cgroupCPUQuota() { return max(1, quota) }
    // The affinity mask as the kernel shows it (sched_getaffinity is not in
    // Swift's Glibc): `Cpus_allowed:\tffffffff,ffffffff`.
    if let status = smallFile("/proc/self/status", upTo: 1 << 13, line: "Cpus_allowed:") {
        let count = status.reduce(0) { $0 + (Int(String($1), radix: 16) ?? 0).nonzeroBitCount }
        if count > 0 { return count }
    }
    return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

/// The cgroup's CPU quota in CPUs, rounded up; `nil` where none is set.
private func cgroupCPUQuota() -> Int? {
    func quota(_ quota: Double, over period: Double) -> Int? {
        quota > 0 && period > 0 ? Int((quota / period).rounded(.up)) : nil
    }
    if let line = smallFile("/sys/fs/cgroup/cpu.max") {
        let fields = line.split(separator: " ")
        guard fields.count == 2, let limit = Double(fields[0]), let period = Double(fields[1]) else { return nil }
        return quota(limit, over: period)
    }
    guard let limit = smallFile("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").flatMap(Double.init),
          let period = smallFile("/sys/fs/cgroup/cpu/cpu.cfs_period_us").flatMap(Double.init) else { return nil }
    return quota(limit, over: period)
}

/// The first line of a small file of the kernel's (the first `size` bytes),
/// or the rest of its line that starts with `line`, if it opens.
private func smallFile(_ path: String, upTo size: Int = 128, line: String? = nil) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: size)
    var count = 0
    while count < size {
        let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, size - count) }
        if got <= 0 { break }
        count += got
    }
    let lines = buffer[..<count].split(separator: 0x0A)
    guard let line else { return lines.first.map { String(decoding: $0, as: UTF8.self) } }
    let prefix = Array(line.utf8)
    guard let found = lines.first(where: { $0.starts(with: prefix) }) else { return nil }
    return String(decoding: found.dropFirst(prefix.count), as: UTF8.self).filter { $0.isHexDigit }
}
