#if canImport(StanzaXML)
import StanzaXML
#endif

/// A log reader's records: how one starts with its header, goes on in further
/// lines and ends, and how its data reaches its channel.
extension LogReader {
    // MARK: - Records

    /// A record starts with `parsed`'s header; its data is `data` (or `parsed.decoded`).
    func startRecord(_ parsed: ParsedLine, data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, number: Int) {
        if let header = parsed.lineHeader {
            // The header's fields are read from the line into the channel's source, in place.
            let session = header.session.map { LogText(UnsafeBufferPointer(rebasing: line[$0])) }
            let time = header.time.map { LogText(UnsafeBufferPointer(rebasing: line[$0])) }
            let key = ChannelKey(direction: header.direction, session: session)
            // (The namespace's String is made only where it is kept.)
            let namespace = header.streamNamespace ?? format?.streamNamespace
            if header.shape == .startTag {
                startTagRecord(key: key, namespace: Self.string(namespace), data: data, line,
                               source: StanzaSource(line: number, direction: header.direction, sessionText: session, timeText: time))
                return
            }
            let channel = channel(for: key, namespace: Self.string(namespace))
            if batch.isFull {
                // Read before this record is kept, when every record kept has ended (a
                // record that may go on is read by its channel, and costs a reader).
                readBatch()
                guard !isStopped else { return }
            }
            if header.shape == .wholeStanzas && parsed.decoded == nil && channel.isIdle {
                record = Record(channel: channel, key: key, shape: .wholeStanzas, line: number)
                noteWholeStanza(nil, data: data, line, channel: channel, key: key)
                guard !isStopped else { return }
                let bytes = UnsafeBufferPointer(rebasing: line[data])
                // Kept while no start tag waits (its place among the stanzas is kept by
                // handing them out at once), and never a stream's start or end (the
                // channel handles those).
                var first = 0
                while first < bytes.count, isXMLSpace(bytes[first]) { first += 1 }
                if keepsRecords && queue.isEmpty && held == nil && streamBoundary(bytes, at: first) == nil {
                    record!.batched = true
                    batch.add(bytes, channel: channel,
                              source: StanzaSource(line: number, direction: header.direction, sessionText: session, timeText: time),
                              column: characterCount(UnsafeBufferPointer(rebasing: line[..<data.lowerBound])) + 1)
                    return
                }
                readBatch()
                guard !isStopped else { return }
                channel.startRecord(line: number, direction: header.direction, session: session, time: time)
                channel.beginWholeRecord()
                feed(nil, data: data, line, newlineBefore: true)
                return
            }
            readBatch()
            guard !isStopped else { return }
            channel.startRecord(line: number, direction: header.direction, session: session, time: time)
            if header.shape == .stream { noteLogsStanzas(channel, key: key) }
            begin(header.shape, parsed, data: data, line, number: number, channel: channel, key: key, separatedByLineBreaks: false)
            return
        }
        guard let header = parsed.header else { return }
        if header.shape != .startTag {
            readBatch()
            guard !isStopped else { return }
        }
        let key = ChannelKey(direction: header.source.direction, session: header.source.sessionText)
        if header.shape == .startTag {
            var source = header.source
            source.line = number
            startTagRecord(key: key, namespace: header.streamNamespace ?? Self.string(format?.streamNamespace), data: data, line, source: source)
            return
        }
        let channel = channel(for: key, namespace: header.streamNamespace ?? Self.string(format?.streamNamespace))
        channel.startRecord(header.source, line: number)
        begin(header.shape, parsed, data: data, line, number: number, channel: channel, key: key,
              separatedByLineBreaks: header.separatedByLineBreaks)
    }

    /// A namespace the format knows, as a String (made only where it is kept).
    static func string(_ namespace: StaticString?) -> String? {
        namespace.map { $0.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } }
    }

    /// The record's channel is known: its first data is read.
    func begin(_ shape: RecordShape, _ parsed: ParsedLine, data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, number: Int,
                       channel: LogChannel, key: ChannelKey, separatedByLineBreaks: Bool) {
        record = Record(channel: channel, key: key, shape: shape, line: number)
        if shape == .wholeStanzas {
            channel.beginWholeRecord()
            noteWholeStanza(parsed.decoded, data: data, line, channel: channel, key: key)
        }
        feed(parsed.decoded, data: data, line, newlineBefore: shape == .wholeStanzas || separatedByLineBreaks)
    }

    /// A kept record goes on in this line: kept with it, unless the line starts or
    /// ends a stream (its channel handles those). False if it is not kept.
    func keepContinuation(_ data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
        let bytes = UnsafeBufferPointer(rebasing: line[data])
        var first = 0
        while first < bytes.count, isXMLSpace(bytes[first]) { first += 1 }
        guard streamBoundary(bytes, at: first) == nil else {
            // The record goes on in its channel.
            readBatch()
            return false
        }
        record!.line = number
        batch.extendLast(bytes, line: number, column: characterCount(UnsafeBufferPointer(rebasing: line[..<data.lowerBound])) + 1)
        if batch.isOverfull { readBatch() }
        return true
    }

    func continueRecord(_ parsed: ParsedLine, _ line: UnsafeBufferPointer<UInt8>, number: Int) {
        guard record?.channel != nil else { return }
        record!.line = number
        // A line break separates this line's data from the previous line's, unless
        // the parser decoded the data (it then includes the breaks that belong to it).
        feed(parsed.decoded, data: parsed.payload, line, newlineBefore: parsed.decoded == nil)
    }

    /// Feeds the record's data: `decoded`, or else the bytes of `line` in `data`.
    func feed(_ decoded: [UInt8]?, data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, newlineBefore: Bool) {
        // The record's fields are the channel's (set once per record): only the line is passed.
        guard let channel = record?.channel else { return }
        let number = record!.line
        let ok: Bool
        if let decoded {
            ok = decoded.withUnsafeBufferPointer {
                channel.feed($0, line: number, column: data.lowerBound + 1,
                             newlineBefore: newlineBefore, exactColumns: false)
            }
            if !decoded.isEmpty { record!.hasData = true }
        } else {
            let bytes = UnsafeBufferPointer(rebasing: line[data])
            ok = channel.feed(bytes, line: number, column: characterCount(UnsafeBufferPointer(rebasing: line[..<data.lowerBound])) + 1,
                              newlineBefore: newlineBefore, exactColumns: true)
            if !line.trimmed(data).isEmpty { record!.hasData = true }
        }
        if !ok { record!.damaged = true }
        if channel.isStopped { isStopped = true }
    }

    /// The record in progress ends: whole stanzas must have ended with it.
    func endRecord() {
        guard record != nil else { return }
        // (A kept record is read with the batch.)
        if record!.batched {
            batch.endLast(at: lineNumber)
            record = nil
            return
        }
        let whole = record!.shape == .wholeStanzas && !record!.damaged, channel = record!.channel
        record = nil
        if whole, let channel {
            channel.endWholeRecord()
        }
    }
}
