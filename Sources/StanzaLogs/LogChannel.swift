#if canImport(StanzaXML)
import StanzaXML
#endif

/// One direction of one session of a log: its own XML stream, read by its own
/// ``StanzaReader``, so that data of the other direction (or of another
/// session) between two parts of a stanza never joins them.
///
/// Stream headers and ends are taken out of the data and handled here: the
/// reader always reads inside a stream that declares the `stream` prefix and
/// the stream's default namespace, whether the log shows the stream's start or
/// begins in its middle, and a new stream (a reconnect) starts a new reader.
final class LogChannel {
    /// A place in the data fed to the reader and the place in the log it came from.
    struct Segment {
        var readerLine: Int, readerColumn: Int
        var logLine: Int, logColumn: Int
        var exactColumns: Bool
    }

    // Marked @exclusivity(unchecked) where read and written for every record (as in
    // LogReader): nothing accesses them re-entrantly, and the checks cost time.
    /// The stream's default namespace.
    private(set) var namespace: String? {
        didSet { header = Self.streamHeader(namespace: namespace, defaultNamespace: defaultNamespace) }
    }
    let defaultNamespace: String?
    let depthLimit: Int?
    let childSelection: ChildSelection?
    /// The reader, made when the channel is first fed: most channels of a log whose
    /// records are kept and read together (``WholeRecordBatch``) are never fed, and
    /// making a reader is costly (a libxml2 parser fed a stream's header), for each
    /// direction of each session each time a log reader starts from a checkpoint. Until
    /// then the channel is as a fresh one: between stanzas, holding nothing.
    @exclusivity(unchecked) var madeReader: StanzaReader?
    /// The start of the stream its reader reads in (it declares the `stream` prefix
    /// and the stream's default namespace): made again only when the namespace changes.
    var header: [UInt8]
    @exclusivity(unchecked) var readerLine = 1
    @exclusivity(unchecked) var readerColumn = 1
    @exclusivity(unchecked) var segments: [Segment] = []
    /// Where the stanza being read started, once the reader is inside one.
    @exclusivity(unchecked) var openStart: StanzaSource?
    @exclusivity(unchecked) var openColumn = 1
    /// The record being fed (its fields, and the line being fed), and how many
    /// stanzas ended during the current feed.
    @exclusivity(unchecked) var current = StanzaSource(line: 0)
    @exclusivity(unchecked) var currentColumn = 1
    @exclusivity(unchecked) var endedInFeed = 0
    /// The top tags of whole stanzas recently logged, for ``LogReader``'s
    /// deduplication of start-tag-only lines.
    @exclusivity(unchecked) var recentTopTags = RecentTopTags()
    /// Whether whole stanzas of this channel were logged (Prosody's `SEND:` and
    /// `RECV:`), not only start tags.
    @exclusivity(unchecked) var logsWholeStanzas = false
    /// When this channel was last used (for evicting idle channels).
    @exclusivity(unchecked) var lastUse = 0

    let deliver: (Element, StanzaSource) -> Bool
    let report: (InputDamage) -> Void
    @exclusivity(unchecked) private(set) var isStopped = false

    /// - Parameters:
    ///   - namespace: the stream's default namespace now (a reader started from
    ///     a checkpoint may start inside a stream whose header declared one);
    ///   - firstNamespace: the one the log's format or session gives it.
    init(namespace: String?, firstNamespace: String?, defaultNamespace: String?, depthLimit: Int?, childSelection: ChildSelection?,
         deliver: @escaping (Element, StanzaSource) -> Bool, report: @escaping (InputDamage) -> Void) {
        self.namespace = namespace
        self.firstNamespace = firstNamespace
        self.defaultNamespace = defaultNamespace
        self.depthLimit = depthLimit
        self.childSelection = childSelection
        header = Self.streamHeader(namespace: namespace, defaultNamespace: defaultNamespace)
        self.deliver = deliver
        self.report = report
        restart()
    }

    /// Whether no stanza is partly read.
    var isBetweenStanzas: Bool { madeReader?.isBetweenStanzas ?? true }

    /// How many elements of the stanza being read are open (0 between stanzas).
    var openDepth: Int { madeReader?.openDepth ?? 0 }

    /// The namespace the log's format or session gives the stream (a header
    /// that declares none leaves it so).
    let firstNamespace: String?

    /// Whether a channel made afresh with the namespace this one has reads on as
    /// this one does: no stanza partly read, no text held back (a fresh reader
    /// would never see `foo &bar` after a stanza, nor report its damage), no
    /// damage being skipped. (The namespace is handed on: ``LogReader/handover``.)
    /// And its reader reads the stream its header started (a stream header in a
    /// record's later lines, which the channel does not see, starts another:
    /// the log fuzzer's finding, Fuzz/regressions/log).
    var isAtRest: Bool {
        !isStopped && (madeReader.map {
            $0.isBetweenStanzasHoldingNothing && !$0.isSkippingDamage && readsChannelStream($0)
        } ?? true)
    }

    /// Whether a record fed next is read as a reader of the stream fed nothing
    /// else would read it: the reader is between stanzas, skips no damage, holds
    /// back nothing but blanks and reads the channel's stream (known until the
    /// reader is fed again; outside a feed, a stanza is open or damage skipped
    /// exactly when `openStart` is set). A record kept in a ``WholeRecordBatch``
    /// is read by a reader of the channel's stream, so a channel whose reader
    /// started another (the log fuzzer's finding) is not idle.
    var isIdle: Bool {
        if knownIdle { return true }
        knownIdle = openStart == nil && !isStopped
            && (madeReader.map { $0.isBetweenStanzasHoldingNothing && readsChannelStream($0) } ?? true)
        return knownIdle
    }
    @exclusivity(unchecked) var knownIdle = false

    /// A fresh reader inside the stream (made when it is first fed).
    func restart() {
        knownIdle = false
        madeReader = nil
        readerLine = 1
        readerColumn = characterCount(header.withUnsafeBufferPointer { $0 }) + 1
        segments.removeAll(keepingCapacity: true)
        openStart = nil
    }

    /// Readers other channels left, to take up rather than make one (``SpareReaders``).
    var spares: SpareReaders?

    /// The reader, made if it was not (or taken up from ``spares``).
    var reader: StanzaReader {
        if let madeReader { return madeReader }
        if let spare = takeSpareReader() { return spare }
        let reader = Self.makeReader(header: header, defaultNamespace: defaultNamespace, depthLimit: depthLimit,
                                     childSelection: childSelection,
                                     stanza: { [unowned self] in self.stanzaEnded($0) },
                                     damage: { [unowned self] in self.readerDamaged($0); return !self.isStopped })
        madeReader = reader
        return reader
    }

    // MARK: - Whole records

    /// Whether a record of whole stanzas is being read (its end ends its stanzas).
    @exclusivity(unchecked) var recordingWholeRecord = false

    /// A record of whole stanzas starts.
    func beginWholeRecord() {
        recordingWholeRecord = true
    }

    func stanzaEnded(_ element: Element) -> Bool {
        // The first stanza to end in a feed may have started in an earlier one; any
        // later one started in this feed, on the record's line.
        let first = endedInFeed == 0
        endedInFeed += 1
        let delivered: Bool
        if first, let openStart { delivered = deliver(element, openStart) } else { delivered = deliver(element, current) }
        if !delivered { isStopped = true }
        return delivered
    }

    /// A record starts: the fields its stanzas get (set once for all its lines).
    func startRecord(_ source: StanzaSource, line: Int) {
        current = source
        current.line = line
    }

    /// A record starts: its fields, set in place.
    func startRecord(line: Int, direction: LogDirection?, session: LogText?, time: LogText?) {
        current.line = line
        current.direction = direction
        current.sessionText = session
        current.timeText = time
        if !current.fields.isEmpty { current.fields = [] }
        if current.jid != nil { current.jid = nil }
    }

    /// Feeds data of the record in progress: `line` tells its line of the log,
    /// `column` the column where the data starts. `newlineBefore`: the data
    /// continues the previous data after a line break.
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int, newlineBefore: Bool, exactColumns: Bool) -> Bool {
        guard !isStopped else { return true }
        current.line = line
        currentColumn = column
        var start = 0
        while true {
            var first = start
            while first < bytes.count, isXMLSpace(bytes[first]) { first += 1 }
            guard let skip = streamBoundary(bytes, at: first) else { break }
            if !isBetweenStanzas && !flushDamage() { cutOff("a new stream starts before the stanza ends") }
            // A header that declares no default namespace is one logged without it
            // (slixmpp logs the header it receives so): the stream's stays the one
            // the log's format or session gives.
            if let declared = skip.namespace { namespace = declared.isEmpty ? firstNamespace : declared }
            restart()
            start = skip.end
        }
        // Text between stanzas is the log's, not XML: it is not fed. (The reader
        // holds text until it sees where it ends: a log's lines without XML piled
        // up in it, to libxml2's limit of 10,000,000 bytes.)
        let between = isBetweenStanzas
        if between { start = bytes.firstIndex(of: 0x3C, from: start) ?? bytes.count }
        guard start < bytes.count else {
            if newlineBefore && !between { return feedReader(newline, countColumns: true) }
            return true
        }
        if start > 0 && exactColumns { currentColumn = column + characterCount(UnsafeBufferPointer(rebasing: bytes[0..<start])) }
        let data = UnsafeBufferPointer(rebasing: bytes[start...])
        guard newlineBefore else {
            segments.append(Segment(readerLine: readerLine, readerColumn: readerColumn, logLine: line,
                                    logColumn: currentColumn, exactColumns: exactColumns))
            return feedReader(data, countColumns: true)
        }
        // The line break and the data in one call of the parser.
        segments.append(Segment(readerLine: readerLine + 1, readerColumn: 1, logLine: line,
                                logColumn: currentColumn, exactColumns: exactColumns))
        scratch.removeAll(keepingCapacity: true)
        scratch.append(0x0A)
        scratch.append(contentsOf: data)
        // Columns are counted only when the next data may follow on the same line.
        return scratch.withUnsafeBufferPointer { feedReader($0, countColumns: !recordingWholeRecord) }
    }

    /// Bytes put together for one call of the parser.
    @exclusivity(unchecked) var scratch: [UInt8] = []

    /// Declares that the record in progress ends (its stanzas should be whole).
    func endWholeRecord() {
        defer { recordingWholeRecord = false }
        guard let reader = madeReader, !reader.isBetweenStanzas else { return }
        // The record's stanzas end with it: its end is the end of the reader's input.
        // libxml2 waits for more input before it reports some damage (an `&` with no
        // `;`); told that the input ended, it reports it, and the stanzas after the
        // damage in the record are read.
        endingRecord = true
        defer { endingRecord = false }
        try? reader.finish()
        restart()
    }

    /// The reader is told that its input ends because the record ends.
    var endingRecord = false

    /// Declares the end of the log.
    func finish() {
        if !isBetweenStanzas && !flushDamage() { cutOff("unexpected end of log inside a stanza") }
    }

    func feedReader(_ bytes: UnsafeBufferPointer<UInt8>, countColumns: Bool) -> Bool {
        knownIdle = false
        let reader = self.reader
        let wasBetween = reader.isBetweenStanzas
        endedInFeed = 0
        do {
            try reader.feed(UnsafeRawBufferPointer(bytes))
        } catch StanzaReaderError.malformed(let line, let column, let message) {
            let place = logPosition(line: line, column: column)
            report(InputDamage(line: place.line, column: place.column,
                             message: mappingPositions(in: mapLineNumbers(in: message), logPosition)))
            restart()
            return false
        } catch {
            report(InputDamage(line: current.line, column: currentColumn, message: "\(error)"))
            restart()
            return false
        }
        advance(over: bytes, countColumns: countColumns)
        if reader.isBetweenDocuments {
            // The stream was closed (`</stream:stream>`): what follows is read in a new one.
            restart()
        } else if reader.isBetweenStanzas {
            openStart = nil
            segments.removeAll(keepingCapacity: true)
        } else if reader.isInsideFrameBetweenStanzas {
            // Inside a BOSH body between its stanzas: the next one starts on a line yet to come.
            openStart = nil
        } else if openStart == nil || endedInFeed > 0 || wasBetween {
            openStart = current
            openColumn = currentColumn
        }
        return true
    }

    /// Counts lines and columns over bytes fed, as libxml2 does (characters, not bytes).
    func advance(over bytes: UnsafeBufferPointer<UInt8>, countColumns: Bool) {
        var lastNewline = -1
        var from = 0
        while let found = bytes.firstIndex(of: 0x0A, from: from) {
            readerLine += 1
            lastNewline = found
            from = found + 1
        }
        // The column is needed only if more data may follow on this line of the reader.
        guard countColumns else { return }
        if lastNewline >= 0 {
            readerColumn = 1 + characterCount(UnsafeBufferPointer(rebasing: bytes[(lastNewline + 1)...]))
        } else {
            readerColumn += characterCount(bytes)
        }
    }
}

/// A line break to feed between the lines of a record (never freed).
nonisolated(unsafe) private let newline: UnsafeBufferPointer<UInt8> = {
    let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    storage.initialize(to: 0x0A)
    return UnsafeBufferPointer(start: storage, count: 1)
}()

/// How many characters (not UTF-8 continuation bytes) `bytes` holds.
func characterCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var count = 0, index = 0
    // Eight ASCII bytes at a time, where they are ASCII (a log line's prefix is).
    while index + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { break }
        count += 8
        index += 8
    }
    while index < bytes.count {
        if base[index] & 0xC0 != 0x80 { count += 1 }
        index += 1
    }
    return count
}

/// An XML declaration, a stream's start tag or its end tag at `offset`: where
/// it ends, and for a start tag the default namespace it declares ("" none).
func streamBoundary(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (end: Int, namespace: String?)? {
    // Most data starts with a stanza: `<` and a letter other than `s`.
    guard offset + 1 < bytes.count, bytes[offset] == 0x3C,
          bytes[offset + 1] == 0x3F || bytes[offset + 1] == 0x2F || bytes[offset + 1] == 0x73 else { return nil }
    if bytes.has("<?xml", at: offset) {
        guard let close = bytes.firstRange(of: "?>", from: offset) else { return (bytes.count, nil) }
        return (close.upperBound, nil)
    }
    if bytes.has("</stream:stream>", at: offset) {
        return (offset + 16, nil)
    }
    guard bytes.has("<stream:stream", at: offset), offset + 14 < bytes.count,
          bytes[offset + 14] == 0x20 || bytes[offset + 14] == 0x3E || bytes[offset + 14] == 0x0A || bytes[offset + 14] == 0x09 else { return nil }
    let end = bytes.firstIndex(of: 0x3E, from: offset).map { $0 + 1 } ?? bytes.count
    var namespace = ""
    let tag = UnsafeBufferPointer(rebasing: bytes[offset..<end])
    for quote in ["xmlns='" as StaticString, "xmlns=\""] {
        if let found = tag.firstRange(of: quote), found.lowerBound > 0, isXMLSpace(tag[found.lowerBound - 1]),
           let close = tag.firstIndex(of: tag[found.upperBound - 1], from: found.upperBound) {
            namespace = tag.string(found.upperBound..<close)
        }
    }
    return (end, namespace)
}

/// The reader of a channel's stream, made when its first stanza starts.
extension LogChannel {
    /// A reader inside a log's stream (a channel's, or the one a batch of kept records
    /// is read with), fed the stream's `header`. Its recovery skips a damaged stanza
    /// and reads on where a stanza can start, as in XML input (stanzaq(1), INPUT):
    /// complete stanzas that follow the damage in the same record, or in later
    /// records, are read.
    static func makeReader(header: [UInt8], defaultNamespace: String?, depthLimit: Int?, childSelection: ChildSelection?,
                           stanza: @escaping (Element) -> Bool, damage: @escaping (InputDamage) -> Bool) -> StanzaReader {
        let reader = StanzaReader(defaultNamespace: defaultNamespace, recovery: .skipDamage, handler: stanza)
        reader.damageHandler = damage
        reader.depthLimit = depthLimit
        reader.childSelection = childSelection
        try? reader.feed(header)
        return reader
    }
}
