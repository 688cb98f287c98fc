#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// One input searched, from its start or from a place inside it
/// (``ReadingStart``): its bytes read (compression undone first), recognised as XML or a log and fed to the
/// ``StanzaStream`` that reads it, and each stanza handed to the searcher's
/// ``StanzaEvaluator`` and the sink. The path of a stanza through the code:
/// ``InputOpener`` → ``InputChunks`` → ``DecompressedInput`` → ``InputKind`` →
/// ``StanzaReader`` or ``LogReader`` → ``take(_:_:)`` → ``StanzaEvaluator`` → sink.
///
/// Generic over the sink, so that release builds call it directly for every stanza.
final class InputSearch<Sink: SearchSink> {
    unowned(unsafe) let searcher: Searcher
    let sink: Sink
    let input: SearchedInput
    /// Where reading starts, and the state the reader starts in there.
    let from: ReadingStart
    let options: SearchOptions
    let evaluator: StanzaEvaluator
    /// `--direction`, asked of every stanza.
    let direction: LogDirection?
    /// The JID bound in each session, with the `jid` field: this input's own.
    let sessionJIDs: SessionJIDs?
    /// `--since`, `--until`, asked of every stanza once the input is open (its
    /// modification time is what a time without a year is before), and `--time-format=iso`.
    var timeFilter: TimeFilter?
    /// With `--merge`: the time of the last stanza of this input that had one.
    private var mergeKey: DateTime?
    var name: String { input.name }

    // The state read and changed for every stanza is not checked for exclusive access.
    /// How many stanzas counted, and the number of the last one read.
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) var number: Int
    /// The output failed: reading stops, and the error is thrown at the end.
    @exclusivity(unchecked) var outputError: OutputError?
    /// After this many stanzas that count, the input has given what is asked (`-m`, `-l`).
    let limit: Int?
    /// What the whole-stanza test found, for the stanzas it decided, in order:
    /// taken up when each is handled, rather than evaluating the queries again.
    let decisions = StartTagDecisions()
    /// A log read again from its start: what is found in its first lines was
    /// written by the searches before (only counted, for stanza numbers).
    let silentThrough: Int

    // The readers' handlers read the readers (where each stanza starts): a
    // cycle, broken when the input ends. (Not `weak`: a weakly referenced
    // object's every retain and release takes the slow path, and they are many.)
    var xmlReader: StanzaReader?
    var logReader: LogReader?
    var envelopeReader: EnvelopeReader?
    /// Whether the input was looked at for an envelope (only a whole input is in one).
    var envelopeDecided: Bool
    /// With `--follow`: what the file's existing content shows it is (``recogniseExistingContent(of:)``).
    var followedKind: InputKind?
    /// The one of them that reads the input, once it is recognised.
    var stream: (any StanzaStream)?
    /// The first bytes, kept until they tell what the input is.
    var start: [UInt8] = []
    /// (A log read from a place inside it: numbered on from there.)
    var linesBefore: Int
    /// Whether the input's warnings were said: once per input, by the reader of its start.
    var warned: Bool
    /// Compression is undone before anything reads the input (an input read from a file already open is never compressed).
    let decompressed: DecompressedInput?
    /// Whether the reader still wants bytes.
    var readsOn = true

    init(_ input: SearchedInput, searcher: Searcher, sink: Sink) {
        self.searcher = searcher
        self.sink = sink
        self.input = input
        options = searcher.options
        evaluator = searcher.evaluator
        direction = searcher.options.direction
        sessionJIDs = searcher.options.tracksSessionJIDs ? SessionJIDs() : nil
        let start = input.start
        from = start
        number = start.stanzasBefore
        limit = [searcher.options.maxCount, sink.stanzasPerInput].compactMap { $0 }.min()
        silentThrough = start.silentThrough
        linesBefore = start.linesBefore
        warned = start.warned
        decompressed = start.file == nil ? DecompressedInput() : nil
        envelopeDecided = !start.isWholeFile || !options.recognisesEnvelopes && options.envelope == nil || options.input == .xml
    }

    /// Searches the input; returns how many of its stanzas counted, and for a
    /// piece of a parallel search, whether it was read cleanly (``verdict(on:)``).
    func run() throws(OutputError) -> (count: Int, clean: Bool) {
        let fd: Int32
        let opener = InputOpener(directory: options.directory, standardInput: searcher.standardInput)
        if let file = from.file {
            fd = file
        } else {
            switch opener.open(input.path, name: name) {
            case .success(let opened): fd = opened
            case .failure(let diagnostic):
                try evaluator.report(diagnostic, sink: sink)
                return (0, true)
            }
        }
        if options.since != nil || options.until != nil || options.isoTimes || options.merge {
            timeFilter = TimeFilter(options: options, reference: TimeFilter.reference(of: fd))
        }
        defer {
            if from.file == nil { opener.finish(fd) }
            xmlReader = nil
            if let scratch = logReader?.scratch { searcher.logScratch = scratch }
            logReader = nil
            envelopeReader = nil
            stream = nil
        }
        do {
            try read(fd)
        } catch where !Interruption.isRequested && outputError == nil {
            try evaluator.report(.reading(name, error), sink: sink)
        } catch {
            // Ctrl-C ended the input in the middle of a stanza: not the input's fault.
        }
        if let outputError { throw outputError }
        return try verdict()
    }

    // MARK: - Stanzas

    /// Every stanza, from the XML reader or the log reader; false: stop reading.
    func take(_ stanza: Element, _ source: StanzaSource?) -> Bool {
        if silentThrough > 0, isSilent(line: source?.line) {
            number += 1
            return true
        }
        var source = source
        if let redactor = searcher.redactor {
            redactor.redact(stanza)
            source = source.map(redactor.redact)
        }
        // (After the redaction: the JID is the redacted one, as in the stanza.)
        if let sessionJIDs, source != nil {
            let jid = sessionJIDs.jid(after: stanza, in: source)
            source?.jid = jid
        }
        // The stanza's time, read once for --since, --until, --time-format and --merge.
        let instant = timeFilter?.instant(of: source)
        if options.merge {
            // (A stanza without a time stays after the one before it.)
            if let instant { mergeKey = instant }
            searcher.output?.beginStanza(at: mergeKey)
        }
        if options.isoTimes, let timeFilter, let instant { source?.time = timeFilter.iso8601(instant) }
        searcher.unboundPrefixes.observe(stanza)
        searcher.statistics.stanzas += 1
        number += 1
        // Taken up for every stanza, even one not evaluated, so that none is kept.
        let known = decisions.isEmpty ? nil : decisions.take(stanza)
        if let limit, count >= limit && !sink.wantsMoreStanzas { return false }
        var place = StanzaPlace(file: name, number: number, source: source)
        if options.merge { place.instant = mergeKey }
        // Left out by --direction, --since or --until: handled as a stanza going the other way.
        let otherDirection = direction.map { source?.direction != $0 } ?? false
            || timeFilter.map { !$0.keeps(source, at: instant, file: name, warn: evaluator.diagnostics.report(_:oncePer:)) } ?? false
        if otherDirection && !sink.seesEitherDirection { return searcher.goesOn(sink) }
        do {
            if otherDirection || (limit.map { count >= $0 } ?? false) {
                // Not selectable: shown only as context (an iq's partner going the other way), not evaluated.
                // Or past the last stanza that counts: shown only as trailing context.
                try sink.passed(stanza, in: place)
            } else if try evaluator.handle(stanza, in: place, sink: sink, decided: known) {
                count += 1
            }
            try sink.endStanza()
        } catch {
            outputError = error
            return false
        }
        if let limit, count >= limit && !sink.wantsMoreStanzas { return false }
        return searcher.goesOn(sink)
    }

    /// Whether what was found at `line` (of a log read again from its start) was
    /// written by the searches before: those that were kept wrote all that the
    /// records of their lines give, even what one reader hands over later (a
    /// stanza queued behind a Prosody start tag that waits for its own whole
    /// stanza, for up to 32 lines). So the line a stanza or damage comes from
    /// tells, not the line being read when it is handed over.
    func isSilent(line: Int?) -> Bool {
        guard let line else { return logReader.map { $0.currentLine <= silentThrough } ?? false }
        return line <= silentThrough
    }

    /// Reports damage the readers found (or decompression did) at `line`, `column`; false:
    /// the output failed, stop.
    func reportDamage(line: Int, column: Int, _ message: String) -> Bool {
        do {
            try evaluator.report(Diagnostic(.position(file: name, line: line, column: column), message), sink: sink)
            searcher.statistics.damageReports += 1
            return true
        } catch {
            outputError = error
            return false
        }
    }

    /// The input's warnings (a field or `--direction` it cannot have), once.
    func warn(_ format: LogFormat?, envelope: Envelope? = nil) {
        if !warned { options.inputWarnings(file: name, format: format, envelope: envelope).forEach(evaluator.diagnostics.report) }
        warned = true
    }

    // MARK: - The end

    /// How many stanzas counted; for a piece of a parallel search, whether it
    /// was read as one reader of the whole input reads it (``verdict(on:)``).
    private func verdict() throws(OutputError) -> (count: Int, clean: Bool) {
        if let piece = input.piece { return verdict(on: piece) }
        if let format = logReader?.format { warn(format) }
        if let envelopeReader { warn(envelopeReader.formats.first, envelope: envelopeReader.envelope) }
        if !Interruption.isRequested { try sink.endInput(name, count: count) }
        return (count, true)
    }
}
