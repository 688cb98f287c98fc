import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif
import Synchronization

/// The producer of a parallel search: a job for each input, in order, and for
/// each large input that can be cut, a job for each of its parts.
extension ParallelSearch {
    // MARK: - The producer: jobs in input order

    func produce() {
        for item in IteratorSequence(walk()) {
            if stopping.load(ordering: .acquiring) { break }
            switch item {
            case .input(let path):
                if !split(path) { _ = make(.file(path)) }
            case .unreadableDirectory:
                if let diagnostic = Searcher.diagnostic(for: item) { _ = make(.message(diagnostic)) }
            }
        }
        state.lock()
        madeAll = true
        state.broadcast()
        state.unlock()
    }

    /// Adds a job, once fewer than `window` are waiting to be written; false once the search stopped.
    func make(_ work: Job.Work) -> Bool {
        if let writer = inOrder { return runNow(work, writer: writer) }
        state.lock()
        defer { state.unlock() }
        while !stopped && unwritten >= window { state.wait() }
        if stopped { return false }
        switch work {
        case .part(let file, let part) where part.bytes != nil: file.partsMade.add(1, ordering: .relaxed)
        case .windows(let file, let windows): file.partsMade.add(windows.count, ordering: .relaxed)
        case .part, .file, .end, .message: break
        }
        let job = Job(index: nextIndex, work: work)
        nextIndex += 1
        unwritten += 1
        toRun.push(job)
        toWrite.push(job)
        state.broadcast()
        return true
    }

    /// Whether `path` names a file worth cutting into parts: a regular file of
    /// at least two parts.
    func mayBeSplit(_ path: String) -> Bool {
        guard parallelism.streamParts || parallelism.logParts || parallelism.skipping != nil else { return false }
        var status = stat()
        if path == "-" {
            guard fstat(searcher.standardInput, &status) == 0 else { return false }
        } else {
            guard fstatat(options.directory, path.fileSystemPath, &status, 0) == 0 else { return false }
        }
        return (status.st_mode & S_IFMT) == S_IFREG && Int(status.st_size) >= 2 * options.parallel.partSize
    }

    /// The envelope an input that starts with `buffer` is read in, if any.
    private func envelope(of buffer: [UInt8]) -> Envelope? {
        if let envelope = options.envelope { return envelope }
        guard options.recognisesEnvelopes, options.input != .xml else { return nil }
        let head = Array(buffer.prefix(4096))
        guard case .some(.some(let envelope)) = head.withUnsafeBufferPointer({ Envelope.recognised($0, atEnd: head.count < 4096) }) else {
            return nil
        }
        return envelope
    }

    /// Cuts the file at `path` into parts, if it is an XMPP stream, a top-level
    /// sequence of stanzas or a log that can be; false if it is to be searched whole.
    func split(_ path: String) -> Bool {
        guard mayBeSplit(path) else { return false }
        let fd: Int32
        if path == "-" {
            // From its start only: what was read before is not the input's.
            guard lseek(searcher.standardInput, 0, SEEK_CUR) == 0 else { return false }
            fd = fcntl(searcher.standardInput, F_DUPFD_CLOEXEC, 3)
        } else {
            fd = openat(options.directory, path.fileSystemPath, O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { return false }
        let blockSize = 1 << 16
        let buffer = readBlock(fd, at: 0, size: blockSize)
        // Compressed input is read whole, decompressed as it comes: its bytes have no places to cut at.
        if CompressionFormat.startsCompressed(buffer) {
            close(fd)
            return false
        }
        if let envelope = envelope(of: buffer) { return splitEnvelopedLog(path, fd, envelope) }
        if case .log(let format)? = options.input ?? InputKind.recognise(buffer, atEnd: buffer.count < blockSize) {
            return splitLog(path, fd, buffer: buffer, format: format)
        }
        guard parallelism.streamParts || parallelism.skipping != nil else {
            close(fd)
            return false
        }
        let file = SplitFile(path: path, fileDescriptor: fd)
        if let prologue = buffer.withUnsafeBufferPointer({ StreamPrologue($0) }) {
            let scanner = StanzaBoundaryScanner(position: prologue.end)
            if let skipping = parallelism.skipping {
                cutAtHits(file, buffer: buffer, scanner: scanner, header: prologue.header, prefilter: skipping)
            } else {
                cut(file, buffer: buffer, scanner: scanner, header: prologue.header)
            }
        } else if let start = buffer.withUnsafeBufferPointer({ StanzaBoundaryScanner.sequenceStart($0) }) {
            // A top-level sequence of stanzas: cut as a stream is, each part after the
            // first read by a reader taking up the sequence there.
            let scanner = StanzaBoundaryScanner(position: start, sequence: true)
            if let skipping = parallelism.skipping {
                cutAtHits(file, buffer: buffer, scanner: scanner, header: nil, prefilter: skipping)
            } else {
                cut(file, buffer: buffer, scanner: scanner, header: nil)
            }
        } else {
            close(fd)
            return false
        }
        _ = make(.end(file))
        return true
    }

    /// Cuts an XMPP stream (`header`: its start tag) or a top-level sequence of
    /// stanzas (`header` nil) into parts at the boundaries `scanner` finds, from
    /// the first bytes of the file in `buffer`.
    private func cut(_ file: SplitFile, buffer: [UInt8], scanner: StanzaBoundaryScanner, header: [UInt8]?) {
        let fd = file.fileDescriptor
        let blockSize = 1 << 16
        var buffer = buffer
        var scanner = scanner
        // Room for a whole part and the block read past its end, so that the
        // blocks appended to it are copied once (growing it copied all before
        // each time).
        let partCapacity = options.parallel.partSize + 2 * blockSize
        buffer.reserveCapacity(partCapacity)
        var offset = 0, readTo = buffer.count, line = 1, before = 0
        var first = true, index = 0
        func part(_ bytes: [UInt8]?, stanzas: Int?) -> PartOfInput {
            var part = PartOfInput(fileDescriptor: fd, offset: offset, bytes: bytes, continuing: first ? nil : header,
                                   header: header ?? [], line: line, stanzasBefore: before, stanzas: stanzas, sequence: header == nil)
            part.index = index
            return part
        }
        cutting: while !stopping.load(ordering: .acquiring) && file.fellBackAt.load(ordering: .acquiring) == Int.max {
            switch buffer.withUnsafeBufferPointer({ scanner.scan($0, target: options.parallel.partSize) }) {
            case .needMore:
                let more = readBlock(fd, at: readTo, size: blockSize)
                // No place to cut in sight (stanzas all on one line): the rest is read by one reader.
                if more.isEmpty || buffer.count > 4 * options.parallel.partSize + blockSize {
                    _ = make(.part(file, part(nil, stanzas: nil)))
                    break cutting
                }
                buffer.append(contentsOf: more)
                readTo += more.count
            case .boundary(_, let stanzas) where first && header == nil && stanzas < StanzaReader.tentativeLimit:
                // A sequence's first part holds the elements the reader's start phase may
                // hold back (and drop, at an end tag where none is open): all of them, so
                // that its reader leaves the phase where one reader of the whole file does.
                continue cutting
            case .boundary(let end, let stanzas):
                // The part keeps the buffer (no copy); what follows it starts a new one.
                var rest: [UInt8] = []
                rest.reserveCapacity(partCapacity)
                rest.append(contentsOf: buffer[end...])
                buffer.removeSubrange(end...)
                let bytes = buffer
                buffer = rest
                let newlines = bytes.withUnsafeBufferPointer(countNewlines)
                guard make(.part(file, part(bytes, stanzas: stanzas))) else { break cutting }
                index += 1
                line += newlines
                before += stanzas
                offset += end
                scanner.cut(at: end)
                first = false
            case .unsure:
                _ = make(.part(file, part(nil, stanzas: nil)))
                break cutting
            }
        }
    }

    /// The log of `file` read again from its start by one reader, which writes
    /// what it finds from `line` (at `offset`) on.
    func rereading(_ file: SplitFile, from offset: Int, line: Int) -> PartOfInput {
        .rereading(file, from: line)
    }

    func readBlock(_ fd: Int32, at offset: Int, size: Int) -> [UInt8] {
        readBlock(.file(fd), at: offset, size: size)
    }

    func readBlock(_ source: LogBytes, at offset: Int, size: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = source.read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
        }
    }
}
