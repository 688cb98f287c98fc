#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(StanzaXML)
import StanzaXML
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
    // nothing accesses it re-entrantly, and the run-time checks, at every line,
    // slowed reading a log, as in the XML reader.

    /// The format being read: the one named, or the one detected (`nil` until then).
    @exclusivity(unchecked) public internal(set) var format: LogFormat? {
        didSet { learnsRecordPrefix = format?.learnsRecordPrefix ?? false }
    }
    /// The format's ``LogFormatDefinition/learnsRecordPrefix``, asked of every line.
    @exclusivity(unchecked) var learnsRecordPrefix = false
    /// How many stanzas have been handed to the handler.
    @exclusivity(unchecked) public internal(set) var stanzaCount = 0
    /// The line being read (the last one read, once the log has ended); while
    /// kept records are read, the line of the record read.
    public var currentLine: Int { recordLine ?? lineNumber }
    /// Whether the handler asked to stop.
    @exclusivity(unchecked) public internal(set) var isStopped = false
    /// Elements deeper than this below their stanza are not built (see ``StanzaReader/depthLimit``).
    @exclusivity(unchecked) public var depthLimit: Int?
    /// Which children of a stanza's root are built (see ``StanzaReader/childSelection``).
    @exclusivity(unchecked) public var childSelection: ChildSelection?

    let defaultNamespace: String?
    let handler: Handler
    let damage: (InputDamage) -> Void
    @exclusivity(unchecked) var parser: (any LogLineParser)?

    @exclusivity(unchecked) var pendingLine: [UInt8] = []
    /// Records of whole stanzas kept to be read together, and the line of the one being read.
    @exclusivity(unchecked) var batch: WholeRecordBatch
    /// The readers of the channels of the reader before (``LogReaderScratch``).
    let spares: SpareReaders
    @exclusivity(unchecked) var recordLine: Int?
    /// Whether records of whole stanzas are kept to be read together (``WholeRecordBatch``);
    /// off, every record is read by its channel as it comes (the tests compare the two).
    var keepsRecords = true
    @exclusivity(unchecked) var lineNumber = 0
    /// Lines read before the format is known (bounded).
    var undetected: [(number: Int, bytes: [UInt8])] = []
    var detector = FormatDetector()
    /// The prefix of the log's records, learned from its first (formats that have one).
    var recordPrefix: RecordPrefix?
    /// The first record's line, while the next record line may yet show that
    /// it had words before the log's prefix (``RecordPrefix/replacing(_:firstLine:by:)``).
    var firstRecordLine: [UInt8]?
    /// Lines held to learn whether a line that looks like a record is text of the
    /// stanza left open.
    var lookahead: RecordLookahead?

    struct ChannelKey: Hashable, Sendable {
        // The direction first: it tells most keys apart without comparing Strings.
        var direction: LogDirection?
        var session: LogText?
    }
    @exclusivity(unchecked) var channels: [ChannelKey: LogChannel] = [:]
    /// The channels used lately, looked through before `channels`: a log
    /// interleaves a few sessions, and hashing a session's name for every record costs.
    @exclusivity(unchecked) var recentChannels: [(key: ChannelKey, channel: LogChannel)] = []
    @exclusivity(unchecked) var nextRecent = 0
    static let recentLimit = 16
    @exclusivity(unchecked) var uses = 0
    static let channelLimit = 256

    /// The record whose lines are being read.
    struct Record {
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
    @exclusivity(unchecked) var record: Record?

    /// Start-tag-only stanzas waiting to learn whether the whole stanza follows,
    /// and the stanzas read after them (kept so that output stays in log order).
    enum Queued {
        case stanza(Element, StanzaSource)
        case startTag(WaitingStartTag)
    }
    /// A start tag logged before its whole stanza may be (a class: looked at in
    /// the queue for every whole stanza, and not copied for it).
    final class WaitingStartTag {
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
    @exclusivity(unchecked) var queue: [Queued] = []
    static let startTagLines = 32
    var tagReaders: [String: StanzaReader] = [:]
    var parsedTag: Element?

    /// The top tag of the last whole stanza, not yet put among its channel's
    /// recent ones: Prosody logs the start tag of a received stanza on the line
    /// after the stanza, and this spares remembering (copying) it for the channel.
    @exclusivity(unchecked) var lastWhole: (key: ChannelKey, channel: LogChannel)?
    @exclusivity(unchecked) var lastWholeTag: [UInt8] = []
    /// A start tag whose whole stanza may be on the next line (Prosody logs a sent
    /// stanza's start tag just before the stanza): held here for one line, and
    /// queued as any start tag if the next line is not that stanza.
    @exclusivity(unchecked) var held: ChannelKey?
    @exclusivity(unchecked) var heldTag: [UInt8] = []
    @exclusivity(unchecked) var heldRest: (namespace: String?, source: StanzaSource, column: Int, until: Int)?

    /// For a reader started where the lines before were not read
    /// (``LogCheckpoint/init(unknownPastAt:format:handover:)``): what it was
    /// told of them. It then notes whether anything it did may depend on them
    /// (``dependsOnUnknownPast``).
    var unknownPast: LogHandover?
    @exclusivity(unchecked) var pastIsUnknown = false
    /// For a reader whose past is unknown: whether what it read may not be what
    /// a reader of the whole log reads there, even if that reader could hand off
    /// at the start (``canHandOff``) — a line that continues a record begun
    /// before, damage (its message may depend on what came before), channels
    /// enough to forget one. (What depends on the stanzas logged before — start
    /// tags that a whole stanza accounts for — is in the ``ledger``.)
    @exclusivity(unchecked) public internal(set) var dependsOnUnknownPast = false
    /// Whether any channel logged a whole stanza (Prosody's start tags alone are then
    /// of stanzas never on the wire).
    @exclusivity(unchecked) var loggedWholeStanzas = false
    /// Whether a line that ends any record begun before the start has been read.
    @exclusivity(unchecked) var endedEarlierRecord = false
    /// What the reader did that depends on the whole stanzas logged before
    /// (``LogLedger``), once ``keepLedger()`` is called.
    @exclusivity(unchecked) public internal(set) var ledger: LogLedger?

    /// Keeps a ``ledger`` from the next line on (called before the first input).
    public func keepLedger() {
        ledger = LogLedger(firstLine: lineNumber + 1, start: unknownPast ?? LogHandover())
    }

    /// Creates a reader.
    /// - Parameters:
    ///   - format: the log's format; `nil` to detect it.
    ///   - defaultNamespace: as ``StanzaReader``'s, for stanzas whose stream's namespace is unknown.
    ///   - handler: called with each stanza, in log order.
    ///   - damage: called with each piece of damaged XML found (the stanza is skipped).
    ///   - scratch: what a reader before this one left (``LogReaderScratch``).
    public init(format: LogFormat? = nil, defaultNamespace: String? = nil, reusing scratch: LogReaderScratch? = nil,
                handler: @escaping Handler, damage: @escaping (InputDamage) -> Void) {
        self.format = format
        learnsRecordPrefix = format?.learnsRecordPrefix ?? false
        self.defaultNamespace = defaultNamespace
        self.handler = handler
        self.damage = damage
        if let scratch, scratch.batch.defaultNamespace == defaultNamespace {
            batch = scratch.batch
            spares = scratch.spares
        } else {
            batch = WholeRecordBatch(defaultNamespace: defaultNamespace)
            spares = SpareReaders()
        }
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
    var skippingLongLine = false

    /// Holds part of a line that goes on in the next input.
    func hold(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !skippingLongLine else { return }
        guard pendingLine.count + bytes.count <= Self.maximumLineLength else {
            damaged(InputDamage(line: lineNumber + 1, column: 1,
                              message: "a line longer than \(Self.maximumLineLength) bytes (stanzaq's limit): skipped"))
            pendingLine = []
            skippingLongLine = true
            return
        }
        pendingLine.append(contentsOf: bytes)
    }

    /// Reads the line held (its end has come), or counts the one skipped.
    func readHeldLine() {
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
        if parser == nil && !undetected.isEmpty { adopt(detected: detector.atEnd) }
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

    /// Numbers the next line read `number`, whatever the lines before: the log's
    /// lines are an envelope's entries (``EnvelopeReader``), and stanzas and
    /// damage are placed at the input's lines.
    public func numberNextLine(_ number: Int) {
        lineNumber = number - 1
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
        -> (stanzas: [(element: Element, source: StanzaSource)], damage: [InputDamage]) {
        var stanzas: [(element: Element, source: StanzaSource)] = []
        var damage: [InputDamage] = []
        let reader = LogReader(format: format, defaultNamespace: defaultNamespace,
                               handler: { stanzas.append(($0, $1)); return true }, damage: { damage.append($0) })
        reader.feed(Array(text.utf8))
        reader.finish()
        return (stanzas, damage)
    }

    // MARK: - Stanzas

    /// Hands a stanza over, after the start tags still waiting before it.
    func deliver(_ element: Element, _ source: StanzaSource) -> Bool {
        if queue.isEmpty { return hand(element, source) }
        queue.append(.stanza(element, source))
        return !isStopped
    }

    func hand(_ element: Element, _ source: StanzaSource) -> Bool {
        guard !isStopped else { return false }
        stanzaCount += 1
        if !handler(element, source) { isStopped = true }
        return !isStopped
    }
}
