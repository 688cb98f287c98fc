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

/// Writes bytes to a descriptor whole, retrying after interruptions; returns
/// 0, or the `errno` of the write that failed.
func writeAll(_ fileDescriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let written = write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return 0
}

/// read(2), for code inside types that have a `read` of their own.
func systemRead(_ fileDescriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fileDescriptor, buffer, count)
}
