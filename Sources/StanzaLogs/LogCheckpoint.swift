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
}

extension LogReader {
    /// What this reader carries to the next line (``LogCheckpoint``), or `nil`
    /// where part of it is not plain data: a stanza partly read, a start tag
    /// waiting, lines held, the format not yet known.
    public var checkpoint: LogCheckpoint? {
        guard !startsMidLog else { return nil }
        guard parser != nil else {
            // (No line was interpreted: the lines kept are all there is.)
            guard pendingLine.isEmpty && !skippingLongLine && !isStopped else { return nil }
            var undetected = LogCheckpoint(line: lineNumber, stanzaCount: stanzaCount, format: nil, parser: LogParserState(),
                                           channels: [], uses: uses, lastWholeTag: [], loggedWholeStanzas: false)
            undetected.undetected = self.undetected.map { LogCheckpoint.UndetectedLine(number: $0.number, bytes: $0.bytes) }
            undetected.detector = detector
            return undetected
        }
        guard cleanCutTrouble == nil, let format, let parserState = parser?.handover else { return nil }
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
    public convenience init(resuming checkpoint: LogCheckpoint, defaultNamespace: String? = nil,
                            handler: @escaping Handler, damage: @escaping (InputDamage) -> Void) {
        self.init(format: checkpoint.format, defaultNamespace: defaultNamespace, handler: handler, damage: damage)
        lineNumber = checkpoint.line
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
