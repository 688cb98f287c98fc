#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Where the bytes of a log cut into parts come from: its file, or the text
/// taken out of the file's envelope (``UnwrappedLog``), read in order.
enum LogBytes {
    case file(Int32)
    case unwrapped(UnwrappedLog)

    /// Reads the bytes from `offset` on into `buffer`: how many, fewer than it
    /// holds only at the end (of the file, or of what can be read in parts).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        switch self {
        case .file(let fd):
            var count = 0
            while count < buffer.count {
                let read = pread(fd, buffer.baseAddress! + count, buffer.count - count, off_t(offset + count))
                if read < 0 && errno == EINTR { continue }
                if read <= 0 { break }
                count += read
            }
            return count
        case .unwrapped(let log):
            return log.read(into: buffer, at: offset)
        }
    }
}
