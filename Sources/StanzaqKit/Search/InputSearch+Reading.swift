#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Reading an input: its chunks, compression undone, what it is recognised as, and the
/// reader made for it.
extension InputSearch {
    /// Reads the input from `fd` (or the bytes given) to its end, or until reading stops.
    func read(_ fd: Int32) throws {
        var failure: Error?
        let code: Int32?
        if let bytes = from.bytes {
            // (Bytes that end inside the input: read, not finished.)
            code = nil
            do {
                if let enveloped = from.enveloped {
                    try feedEnveloped(bytes, enveloped)
                } else {
                    _ = try bytes.withUnsafeBytes { try feed($0) }
                }
            } catch { failure = error }
            if let logReader, !from.endsInput { logReader.handOff() }
        } else if from.file != nil {
            code = from.readToEnd(of: fd) { chunk in
                do { return try feed(chunk) } catch { failure = error; return false }
            }
        } else {
            let follows = options.follow && fd != searcher.standardInput ? input.path : nil
            if follows != nil { recogniseExistingContent(of: fd) }
            let copy = fd == searcher.standardInput ? searcher.standardInputCopy : nil
            code = InputChunks.read(fileDescriptor: fd, follow: follows, body: { chunk in
                searcher.statistics.bytes += chunk.count
                copy?.keep(chunk)
                do { return try feedRaw(chunk) } catch { failure = error; return false }
            }, idle: {
                logReader?.idle()
                envelopeReader?.idle()
                do { try sink.flush() } catch { outputError = error as? OutputError }
            }, newFile: { lines in
                if stream == nil { start = [] }
                logReader?.continueInNewFile(linesBefore: lines)
                envelopeReader?.continueInNewFile(linesBefore: lines)
                linesBefore = lines
            })
        }
        if let failure { throw failure }
        if let code { throw StanzaReaderError.io(errno: code) }
        if outputError == nil && from.endsInput { try finish() }
    }

    /// Reads the bytes of a log taken out of its envelope: each stretch of lines
    /// numbered as the input's.
    private func feedEnveloped(_ bytes: [UInt8], _ enveloped: EnvelopedLines) throws {
        // (Makes the reader.)
        guard try feed(UnsafeRawBufferPointer(start: nil, count: 0)) else { return }
        try bytes.withUnsafeBytes { all in
            try enveloped.forEachRun(of: all) { line, run in
                logReader?.numberNextLine(line)
                return try feed(run)
            }
        }
    }

    /// The input has ended: what decompression and the recogniser hold back is read, then the reader ends.
    private func finish() throws {
        if let decompressed, readsOn, let damage = try decompressed.finish({ if readsOn { readsOn = try feed($0) } }) {
            reportCompression(damage)
        }
        _ = try feed(UnsafeRawBufferPointer(start: nil, count: 0), atEnd: true)
        try stream?.finish()
    }

    /// A chunk as read: decompressed when the input is compressed.
    private func feedRaw(_ chunk: UnsafeRawBufferPointer) throws -> Bool {
        guard let decompressed else { return try feed(chunk) }
        let damage = try decompressed.feed(chunk) { if readsOn { readsOn = try feed($0) } }
        if let damage { reportCompression(damage) }
        return readsOn && !decompressed.isSkippingRest && outputError == nil
    }

    private func reportCompression(_ damage: DecompressedInput.Damage) {
        _ = reportDamage(line: damage.place.line, column: damage.place.column, damage.message)
    }

    /// Reads (and recognises) the input, stanzas going to ``take(_:_:)``; false: stop.
    private func feed(_ bytes: UnsafeRawBufferPointer, atEnd: Bool = false) throws -> Bool {
        if let stream {
            try stream.feed(bytes)
            return !stream.isStopped && outputError == nil
        }
        if !envelopeDecided {
            guard recogniseEnvelope(bytes, atEnd: atEnd) else { return true }
            if stream != nil {
                let held = start
                start = []
                if try !held.withUnsafeBytes({ try feed($0) }) { return false }
                return try feed(bytes)
            }
            if !start.isEmpty {
                let held = start
                start = []
                if try !held.withUnsafeBytes({ try feed($0, atEnd: atEnd && bytes.isEmpty) }) { return false }
                return bytes.isEmpty ? true : try feed(bytes, atEnd: atEnd)
            }
        }
        // Reading that starts inside an XMPP stream, a sequence or a log reads on as it.
        let known: InputKind?
        switch from.reader {
        case .stream, .sequence: known = .xml
        case .log(let checkpoint): known = .log(checkpoint.format)
        case nil: known = from.enveloped.map { .log(innerFormat($0.envelope)) }
        }
        if let kind = known ?? followedKind ?? options.input {
            if known == nil && followedKind == nil { checkNamedFormat(kind, firstBytes: bytes) }
            begin(kind)
            return try feed(bytes)
        }
        if start.isEmpty {
            // Most inputs are told by their first bytes: look at those rather
            // than copy the whole first chunk (a small file's every byte, once
            // more, felt over many small files). Recognition of a prefix,
            // not at the end, answers as of the whole or not at all.
            let head = Array(UnsafeRawBufferPointer(rebasing: bytes.prefix(4096)))
            if let kind = InputKind.recognise(head, atEnd: atEnd && head.count == bytes.count) {
                begin(kind)
                return try feed(bytes)
            }
        }
        start.append(contentsOf: bytes)
        guard let kind = InputKind.recognise(start, atEnd: atEnd) else { return true }
        begin(kind)
        let bytes = start
        start = []
        return try bytes.withUnsafeBytes { try feed($0) }
    }

    /// With `--log=NAME`: a warning, once, when the log's first lines have no
    /// record of that format and detection would read them as another
    /// (``LogFormat/misfit(firstBytes:)``).
    private func checkNamedFormat(_ kind: InputKind, firstBytes bytes: UnsafeRawBufferPointer) {
        guard case .log(let named?) = kind, let other = named.misfit(firstBytes: bytes) else { return }
        evaluator.diagnostics.report(.warning("\(name.shownFileName): no record of the \(named) format in its first lines; "
                                              + "it reads as \(other) (--log=\(other), or no --log)"))
    }

    /// The input is recognised: makes its reader, building stanzas only as the search needs them.
    private func begin(_ kind: InputKind) {
        let plan = searcher.readPlan(for: sink) { [unowned(unsafe) self] in decisions.record($0, hasResult: $1) }
        switch kind {
        case .xml:
            let reader = makeXMLReader()
            reader.wholeStanzaTest = plan.wholeStanzaTest
            reader.buildsAttributes = plan.attributes
            xmlReader = reader
            stream = reader
        case .log(let format):
            let reader = makeLogReader(format)
            logReader = reader
            stream = reader
        }
        stream!.depthLimit = plan.depth
        stream!.childSelection = plan.children
    }

    /// Looks at the input's first bytes for an envelope (stanzaq(1), ENVELOPES):
    /// true once decided (``envelopeReader`` made if there is one; the bytes
    /// held in ``start`` are to be read), false while more bytes are needed.
    private func recogniseEnvelope(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) -> Bool {
        var found = options.envelope
        if found == nil {
            var head = start
            head.append(contentsOf: bytes.prefix(max(0, 4096 - head.count)))
            let whole = atEnd && head.count == start.count + bytes.count
            switch head.withUnsafeBufferPointer({ Envelope.recognised($0, atEnd: whole) }) {
            case nil:
                start.append(contentsOf: bytes)
                return false
            case .some(let envelope):
                found = envelope
            }
        }
        envelopeDecided = true
        guard let envelope = found else { return true }
        let plan = searcher.readPlan(for: sink) { [unowned(unsafe) self] in decisions.record($0, hasResult: $1) }
        var format: LogFormat?
        if case .log(let given)? = options.input { format = given }
        let reader = EnvelopeReader(envelope: envelope, format: format, defaultNamespace: options.defaultNamespace,
                                    handler: { [unowned(unsafe) self] in take($0, $1) },
                                    damage: { [unowned(unsafe) self] damage in
                                        guard outputError == nil else { return }
                                        if silentThrough > 0, isSilent(line: damage.line) { return }
                                        _ = reportDamage(line: damage.line, column: damage.column, damage.message)
                                    })
        reader.depthLimit = plan.depth
        reader.childSelection = plan.children
        // (A followed file is read from its end: its lines before are counted.)
        if linesBefore > 0 { reader.continueInNewFile(linesBefore: linesBefore) }
        envelopeReader = reader
        stream = reader
        return true
    }

    private func makeXMLReader() -> StanzaReader {
        warn(nil)
        // The line of each stanza, when it is printed (`--line-number`).
        let placed = !options.fields.isEmpty
        let handler: StanzaReader.Handler = { [unowned(unsafe) self] stanza in
            take(stanza, placed ? xmlReader.map { StanzaSource(line: $0.stanzaLine) } : nil)
        }
        let reader: StanzaReader
        switch from.reader {
        case .stream(let header, let line):
            reader = StanzaReader(continuing: header, line: line, defaultNamespace: options.defaultNamespace,
                                  recovery: .skipDamage, handler: handler)
        case .sequence(let line):
            reader = StanzaReader(continuingSequenceAt: line, defaultNamespace: options.defaultNamespace,
                                  recovery: .skipDamage, handler: handler)
        case .log, nil:
            reader = StanzaReader(defaultNamespace: options.defaultNamespace, recovery: .skipDamage, handler: handler)
        }
        // Damaged input costs the damaged stanza only: reported, skipped, exit 2 at the end.
        reader.damageHandler = { [unowned(unsafe) self] damage in
            // Ctrl-C ended the input in the middle of a stanza: not the input's fault.
            guard !Interruption.isRequested, outputError == nil else { return false }
            guard reportDamage(line: damage.line, column: damage.column, damage.message) else { return false }
            return !Interruption.isRequested
        }
        return reader
    }

    /// The format of a log in `envelope`: as given, or the envelope's; `nil`: detected.
    private func innerFormat(_ envelope: Envelope) -> LogFormat? {
        if case .log(let given?)? = options.input { return given }
        return envelope.innerFormat
    }

    private func makeLogReader(_ format: LogFormat?) -> LogReader {
        let enveloped = from.enveloped
        if enveloped == nil, let format = format ?? from.logFormat { warn(format) }
        let handler: LogReader.Handler = { [unowned(unsafe) self] element, source in
            guard let enveloped else { return take(element, source) }
            var source = source
            enveloped.addFacts(to: &source)
            return take(element, source)
        }
        let damage: (InputDamage) -> Void = { [unowned(unsafe) self] damage in
            guard outputError == nil else { return }
            if silentThrough > 0, isSilent(line: damage.line) { return }
            _ = reportDamage(line: damage.line, column: damage.column, damage.message)
        }
        let reader: LogReader
        if case .log(let checkpoint) = from.reader {
            reader = LogReader(resuming: checkpoint, defaultNamespace: options.defaultNamespace, reusing: searcher.logScratch.take(),
                               handler: handler, damage: damage)
        } else {
            reader = LogReader(format: format, defaultNamespace: options.defaultNamespace, reusing: searcher.logScratch.take(),
                               handler: handler, damage: damage)
            reader.continueInNewFile(linesBefore: linesBefore)
        }
        if from.keepsLedger { reader.keepLedger() }
        return reader
    }
}
