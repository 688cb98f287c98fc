/// Reads an input in chunks: a descriptor to its end, or, with `--follow`, a
/// file as `tail -F` does: from its current end, waiting for more, and across
/// rotation (the name now names another file) and truncation.
struct InputChunks {
    /// Hands each chunk to `body` until it returns `false`; `idle` is called when
    /// a followed file has nothing new, `newFile` when following starts and when
    /// the file is replaced or truncated, with the number of lines not read
    /// before what comes next. Returns `errno` if reading failed.
    static func read(fileDescriptor: Int32, follow path: String?, chunkSize: Int = 1 << 16,
                     body: (UnsafeRawBufferPointer) -> Bool, idle: () -> Void, newFile: (Int) -> Void) -> Int32? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        var fd = fileDescriptor
        var identity = path.flatMap { _ in fileIdentity(fd) }
        var offset = 0
        if path != nil {
            // From the end: the lines before it are counted, so that lines keep their numbers.
            var lines = 0
            while true {
                let count = systemRead(fd, buffer.baseAddress, chunkSize)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                offset += count
                var from = buffer.baseAddress!
                let stop = from + count
                while let found = memchr(from, 0x0A, stop - from) {
                    lines += 1
                    from = UnsafeMutableRawPointer(found) + 1
                }
            }
            newFile(lines)
        }
        defer { if fd != fileDescriptor { close(fd) } }
        while true {
            let count = systemRead(fd, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count > 0 {
                offset += count
                if !body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { return nil }
                continue
            }
            guard let path, !Interruption.isRequested else { return nil }
            idle()
            // Rotated (the name is another file now) or truncated: read the new content from its start.
            var status = stat()
            if stat(path.fileSystemPath, &status) == 0 {
                let now = (device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
                if let known = identity, now != known {
                    let reopened = open(path.fileSystemPath, O_RDONLY | O_CLOEXEC)
                    if reopened >= 0 {
                        if fd != fileDescriptor { close(fd) }
                        fd = reopened
                        Interruption.reading(fd)
                        identity = now
                        offset = 0
                        newFile(0)
                        continue
                    }
                } else if Int(status.st_size) < offset {
                    offset = Int(lseek(fd, 0, SEEK_SET))
                    newFile(0)
                    continue
                }
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            nanosleep(&pause, nil)
            if Interruption.isRequested { return nil }
        }
    }

    private static func fileIdentity(_ fd: Int32) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}
