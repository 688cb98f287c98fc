import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The producer's side of a log read in parts: cut at line boundaries, each part
/// with the state its reader starts in.
extension ParallelSearch {
    /// Cuts a log into parts at line boundaries, each read by a log reader of its
    /// own (``LogCheckpoint/init(unknownPastAt:format:handover:)``), started in the state the producer's
    /// scanner guesses (``LogCutScanner``); false if it is to be searched whole.
    /// A part is kept only if its reader found that it depends on nothing before
    /// it, was started in the state the reader of the part before handed on, and
    /// ended at a clean cut (``LogReader/canHandOff``); else the log is read
    /// again from its start by one reader, which writes only what it finds from
    /// that part on.
    ///
    /// A log in an envelope is cut likewise, its text taken out by the producer
    /// (`unwrapped`): the parts (or a prefilter's windows) are the text's, with
    /// the input's lines and the envelope's facts (``EnvelopedLines``), until a
    /// second source or damage to the envelope, from whose part on one reader
    /// reads the input again.
    func splitLog(_ path: String, _ fd: Int32, buffer first: [UInt8], format forced: LogFormat?,
                  unwrapped: UnwrappedLog? = nil) -> Bool {
        // A part cannot know, when the format is detected, a format other than
        // the one the log's start shows.
        let detection = first.withUnsafeBufferPointer { LogFormat.detection(atStartOf: $0, atEnd: first.count < 1 << 16) }
        if let skipping = parallelism.skipping, let format = forced ?? detection?.format, format.writtenNeedles(hits: skipping.needles, others: []) != nil {
            let decidedBy = forced == nil ? detection?.decidedBy ?? 0 : 0
            return splitLogAtHits(path, fd, format: format, prefilter: skipping, firstWindow: max(options.parallel.partSize, decidedBy),
                                  unwrapped: unwrapped)
        }
        // (A format that does not opt into cutting is read by one reader: CuttableLogFormat.)
        guard parallelism.logParts, let format = forced ?? detection?.format, format.isCut else {
            close(fd)
            return false
        }
        let parts = LogParts(file: SplitFile(path: path, fileDescriptor: fd), format: format, unwrapped: unwrapped) { [self] in make($0) }
        // The first part holds the line that decided the format (its reader detects it too).
        cut(parts, first: first, searchStart: forced == nil ? detection?.decidedBy ?? 0 : 0)
        _ = make(.end(parts.file))
        return true
    }

    /// Cuts the log of `parts`, which starts with `first`, into parts, the
    /// first one past `searchStart`.
    private func cut(_ parts: LogParts, first: [UInt8], searchStart: Int) {
        let blockSize = 1 << 16
        let source: LogBytes = parts.unwrapped.map { .unwrapped($0) } ?? .file(parts.file.fileDescriptor)
        let file = parts.file
        let scanner = LogCutScanner(format: parts.format)
        // Parts four times as large as an XMPP stream's: a part's reader makes a
        // reader for each direction of each session again, and smaller parts make
        // more of them.
        let partSize = 4 * options.parallel.partSize
        // Each part's bytes are read straight into its array, a part's worth at once
        // (appending each block read copied the whole log once more); a part that
        // needs more grows as before.
        var buffer = filled(first[...], source, at: first.count, size: partSize + blockSize)
        var readTo = buffer.count
        // Where the part in `buffer` ends: the start of the first line at or after
        // `partSize` that a part may start at (or of any line, past four parts).
        var searchFrom = max(partSize - 1, searchStart)
        cutting: while !stopping.load(ordering: .acquiring) && file.fellBackAt.load(ordering: .acquiring) == Int.max {
            if let end = logCut(in: buffer, searchFrom: &searchFrom, limit: 4 * partSize + (parts.index == 0 ? searchStart : 0), scanner) {
                // The scanner notes the part's bytes, then says how the next part starts.
                buffer.withUnsafeBufferPointer { scanner.passed(UnsafeBufferPointer(rebasing: $0[..<end])) }
                let lineEnd = firstNewline(in: buffer, from: end)!
                let nextStart = lines(of: buffer, around: end, lineEnd, scanner.partStart)
                scanner.cut()
                // The part keeps the buffer (no copy); what follows it starts a new one.
                let next = filled(buffer[end...], source, at: readTo, size: partSize + blockSize)
                readTo = parts.offset + end + next.count
                buffer.removeSubrange(end...)
                let bytes = buffer
                buffer = next
                guard parts.make(bytes, endsInput: false, nextStart: nextStart) else { break cutting }
                searchFrom = partSize - 1
                continue
            }
            let more = readBlock(source, at: readTo, size: blockSize)
            if more.isEmpty {
                if let trouble = parts.unwrapped?.trouble {
                    // What follows cannot be read in parts: the rest is read by one reader.
                    parts.rereadRest(because: trouble)
                } else {
                    // The end of the log: the last part.
                    _ = parts.make(buffer, endsInput: true, nextStart: nil)
                }
                break cutting
            }
            if buffer.count > 8 * partSize + blockSize {
                // No line ends in sight: the rest is read by one reader, from the log's start.
                parts.rereadRest()
                break cutting
            }
            // (From a buffer pointer: a memcpy, where Array's append went byte by byte.)
            if buffer.capacity < buffer.count + more.count { buffer.reserveCapacity(2 * partSize + 2 * blockSize) }
            more.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
            readTo += more.count
        }
    }

    /// The start of the first line of `buffer` at or after `searchFrom` where a
    /// part may start and the lines before leave no stanza open (or of any line
    /// past `limit`); `nil` if the buffer holds none yet (`searchFrom` is then
    /// where to look on from).
    private func logCut(in buffer: [UInt8], searchFrom: inout Int, limit: Int, _ scanner: LogCutScanner) -> Int? {
        while searchFrom < buffer.count {
            guard let newline = firstNewline(in: buffer, from: searchFrom) else {
                searchFrom = buffer.count
                return nil
            }
            let lineStart = newline + 1
            guard let lineEnd = firstNewline(in: buffer, from: lineStart) else {
                searchFrom = newline
                return nil
            }
            if lineStart > limit { return lineStart }
            if lines(of: buffer, around: lineStart, lineEnd, scanner.mayStart),
               buffer.withUnsafeBufferPointer({ scanner.endsCleanly($0, at: lineStart) }) {
                return lineStart
            }
            searchFrom = lineEnd
        }
        return nil
    }

    /// `rest` and then the bytes of `fd` from `offset` on, read into the array
    /// itself: `size` bytes in all, fewer at the file's end.
    private func filled(_ rest: ArraySlice<UInt8>, _ source: LogBytes, at offset: Int, size: Int) -> [UInt8] {
        let capacity = max(size, rest.count)
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            count = buffer.initialize(fromContentsOf: rest)
            count += source.read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[count...]), at: offset)
        }
    }

    /// Cuts a log in `envelope` into parts as ``splitLog(_:_:buffer:format:unwrapped:)``
    /// does, its text taken out of the envelope as the parts are made.
    func splitEnvelopedLog(_ path: String, _ fd: Int32, _ envelope: Envelope) -> Bool {
        guard parallelism.logParts || parallelism.skipping != nil else {
            close(fd)
            return false
        }
        var position = 0
        let log = UnwrappedLog(envelope: envelope) { buffer in
            while true {
                let read = pread(fd, buffer.baseAddress, buffer.count, off_t(position))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { return 0 }
                position += read
                return read
            }
        }
        var format = envelope.innerFormat
        if case .log(let given?)? = options.input { format = given }
        let first = readBlock(.unwrapped(log), at: 0, size: 1 << 16)
        return splitLog(path, fd, buffer: first, format: format, unwrapped: log)
    }

    /// `body` of the line of `buffer` from `lineStart` to `lineEnd` and the line before it.
    private func lines<Result>(of buffer: [UInt8], around lineStart: Int, _ lineEnd: Int,
                               _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        buffer.withUnsafeBufferPointer { all in
            let newline = lineStart - 1
            let previousStart = stanzaq_find_last_byte(all.baseAddress!, newline, 0x0A) + 1
            return body(UnsafeBufferPointer(rebasing: all[lineStart..<lineEnd]), UnsafeBufferPointer(rebasing: all[previousStart..<newline]))
        }
    }
}

/// The parts of one log as the producer makes them: where the next one starts
/// (in the log's bytes, and its line), its index, and the state its reader
/// starts in.
private final class LogParts {
    let file: SplitFile
    let format: LogFormat
    /// The envelope the log's text is taken out of, if it is in one.
    let unwrapped: UnwrappedLog?
    private let makeJob: (Job.Work) -> Bool
    private(set) var offset = 0, line = 1, index = 0
    private var start: LogHandover?

    init(file: SplitFile, format: LogFormat, unwrapped: UnwrappedLog?, makeJob: @escaping (Job.Work) -> Bool) {
        self.file = file
        self.format = format
        self.unwrapped = unwrapped
        self.makeJob = makeJob
    }

    /// Makes the part of `bytes`, after which the next one starts in `nextStart`;
    /// false once the search stopped.
    func make(_ bytes: [UInt8], endsInput: Bool, nextStart: LogHandover?) -> Bool {
        let newlines = bytes.withUnsafeBufferPointer(countNewlines)
        let enveloped = unwrapped?.lines(from: offset, to: offset + bytes.count, linesBefore: line - 1, lines: newlines)
        var part = PartOfInput(fileDescriptor: file.fileDescriptor, offset: offset, bytes: bytes, continuing: nil, header: [],
                               line: enveloped?.firstLine ?? line, stanzasBefore: 0, stanzas: nil, log: format,
                               logStart: start, index: index, endsInput: endsInput)
        part.enveloped = enveloped
        index += 1
        start = nextStart
        line += newlines
        offset += bytes.count
        return makeJob(.part(file, part))
    }

    /// The rest of the input, read by one reader from its start (which is
    /// silent up to the part that would start here).
    func rereadRest(because reason: String? = nil) {
        let inputLine = unwrapped.map { $0.lines(from: offset, to: offset, linesBefore: line - 1, lines: 0).firstLine } ?? line
        if let reason { debugParts("\(file.path): read whole from line \(inputLine) on: \(reason)") }
        _ = makeJob(.part(file, .rereading(file, from: inputLine)))
    }
}
