#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `fileDescriptor` to its end in chunks of `chunkSize` bytes, handing each
/// to `body` until `stopped()` says so; retries interrupted reads, and waits
/// where a non-blocking descriptor has nothing yet. Both readers'
/// `read(fileDescriptor:)` are this loop and their own `feed` and `finish`.
/// - Throws: ``StanzaReaderError/io(errno:)`` for a failed read, or what `body` throws.
package func readChunks(of fileDescriptor: Int32, chunkSize: Int, stopped: () -> Bool,
                _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
    defer { buffer.deallocate() }
    while !stopped() {
        let count = read(fileDescriptor, buffer.baseAddress, chunkSize)
        if count < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                // Non-blocking (a parent may have set O_NONBLOCK on a shared descriptor): wait for input.
                var entry = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, -1)
                continue
            }
            throw StanzaReaderError.io(errno: errno)
        }
        if count == 0 { break }
        try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
}
