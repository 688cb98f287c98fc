#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the stanzas inside a log: a server's or a client's debug log, a
/// library's debugger output, tshark's text of a TCP stream, rows exported from
/// an archive (stanzaq(1), LOGS).
///
/// The log is split into lines; a parser for its format (named, or detected
/// from the first line typical of one) finds the records that carry XML, their
/// direction, time and session. Each direction of each session is its own XML
/// stream (``LogChannel``), so a stanza split across lines of the other
/// direction is never spliced. Lines that are not XML are no error; damaged
/// XML is reported through `damage` and skipped.
///
/// ```swift
/// let reader = LogReader(handler: { stanza, source in print(source.line, stanza.name); return true },
///                        damage: { print($0) })
/// reader.feed(Array(log.utf8))
/// reader.finish()
/// ```
public final class LogReader {
    /// Receives each stanza and where the log has it; return `false` to stop.
    public typealias Handler = (Element, StanzaSource) -> Bool

    // The state read and written for every line is marked @exclusivity(unchecked):
    // nothing accesses it re-entrantly, and the run-time checks cost 5% of reading
    // a Prosody log (callgrind, `body#`), as in the XML reader.

    /// The format being read: the one named, or the one detected (`nil` until then).
    @exclusivity(unchecked) public private(set) var format: LogFormat?
    /// How many stanzas have been handed to the handler.
    @exclusivity(unchecked) public private(set) var stanzaCount = 0
    /// The line being read (the last one read, once the log has ended); while
    /// kept records are read, the line of the record read.
    public var currentLine: Int { recordLine ?? lineNumber }
    /// Whether the handler asked to stop.
    @exclusivity(unchecked) public private(set) var isStopped = false
    /// Elements deeper than this below their stanza are not built (see ``StanzaReader/depthLimit``).
    @exclusivity(unchecked) public var depthLimit: Int?
    /// Which children of a stanza's root are built (see ``StanzaReader/childSelection``).
    @exclusivity(unchecked) public var childSelection: ChildSelection?

    private let defaultNamespace: String?
    private let handler: Handler
    private let damage: (LogDamage) -> Void
    @exclusivity(unchecked) private var parser: (any LogLineParser)?

    @exclusivity(unchecked) private var pendingLine: [UInt8] = []
    /// Records of whole stanzas kept to be read together, and the line of the one being read.
    @exclusivity(unchecked) private var batch: WholeRecordBatch
    @exclusivity(unchecked) private var recordLine: Int?
    /// Whether records of whole stanzas are kept to be read together (``WholeRecordBatch``);
    /// off, every record is read by its channel as it comes (the tests compare the two).
    var keepsRecords = true
    @exclusivity(unchecked) private var lineNumber = 0
    /// Lines read before the format is known (bounded).
    private var undetected: [(number: Int, bytes: [UInt8])] = []
    private var detector = FormatDetector()
    /// The prefix of the log's records, learned from its first (formats that have one).
    private var recordPrefix: RecordPrefix?
    /// Lines held to learn whether a line that looks like a record is text of the
    /// stanza left open.
    private var lookahead: RecordLookahead?

    struct ChannelKey: Hashable {
        // The direction first: it tells most keys apart without comparing Strings.
        var direction: LogDirection?
        var session: LogText?
    }
    @exclusivity(unchecked) private var channels: [ChannelKey: LogChannel] = [:]
    /// The channels used lately, looked through before `channels`: a log
    /// interleaves a few sessions, and hashing a session's name for every record costs.
    @exclusivity(unchecked) private var recentChannels: [(key: ChannelKey, channel: LogChannel)] = []
    @exclusivity(unchecked) private var nextRecent = 0
    private static let recentLimit = 16
    @exclusivity(unchecked) private var uses = 0
    static let channelLimit = 256

    /// The record whose lines are being read.
    private struct Record {
        var channel: LogChannel?
        var key: ChannelKey
        var shape: RecordShape
        /// The line being read.
        var line: Int
        var damaged = false
        var hasData = false
        /// Kept in ``batch``, not fed to its channel.
        var batched = false
    }
    @exclusivity(unchecked) private var record: Record?

    /// Start-tag-only stanzas waiting to learn whether the whole stanza follows,
    /// and the stanzas read after them (kept so that output stays in log order).
    private enum Queued {
        case stanza(Element, StanzaSource)
        case startTag(WaitingStartTag)
    }
    /// A start tag logged before its whole stanza may be (a class: looked at in
    /// the queue for every whole stanza, and not copied for it).
    private final class WaitingStartTag {
        let key: ChannelKey
        let tag: [UInt8]
        let namespace: String?
        let source: StanzaSource
        let column: Int
        /// The line after which it is reported as it is.
        let until: Int

        init(key: ChannelKey, tag: UnsafeBufferPointer<UInt8>, namespace: String?, source: StanzaSource, column: Int, until: Int) {
            self.key = key
            self.tag = Array(tag)
            self.namespace = namespace
            self.source = source
            self.column = column
            self.until = until
        }
    }
    @exclusivity(unchecked) private var queue: [Queued] = []
    private static let startTagWindow = 32
    private var tagReaders: [String: StanzaReader] = [:]
    private var parsedTag: Element?

    /// The top tag of the last whole stanza, not yet put among its channel's
    /// recent ones: Prosody logs the start tag of a received stanza on the line
    /// after the stanza, and this spares remembering (copying) it for the channel.
    @exclusivity(unchecked) private var lastWhole: (key: ChannelKey, channel: LogChannel)?
    @exclusivity(unchecked) private var lastWholeTag: [UInt8] = []
    /// A start tag whose whole stanza may be on the next line (Prosody logs a sent
    /// stanza's start tag just before the stanza): held here for one line, and
    /// queued as any start tag if the next line is not that stanza.
    @exclusivity(unchecked) private var held: ChannelKey?
    @exclusivity(unchecked) private var heldTag: [UInt8] = []
    @exclusivity(unchecked) private var heldRest: (namespace: String?, source: StanzaSource, column: Int, until: Int)?

    /// Set before the first input when the reader starts in the middle of a log
    /// (a part of a log read on its own, in a parallel search): the reader then
    /// notes whether anything it did may depend on the lines before its start
    /// (``dependsOnEarlierLines``).
    @exclusivity(unchecked) public var startsMidLog = false
    /// For a reader that ``startsMidLog``: whether what it read may not be what a
    /// reader of the whole log reads there, even if that reader was ``isAtCleanCut``
    /// at the start — a line that continues a record begun before, damage (its
    /// message may depend on what came before), channels enough to forget one.
    /// A parallel search then reads the log another way. (What depends on the
    /// stanzas logged before — start tags that a whole stanza accounts for — is
    /// in ``cutLog``, checked by ``LogCutState``.)
    @exclusivity(unchecked) public private(set) var dependsOnEarlierLines = false
    /// Whether a line that ends any record begun before the start has been read.
    @exclusivity(unchecked) private var endedEarlierRecord = false
    /// Set before the first input to keep ``cutLog``.
    @exclusivity(unchecked) public var recordsCuts = false
    /// What the reader did that depends on the whole stanzas logged before
    /// (kept when ``recordsCuts``).
    @exclusivity(unchecked) public private(set) var cutLog = LogCutLog()

    /// Creates a reader.
    /// - Parameters:
    ///   - format: the log's format; `nil` to detect it.
    ///   - defaultNamespace: as ``StanzaReader``'s, for stanzas whose stream's namespace is unknown.
    ///   - handler: called with each stanza, in log order.
    ///   - damage: called with each piece of damaged XML found (the stanza is skipped).
    public init(format: LogFormat? = nil, defaultNamespace: String? = nil,
                handler: @escaping Handler, damage: @escaping (LogDamage) -> Void) {
        self.format = format
        self.defaultNamespace = defaultNamespace
        self.handler = handler
        self.damage = damage
        batch = WholeRecordBatch(defaultNamespace: defaultNamespace)
        parser = format?.makeParser()
    }

    // MARK: - Input

    /// Reads more of the log. Stanzas completed by it are handed over before this returns.
    public func feed(_ bytes: UnsafeRawBufferPointer) {
        let all = bytes.bindMemory(to: UInt8.self)
        var start = 0
        // What was fed is read before this returns (the kept records too).
        defer { readBatch() }
        while start < all.count && !isStopped {
            guard let newline = all.firstIndex(of: 0x0A, from: start) else {
                hold(UnsafeBufferPointer(rebasing: all[start...]))
                return
            }
            if pendingLine.isEmpty && !skippingLongLine {
                readLine(UnsafeBufferPointer(rebasing: all[start..<newline]))
            } else {
                hold(UnsafeBufferPointer(rebasing: all[start..<newline]))
                readHeldLine()
            }
            start = newline + 1
        }
    }

    /// The longest line read: a stanza's limit, and room for its record's prefix.
    /// A longer line is reported and skipped, never held whole.
    static let maximumLineLength = StanzaReader.maximumStanzaBytes + (1 << 16)
    /// Whether the line being read is over ``maximumLineLength`` (and skipped).
    private var skippingLongLine = false

    /// Holds part of a line that goes on in the next input.
    private func hold(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !skippingLongLine else { return }
        guard pendingLine.count + bytes.count <= Self.maximumLineLength else {
            damaged(LogDamage(line: lineNumber + 1, column: 1,
                              message: "a line longer than \(Self.maximumLineLength) bytes (stanzaq's limit): skipped"))
            pendingLine = []
            skippingLongLine = true
            return
        }
        pendingLine.append(contentsOf: bytes)
    }

    /// Reads the line held (its end has come), or counts the one skipped.
    private func readHeldLine() {
        if skippingLongLine {
            skippingLongLine = false
            lineNumber += 1
            return
        }
        // (Swapped out, not copied: a copy of a long line doubled what it held.)
        var line: [UInt8] = []
        swap(&line, &pendingLine)
        line.withUnsafeBufferPointer { readLine($0) }
        if line.capacity <= 1 << 20 {
            line.removeAll(keepingCapacity: true)
            pendingLine = line
        }
    }

    /// Reads more of the log (see ``feed(_:)-(UnsafeRawBufferPointer)``).
    public func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Declares the end of the log: reads a last line without a newline, and
    /// reports stanzas left unfinished.
    public func finish() {
        if (!pendingLine.isEmpty || skippingLongLine) && !isStopped { readHeldLine() }
        if parser == nil && !undetected.isEmpty { settle(on: detector.atEnd) }
        releaseLookahead(asText: 0)
        endRecord()
        readBatch()
        releaseHeld()
        if !isStopped {
            for channel in channels.values.sorted(by: { $0.lastUse < $1.lastUse }) { channel.finish() }
        }
        flushQueue(all: true)
    }

    /// The input goes on in another file (a followed log was rotated or
    /// truncated), after `linesBefore` lines that are not read: a line left
    /// unfinished is dropped, and lines are numbered on from there.
    public func continueInNewFile(linesBefore: Int) {
        pendingLine.removeAll()
        skippingLongLine = false
        endRecord()
        readBatch()
        lineNumber = linesBefore
    }

    /// Says that no more input is coming for now (a followed log is idle):
    /// start tags still waiting for their whole stanza are handed over as they are.
    public func idle() {
        readBatch()
        releaseHeld()
        flushQueue(all: true)
    }

    /// Reads a file descriptor to its end.
    public func read(fileDescriptor: Int32, chunkSize: Int = 1 << 16) throws {
        try readChunks(of: fileDescriptor, chunkSize: chunkSize, stopped: { isStopped }) { feed($0) }
        finish()
    }

    /// Reads a whole log held in memory: its stanzas with their sources, and the damage found.
    public static func stanzas(in text: String, format: LogFormat? = nil, defaultNamespace: String? = nil)
        -> (stanzas: [(element: Element, source: StanzaSource)], damage: [LogDamage]) {
        var stanzas: [(element: Element, source: StanzaSource)] = []
        var damage: [LogDamage] = []
        let reader = LogReader(format: format, defaultNamespace: defaultNamespace,
                               handler: { stanzas.append(($0, $1)); return true }, damage: { damage.append($0) })
        reader.feed(Array(text.utf8))
        reader.finish()
        return (stanzas, damage)
    }

    // MARK: - Lines

    private func readLine(_ raw: UnsafeBufferPointer<UInt8>) {
        lineNumber += 1
        withTerminalEscapesRemoved(raw) { dispatch($0, number: lineNumber) }
        flushQueue(all: false)
    }

    private func dispatch(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
        if parser == nil {
            undetected.append((number, Array(line)))
            if let detected = detector.decide(after: line) { settle(on: detected) }
            return
        }
        interpret(line, number: number)
    }

    /// The format is known: reads the lines kept while it was not.
    private func settle(on detected: LogFormat) {
        format = detected
        parser = detected.makeParser()
        let kept = undetected
        undetected = []
        for (number, bytes) in kept where !isStopped {
            bytes.withUnsafeBufferPointer { interpret($0, number: number) }
        }
    }

    private func interpret(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
        guard !isStopped, lookahead == nil || hold(line, number: number), var parsed = parser?.parse(line) else { return }
        if parsed.kind == .record || parsed.kind == .maybeMoreElseRecord || parsed.kind == .text, format?.learnsRecordPrefix == true {
            switch role(ofRecordLine: line, number: number) {
            case .record: break
            case .text: parsed = ParsedLine(kind: .more, payload: 0..<line.contentEnd)
            case .held: return
            }
        }
        interpretParsed(parsed, line, number: number)
    }

    private func interpretParsed(_ parsed: ParsedLine, _ line: UnsafeBufferPointer<UInt8>, number: Int) {
        if record?.batched == true && parsed.kind != .record && parsed.kind != .text && !(parsed.kind == .more && parsed.decoded == nil) {
            // The kept record may go on in this line: it is read now, and its channel reads on.
            readBatch(lastGoesOn: true)
            guard !isStopped else { return }
        }
        if startsMidLog && !endedEarlierRecord {
            // A record begun before the start may go on in this line: not known here.
            switch parsed.kind {
            case .record, .text, .maybeMoreElseRecord: endedEarlierRecord = true
            case .more, .maybeMore: dependsOnEarlierLines = true
            case .unrelated: break
            }
        }
        if held != nil && !(parsed.kind == .record && (parsed.lineHeader?.shape ?? parsed.header?.shape) == .wholeStanzas) { releaseHeld() }
        switch parsed.kind {
        case .text:
            endRecord()
        case .unrelated:
            break
        case .record:
            endRecord()
            startRecord(parsed, data: parsed.payload, line, number: number)
        case .more:
            guard record != nil, !record!.damaged else { return }
            if record!.batched && parsed.decoded == nil && keepContinuation(parsed.payload, line, number: number) { return }
            continueRecord(parsed, line, number: number)
        case .maybeMoreElseRecord:
            if let current = record, !current.damaged, let channel = current.channel, !channel.isBetweenStanzas {
                continueRecord(parsed, line, number: number)
            } else {
                endRecord()
                let range = parsed.recordData
                startRecord(parsed, data: range, line, number: number)
                // Text after the last tag belongs to a stanza the line leaves open.
                if let current = record, !current.damaged, let channel = current.channel, !channel.isBetweenStanzas,
                   range.upperBound < parsed.payload.upperBound {
                    feed(nil, data: range.upperBound..<parsed.payload.upperBound, line, newlineBefore: false)
                }
            }
        case .maybeMore:
            guard let current = record, !current.damaged, let channel = current.channel else { endRecord(); return }
            let blank = parsed.decoded == nil && line.trimmed(parsed.payload).isEmpty
            if !channel.isBetweenStanzas || !current.hasData || blank {
                continueRecord(parsed, line, number: number)
            } else {
                endRecord()
            }
        }
    }

    // MARK: - Record prefixes

    private enum RecordLineRole { case record, text, held }

    /// What a line that looks like a record is: text if its prefix is not the
    /// log's; held (``lookahead``, which reads it once it knows) where the prefix
    /// cannot tell it from text of the stanza left open; a record otherwise.
    private func role(ofRecordLine line: UnsafeBufferPointer<UInt8>, number: Int) -> RecordLineRole {
        let prefix = RecordPrefix(of: line)
        guard let learned = recordPrefix else {
            recordPrefix = prefix
            if recordsCuts { cutLog.recordPrefix = prefix }
            return .record
        }
        guard prefix == learned else { return .text }
        // (Only a record of whole stanzas ends the stanza left open: in a stream's
        // records, it goes on in its channel's next record.)
        guard !learned.hasTime, record?.shape == .wholeStanzas else { return .record }
        readBatch()
        guard !isStopped, let current = record, !current.damaged, let channel = current.channel, channel.openDepth > 0 else {
            return .record
        }
        lookahead = RecordLookahead(depth: channel.openDepth)
        _ = hold(line, number: number)
        return .held
    }

    /// Holds a line for ``lookahead``; once it decides, reads the lines held. False:
    /// the line was taken.
    private func hold(_ line: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
        switch lookahead!.hold(line, number: number) {
        case .undecided: break
        case .text(let count): releaseLookahead(asText: count)
        case .record: releaseLookahead(asText: 0)
        }
        return false
    }

    /// Reads the lines held, the first `count` of them as text of the open stanza.
    private func releaseLookahead(asText count: Int) {
        guard let held = lookahead?.lines else { return }
        lookahead = nil
        for (index, entry) in held.enumerated() where !isStopped {
            entry.bytes.withUnsafeBufferPointer { line in
                if index < count {
                    interpretParsed(ParsedLine(kind: .more, payload: 0..<line.contentEnd), line, number: entry.number)
                } else if index == 0, let parsed = parser?.parse(line) {
                    interpretParsed(parsed, line, number: entry.number)   // the record, as it is
                } else {
                    interpret(line, number: entry.number)
                }
            }
        }
    }

    /// A record starts with `parsed`'s header; its data is `data` (or `parsed.decoded`).
    private func startRecord(_ parsed: ParsedLine, data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, number: Int) {
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
    private static func string(_ namespace: StaticString?) -> String? {
        namespace.map { $0.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } }
    }

    /// The record's channel is known: its first data is read.
    private func begin(_ shape: RecordShape, _ parsed: ParsedLine, data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, number: Int,
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
    private func keepContinuation(_ data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
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

    private func continueRecord(_ parsed: ParsedLine, _ line: UnsafeBufferPointer<UInt8>, number: Int) {
        guard record?.channel != nil else { return }
        record!.line = number
        // A line break separates this line's data from the previous line's, unless
        // the parser decoded the data (it then includes the breaks that belong to it).
        feed(parsed.decoded, data: parsed.payload, line, newlineBefore: parsed.decoded == nil)
    }

    /// Feeds the record's data: `decoded`, or else the bytes of `line` in `data`.
    private func feed(_ decoded: [UInt8]?, data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, newlineBefore: Bool) {
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
    private func endRecord() {
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

    // MARK: - Kept records

    /// Reads the records kept, in order, and hands their stanzas on: those read
    /// cleanly together, the others read by their channels (as they would have
    /// been had they not been kept), each as of its line. A record that may go on
    /// (the last) is then read on by its channel; if it does (`lastGoesOn`), its
    /// channel reads it whole (its stanza most likely goes on too).
    private func readBatch(lastGoesOn: Bool = false) {
        guard !batch.isEmpty else { return }
        defer {
            batch.clear()
            recordLine = nil
            // (Reading stopped before it: the record is dropped with the batch.)
            if record?.batched == true { record!.batched = false }
        }
        // (Fields are read in place: a copy of an entry retained and released its channel and texts.)
        let entries = batch.entries
        var start = 0
        var together = 0..<0, alone = 0
        for index in entries.indices where !isStopped {
            if index >= together.upperBound && index >= alone {
                // The records that can be read in one call: ended, of one stream, their channels idle.
                var next = index
                while next < entries.count, entries[next].endedAt != nil, entries[next].namespace == entries[index].namespace,
                      entries[next].channel.isIdle { next += 1 }
                if next - index > 1,
                   batch.read(index..<next, from: start, depthLimit: depthLimit, childSelection: childSelection) {
                    together = index..<next
                } else {
                    alone = max(next, index + 1)
                }
            }
            if together.contains(index) {
                start = entries[index].end
                continue
            }
            // (A channel that has read a record alone may hold what the next depends on.)
            let ended = entries[index].endedAt != nil
            let clean = !(lastGoesOn && !ended) && entries[index].channel.isIdle
                && batch.read(index..<(index + 1), from: start, depthLimit: depthLimit, childSelection: childSelection)
            if !clean {
                // The stanzas before it first (they may stop the reading).
                handBatchStanzas()
                if isStopped { break }
            }
            if !ended {
                goOn(index, from: start, read: clean)
            } else if !clean {
                readAlone(index, from: start)
            }
            start = entries[index].end
        }
        handBatchStanzas()
    }

    private func handBatchStanzas() {
        let entries = batch.entries
        for (element, index, line, endLine) in batch.stanzas {
            recordLine = endLine == 0 ? entries[index].source.line : endLine
            if line == 0 {
                if !deliver(element, entries[index].source) { break }
            } else {
                var source = entries[index].source
                source.line = line
                if !deliver(element, source) { break }
            }
        }
        batch.forgetStanzas()
        recordLine = nil
    }

    /// Feeds the kept record `index` (its data from `start`) to its channel, line
    /// by line as it would have been fed: false at damage (the lines after it are not fed).
    private func feedKept(_ index: Int, from start: Int, to channel: LogChannel) -> Bool {
        let entry = batch.entries[index]
        return batch.data.withUnsafeBufferPointer { data in
            var from = start + 1, line = entry.source.line, column = entry.column
            for continuation in batch.continuations[entry.continuations] {
                recordLine = line
                if !channel.feed(UnsafeBufferPointer(rebasing: data[from..<continuation.newline]), line: line, column: column,
                                 newlineBefore: true, exactColumns: true) { return false }
                (from, line, column) = (continuation.newline + 1, continuation.line, continuation.column)
            }
            recordLine = line
            return channel.feed(UnsafeBufferPointer(rebasing: data[from..<entry.end]), line: line, column: column,
                                newlineBefore: true, exactColumns: true)
        }
    }

    /// A kept record that has ended, read by its channel as its lines would have been read.
    private func readAlone(_ index: Int, from start: Int) {
        let entry = batch.entries[index]
        let channel = entry.channel
        channel.startRecord(entry.source, line: entry.source.line)
        channel.beginWholeRecord()
        if feedKept(index, from: start, to: channel) {
            recordLine = entry.endedAt
            channel.endWholeRecord()
        }
        recordLine = nil
        if channel.isStopped { isStopped = true }
    }

    /// The record being read, kept so far, goes on as a record of its channel:
    /// its lines so far fed to the channel unless it was `read` cleanly (the
    /// channel is then as if it had been).
    private func goOn(_ index: Int, from start: Int, read: Bool) {
        let entry = batch.entries[index]
        let channel = entry.channel
        record!.batched = false
        channel.startRecord(entry.source, line: entry.source.line)
        channel.beginWholeRecord()
        if batch.data[(start + 1)..<entry.end].contains(where: { !isXMLSpace($0) }) { record!.hasData = true }
        guard !read else { return }
        if !feedKept(index, from: start, to: channel) {
            record!.damaged = true
        }
        recordLine = nil
        if channel.isStopped { isStopped = true }
    }

    private func channel(for key: ChannelKey, namespace: @autoclosure () -> String?) -> LogChannel {
        uses += 1
        if let channel = recentChannel(for: key) {
            channel.lastUse = uses
            return channel
        }
        if let existing = channels[key] {
            remember(key, existing)
            existing.lastUse = uses
            return existing
        }
        if channels.count >= Self.channelLimit {
            // (Mid-log, which channel goes depends on those made before the start.)
            if startsMidLog { dependsOnEarlierLines = true }
            // Forget the channel idle longest that holds no partial stanza.
            if let idle = channels.filter({ $0.value.isBetweenStanzas }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                channels[idle.key] = nil
                recentChannels.removeAll { $0.key == idle.key }
                nextRecent = 0
            }
        }
        let channel = LogChannel(
            namespace: namespace(), defaultNamespace: defaultNamespace, depthLimit: depthLimit, childSelection: childSelection,
            deliver: { [unowned self] element, source in self.deliver(element, source) },
            report: { [unowned self] in self.damaged($0) })
        channel.lastUse = uses
        channels[key] = channel
        if recordsCuts { cutLog.operations.append(.made(key)) }
        remember(key, channel)
        return channel
    }

    private func existingChannel(for key: ChannelKey) -> LogChannel? {
        recentChannel(for: key) ?? channels[key]
    }

    /// The channel of `key` among those used lately: compared in place, the direction first.
    private func recentChannel(for key: ChannelKey) -> LogChannel? {
        recentChannels.withUnsafeBufferPointer { recent in
            for index in recent.indices where recent[index].key.direction == key.direction && recent[index].key.session == key.session {
                return recent[index].channel
            }
            return nil
        }
    }

    private func remember(_ key: ChannelKey, _ channel: LogChannel) {
        if recentChannels.count < Self.recentLimit {
            recentChannels.append((key, channel))
        } else {
            recentChannels[nextRecent] = (key, channel)
            nextRecent = (nextRecent + 1) % Self.recentLimit
        }
    }

    // MARK: - Start-tag-only records

    /// Where the top tag of a whole stanza is, as Prosody's `top_tag()` writes it, without its `>`.
    private func topTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let start = bytes.skippingBlanks(from: 0)
        guard start < bytes.count, bytes[start] == 0x3C, let close = bytes.firstIndex(of: 0x3E, from: start) else { return nil }
        var end = close
        if end > start, bytes[end - 1] == 0x2F { end -= 1 }
        return start..<end
    }

    /// A whole stanza is logged: it may be the one a start tag waits for, or one a start tag will follow.
    private func noteWholeStanza(_ decoded: [UInt8]?, data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, channel: LogChannel, key: ChannelKey) {
        if let decoded {
            decoded.withUnsafeBufferPointer { noteTopTag(of: $0, channel: channel, key: key) }
        } else {
            noteTopTag(of: UnsafeBufferPointer(rebasing: line[data]), channel: channel, key: key)
        }
    }

    private func noteTopTag(of data: UnsafeBufferPointer<UInt8>, channel: LogChannel, key: ChannelKey) {
        channel.logsWholeStanzas = true
        guard let range = topTag(data) else { releaseHeld(); return }
        let tag = UnsafeBufferPointer(rebasing: data[range])
        // The start tag logged just before, waiting for this stanza, is not reported.
        if held == key, equal(heldTag, tag) {
            held = nil
            heldRest = nil
            return
        }
        releaseHeld()
        if !queue.isEmpty {
            for index in queue.indices {
                if case .startTag(let waiting) = queue[index], waiting.key == key, equal(waiting.tag, tag) {
                    queue.remove(at: index)
                    return
                }
            }
        }
        // A start tag may follow: the previous whole stanza's tag goes among its channel's.
        if let previous = lastWhole {
            lastWholeTag.withUnsafeBufferPointer { previous.channel.recentTopTags.remember($0) }
        }
        lastWhole = (key, channel)
        lastWholeTag.removeAll(keepingCapacity: true)
        lastWholeTag.append(contentsOf: tag)
        if recordsCuts { cutLog.operations.append(.whole(key, cutLog.keep(tag))) }
    }

    /// Whether `bytes` holds `tag`, its attributes in any order (``sameStartTag``).
    private func equal(_ bytes: [UInt8], _ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == tag.count && bytes.withUnsafeBufferPointer { sameStartTag($0, tag) }
    }

    /// The start tag held for a line goes into the queue, as any start tag waiting for its stanza.
    private func releaseHeld() {
        guard let key = held, let rest = heldRest else { return }
        // The stanzas of the records kept come before it.
        readBatch()
        held = nil
        heldRest = nil
        heldTag.withUnsafeBufferPointer { tag in
            queue.append(.startTag(WaitingStartTag(key: key, tag: tag, namespace: rest.namespace, source: rest.source,
                                                   column: rest.column, until: rest.until)))
        }
    }

    private func startTagRecord(key: ChannelKey, namespace: @autoclosure () -> String?, data range: Range<Int>, _ line: UnsafeBufferPointer<UInt8>,
                                source: @autoclosure () -> StanzaSource) {
        let data = UnsafeBufferPointer(rebasing: line[range])
        let start = data.skippingBlanks(from: 0)
        // Only an element's start tag: not `<?xml …?>`, `</…>` or a stream's header.
        guard start + 1 < data.count, data[start] == 0x3C, isASCIILetter(data[start + 1]) || data[start + 1] == 0x5F || data[start + 1] >= 0x80,
              !data.has("<stream:stream", at: start), let range = topTag(data) else { return }
        let tag = UnsafeBufferPointer(rebasing: data[range])
        // The whole stanza was logged just before: the last one, or one its channel remembers.
        if lastWhole?.key == key, equal(lastWholeTag, tag) {
            lastWhole = nil
            if recordsCuts { cutLog.operations.append(.startTag(key, cutLog.keep(tag), .lastWhole)) }
            return
        }
        if let channel = existingChannel(for: key), channel.recentTopTags.forget(tag) {
            if recordsCuts { cutLog.operations.append(.startTag(key, cutLog.keep(tag), .remembered)) }
            return
        }
        if recordsCuts { cutLog.operations.append(.startTag(key, cutLog.keep(tag), .neither)) }
        releaseHeld()
        held = key
        heldRest = (namespace(), source(), range.lowerBound + start + 1, lineNumber + Self.startTagWindow)
        heldTag.removeAll(keepingCapacity: true)
        heldTag.append(contentsOf: tag)
    }

    /// Reports damage.
    private func damaged(_ found: LogDamage) {
        if startsMidLog { dependsOnEarlierLines = true }
        damage(found)
    }

    // MARK: - Cuts

    /// Whether a reader started afresh here, mid-log (``startsMidLog``) with the
    /// format this one reads, reads on as this one does — as long as it does not
    /// find that it ``dependsOnEarlierLines``: the last line is whole, the format is
    /// known and its parser holds nothing from earlier lines, no stanza is partly
    /// read in any direction of any session (nor damage being skipped), no start
    /// tag waits for its stanza, and every stream's namespace is the one its
    /// records give it.
    public var isAtCleanCut: Bool {
        guard !isStopped, pendingLine.isEmpty, !skippingLongLine, undetected.isEmpty, batch.isEmpty, let parser, parser.isAtRest, held == nil, queue.isEmpty,
              lookahead == nil
        else { return false }
        for channel in channels.values where !channel.isAtRest { return false }
        return true
    }

    /// Hands a stanza over, after the start tags still waiting before it.
    private func deliver(_ element: Element, _ source: StanzaSource) -> Bool {
        if queue.isEmpty { return hand(element, source) }
        queue.append(.stanza(element, source))
        return !isStopped
    }

    private func hand(_ element: Element, _ source: StanzaSource) -> Bool {
        guard !isStopped else { return false }
        stanzaCount += 1
        if !handler(element, source) { isStopped = true }
        return !isStopped
    }

    private func flushQueue(all: Bool) {
        guard !queue.isEmpty else { return }
        while let first = queue.first, !isStopped {
            switch first {
            case .stanza(let element, let source):
                queue.removeFirst()
                _ = hand(element, source)
            case .startTag(let waiting):
                guard all || lineNumber >= waiting.until else { return }
                queue.removeFirst()
                guard reportsAlone(waiting.key) else { continue }
                if let element = childless(waiting.tag, namespace: waiting.namespace, source: waiting.source, column: waiting.column) {
                    _ = hand(element, waiting.source)
                }
            }
        }
    }

    /// Whether a start tag no whole stanza accounts for is reported as a stanza:
    /// only where its channel logs no whole stanzas (Prosody without
    /// mod_stanza_debug). Where it does, a start tag alone is of a stanza never on
    /// the wire (the `unavailable` presence Prosody makes itself when a session
    /// closes is logged as `Received[c2s]:`).
    private func reportsAlone(_ key: ChannelKey) -> Bool {
        if existingChannel(for: key)?.logsWholeStanzas == true { return false }
        // (Mid-log, the channel may have logged whole stanzas before the start.)
        if startsMidLog { dependsOnEarlierLines = true }
        return true
    }

    /// The element a start tag describes, with no children.
    private func childless(_ tag: [UInt8], namespace: String?, source: StanzaSource, column: Int) -> Element? {
        let key = defaultNamespace == nil ? (namespace ?? "") : ""
        let reader: StanzaReader
        if let existing = tagReaders[key] {
            reader = existing
        } else {
            reader = StanzaReader(defaultNamespace: defaultNamespace) { [unowned self] in self.parsedTag = $0; return true }
            try? reader.feed(LogChannel.streamHeader(namespace: key.isEmpty ? nil : key, defaultNamespace: defaultNamespace))
            tagReaders[key] = reader
        }
        parsedTag = nil
        do {
            try reader.feed([0x0A] + tag + Array("/>".utf8))
        } catch StanzaReaderError.malformed(_, _, let message) {
            damaged(LogDamage(line: source.line, column: column, message: message))
            tagReaders[key] = nil
            return nil
        } catch {
            tagReaders[key] = nil
            return nil
        }
        if parsedTag == nil {
            damaged(LogDamage(line: source.line, column: column, message: "a start tag that is not one"))
            tagReaders[key] = nil
        }
        return parsedTag
    }
}
