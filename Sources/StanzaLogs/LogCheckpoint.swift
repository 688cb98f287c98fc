#if canImport(StanzaXML)
import StanzaXML
#endif

/// Everything a ``LogReader`` carries from one line of a log to the next, as
/// one value: a reader started from it (``LogReader/init(resuming:defaultNamespace:handler:damage:)``)
/// reads the lines after it exactly as the reader that handed it out does.
///
/// A reader hands one out at a line boundary where nothing it holds is made
/// of libxml2's state or of lines it has not finished with
/// (``LogReader/checkpoint``): every stanza of every session's streams read
/// to its end, no start tag waiting for its stanza, no line held. What it
/// holds then is plain data: the lines kept while the format is not yet
/// known, or the parser's state, each channel's stream namespace and what it
/// remembers of the whole stanzas it logged, the record the next line may
/// continue, the record prefix learned.
public struct LogCheckpoint: Equatable, Sendable {
    /// The lines and the stanzas read before it.
    public internal(set) var line: Int
    public internal(set) var stanzaCount: Int
    /// The format, once it is known; till then the lines kept and what the detector saw.
    public internal(set) var format: LogFormat?
    var undetected: [UndetectedLine] = []
    var detector = FormatDetector()
    struct UndetectedLine: Equatable, Sendable {
        var number: Int
        var bytes: [UInt8]
    }
    var parser: LogParserState
    var recordPrefix: RecordPrefix?
    var firstRecordLine: [UInt8]?

    /// One direction of one session, in the order the reader last used them.
    struct Channel: Equatable, Sendable {
        var key: LogReader.ChannelKey
        var namespace: String?
        var firstNamespace: String?
        var recentTopTags: RecentTopTags
        var logsWholeStanzas: Bool
        var lastUse: Int
    }
    var channels: [Channel]
    /// How many times a channel was looked up (the clock of `lastUse`).
    var uses: Int
    /// The last whole stanza logged, whose top tag is not yet among its channel's recent ones.
    var lastWhole: LogReader.ChannelKey?
    var lastWholeTag: [UInt8]
    var loggedWholeStanzas: Bool

    /// The record the next line may continue.
    struct OpenRecord: Equatable, Sendable {
        var key: LogReader.ChannelKey
        var shape: RecordShape
        var line: Int
        var damaged: Bool
        var hasData: Bool
        /// Its channel's fields for its stanzas, and whether its end ends them.
        var source: StanzaSource
        var wholeRecord: Bool
    }
    var record: OpenRecord?
    /// For a checkpoint made without reading the lines before
    /// (``init(unknownPastAt:format:handover:)``): what was guessed of them.
    var unknownPast: LogHandover?
}

extension LogCheckpoint {
    /// A checkpoint at the start of line `line` of a log in `format` whose lines
    /// before were not read: of them, only what `handover` guesses is known.
    /// A reader started from it notes whether what it reads may depend on
    /// them (``LogReader/dependsOnUnknownPast``) and, in its ledger, what it took
    /// for granted (``LogReader/keepLedger()``), which ``LogHistory`` checks
    /// once the lines before are read.
    public init(unknownPastAt line: Int, format: LogFormat, handover: LogHandover) {
        self.init(line: line - 1, stanzaCount: 0, format: format, parser: handover.parser, channels: [], uses: 0,
                  lastWholeTag: [], loggedWholeStanzas: false)
        unknownPast = handover
    }
}

extension LogReader {
    /// What this reader carries to the next line (``LogCheckpoint``), or `nil`
    /// where part of it is not plain data: a stanza partly read, a start tag
    /// waiting, lines held, the format not yet known.
    public var checkpoint: LogCheckpoint? {
        guard !pastIsUnknown else { return nil }
        guard parser != nil else {
            // (No line was interpreted: the lines kept are all there is.)
            guard pendingLine.isEmpty && !skippingLongLine && !isStopped else { return nil }
            var undetected = LogCheckpoint(line: lineNumber, stanzaCount: stanzaCount, format: nil, parser: LogParserState(),
                                           channels: [], uses: uses, lastWholeTag: [], loggedWholeStanzas: false)
            undetected.undetected = self.undetected.map { LogCheckpoint.UndetectedLine(number: $0.number, bytes: $0.bytes) }
            undetected.detector = detector
            return undetected
        }
        guard handOffTrouble == nil, let format, let parserState = parser?.handover else { return nil }
        let ordered = channels.sorted { $0.value.lastUse < $1.value.lastUse }
        var record: LogCheckpoint.OpenRecord?
        if let open = self.record {
            // (A record kept in the batch is read by the time a line ends: `feed` reads the batch.)
            guard !open.batched, let channel = open.channel else { return nil }
            record = LogCheckpoint.OpenRecord(key: open.key, shape: open.shape, line: open.line, damaged: open.damaged,
                                              hasData: open.hasData, source: channel.current, wholeRecord: channel.recordingWholeRecord)
        }
        return LogCheckpoint(
            line: lineNumber, stanzaCount: stanzaCount, format: format, parser: parserState, recordPrefix: recordPrefix,
            firstRecordLine: firstRecordLine,
            channels: ordered.map { key, channel in
                LogCheckpoint.Channel(key: key, namespace: channel.namespace, firstNamespace: channel.firstNamespace,
                                      recentTopTags: channel.recentTopTags, logsWholeStanzas: channel.logsWholeStanzas,
                                      lastUse: channel.lastUse)
            },
            uses: uses, lastWhole: lastWhole?.key, lastWholeTag: lastWhole == nil ? [] : lastWholeTag,
            loggedWholeStanzas: loggedWholeStanzas, record: record)
    }

    /// A reader that reads on from `checkpoint`: fed the lines after it, it
    /// hands over what the reader that made the checkpoint hands over for them.
    public convenience init(resuming checkpoint: LogCheckpoint, defaultNamespace: String? = nil, reusing scratch: LogReaderScratch? = nil,
                            handler: @escaping Handler, damage: @escaping (InputDamage) -> Void) {
        self.init(format: checkpoint.format, defaultNamespace: defaultNamespace, reusing: scratch, handler: handler, damage: damage)
        lineNumber = checkpoint.line
        unknownPast = checkpoint.unknownPast
        pastIsUnknown = unknownPast != nil
        undetected = checkpoint.undetected.map { ($0.number, $0.bytes) }
        detector = checkpoint.detector
        stanzaCount = checkpoint.stanzaCount
        parser?.resume(from: checkpoint.parser)
        recordPrefix = checkpoint.recordPrefix
        firstRecordLine = checkpoint.firstRecordLine
        for saved in checkpoint.channels {
            let channel = makeChannel(for: saved.key, namespace: saved.namespace, firstNamespace: saved.firstNamespace)
            channel.recentTopTags = saved.recentTopTags
            channel.logsWholeStanzas = saved.logsWholeStanzas
            channel.lastUse = saved.lastUse
        }
        uses = checkpoint.uses
        if let key = checkpoint.lastWhole, let channel = channels[key] {
            lastWhole = (key, channel)
            lastWholeTag = checkpoint.lastWholeTag
        }
        loggedWholeStanzas = checkpoint.loggedWholeStanzas
        if let saved = checkpoint.record, let channel = channels[saved.key] {
            record = Record(channel: channel, key: saved.key, shape: saved.shape, line: saved.line, damaged: saved.damaged,
                            hasData: saved.hasData)
            channel.current = saved.source
            channel.recordingWholeRecord = saved.wholeRecord
        }
    }
}

/// What a log reader must be told to read on from a line without having read
/// the lines before it: what its parser carries (``LogParserState``) and the
/// default namespace of each stream whose header declared one other than the
/// format's. A reader hands it out (``LogReader/handover``); a reader whose
/// past is unknown starts from a guess of it
/// (``LogCheckpoint/init(unknownPastAt:format:handover:)``), which holds only
/// if the reader of the lines before handed on exactly this.
public struct LogHandover: Equatable, Sendable {
    var parser = LogParserState()
    /// Streams whose namespace is not the one a channel is made with.
    var namespaces: [LogReader.ChannelKey: String] = [:]
    /// Where records just before the line were not read (``LogCutScanner/skipped(_:)``)
    /// and the stream headers in them noted: the namespaces the reader of the
    /// lines before must hand on. (What the headers declare is the scanner's
    /// guess, not checked: a search that skips records takes what they say as
    /// they are written.)
    var namespacesHandedOn: [LogReader.ChannelKey: String]?
    /// Likewise what the parser carried before the records not read, where they
    /// change it (tshark's `Filter:` lines, noted: ``RecordSpelling/noted``).
    var parserHandedOn: LogParserState?

    /// What the reader of the lines before must hand on.
    var handedOnBefore: LogHandover {
        var before = self
        before.namespaces = namespacesHandedOn ?? namespaces
        before.namespacesHandedOn = nil
        before.parser = parserHandedOn ?? parser
        before.parserHandedOn = nil
        return before
    }

    public init() {}
}

extension LogReader {
    /// What a reader started at the next line must be told to read on as this
    /// one does (``LogHandover``); `nil` if the parser holds what cannot be
    /// handed on. (The rest of a hand-off is ``handOffTrouble``'s.)
    public var handover: LogHandover? {
        guard let state = parser?.handover else { return nil }
        var end = LogHandover()
        end.parser = state
        end.namespaces = unknownPast?.namespaces ?? [:]
        for (key, channel) in channels { end.namespaces[key] = channel.namespace == channel.firstNamespace ? nil : channel.namespace }
        return end
    }

    /// The namespace a channel made now starts with: the one its stream had
    /// where the reader started, if not the one it is made with.
    func startNamespace(of key: ChannelKey) -> String? {
        guard let namespaces = unknownPast?.namespaces, !namespaces.isEmpty else { return nil }
        return namespaces[key]
    }
}
