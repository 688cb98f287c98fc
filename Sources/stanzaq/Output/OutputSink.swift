#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writing to a file descriptor, whole records at a time.
///
/// Records are appended to a buffer that is written out once it is large, at
/// ``flush()``, or per stanza with `--line-buffered`. A reader that goes away
/// (EPIPE, as with `stanzaq … | head -1`) ends the program quietly; any other
/// failure to write is an error.
final class OutputSink {
    private let fileDescriptor: Int32
    private(set) var buffer: [UInt8] = []
    private let limit = 1 << 16
    /// Called when the reader has gone away; must not return.
    var onBrokenPipe: () -> Never = { exit(0) }
    /// Called when writing fails otherwise (a full disk, a closed descriptor): the
    /// results are lost, so this is an error, as in grep. Must not return.
    var onWriteError: (Int32) -> Never = { code in
        printError("stanzaq: error: write error: \(String(cString: strerror(code)))")
        exit(2)
    }

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(limit * 2)
    }

    /// Appends a whole record and writes the buffer out if it is full.
    func write(_ record: [UInt8]) {
        buffer.append(contentsOf: record)
        if buffer.count >= limit { flush() }
    }

    /// Lets `body` append a whole record to the buffer (no copy), then writes
    /// the buffer out if it is full.
    func writeRecord(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= limit { flush() }
    }

    func write(_ string: String) {
        write(Array(string.utf8))
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                buffer.removeAll()
                if code == EPIPE { onBrokenPipe() }
                onWriteError(code)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes a message line to standard error at once.
func printError(_ message: String) {
    var line = Array(message.utf8)
    line.append(UInt8(ascii: "\n"))
    line.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
}
