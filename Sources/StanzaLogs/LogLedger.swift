#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(StanzaXML)
import StanzaXML
#endif

/// A log reader's ledger (``LogReader/keepLedger()``): what it did that
/// depends on the whole stanzas logged before its lines — the channels it made,
/// the whole stanzas it noted, what became of each start tag logged alone —
/// and the state it started in and handed on. Applied in order to what one
/// reader of the whole log remembers (``LogHistory``), it tells whether a
/// reader that did not read the lines before read its own as that reader does.
public struct LogLedger: Sendable {
    /// (A tag is a range of `tags`: one buffer for all, not an array each.)
    enum Operation: Sendable {
        case made(LogReader.ChannelKey)
        case whole(LogReader.ChannelKey, Range<Int>)
        case startTag(LogReader.ChannelKey, Range<Int>, StartTagOutcome)
        /// The channel logged its first whole stanza of the part.
        case logsWhole(LogReader.ChannelKey)
        /// A start tag no whole stanza accounted for, of a channel that logged none
        /// in the part: reported alone, or not (assumed to log whole stanzas before).
        case alone(LogReader.ChannelKey, reported: Bool)
    }

    /// Why a start tag logged alone was or was not reported.
    enum StartTagOutcome: Sendable {
        /// The whole stanza logged last is its.
        case lastWhole
        /// Its channel remembered its whole stanza.
        case remembered
        /// Neither: it waits for its stanza, or is reported.
        case neither
    }

    var operations: [Operation] = []
    var tags: [UInt8] = []
    /// The start tags let go at the hand-off (``LogReader/handOff()``):
    /// one reader would still wait for their stanzas until line `until`.
    var waiting: [(key: LogReader.ChannelKey, tag: Range<Int>, until: Int)] = []
    /// The reader's first line.
    var firstLine = 1
    /// The state the reader was started in (``LogCheckpoint/init(unknownPastAt:format:handover:)``),
    /// and the one it handed on (``LogReader/handOff()``).
    var start = LogHandover()
    var end: LogHandover?
    /// The top tags of the whole stanzas in the reader's first ``LogReader/startTagLines``
    /// lines, whatever became of them: a start tag let go at the hand-off before may be waiting for one.
    var early: [(key: LogReader.ChannelKey, tag: Range<Int>)] = []
    /// The record prefix the reader learned from its first record (``RecordPrefix``):
    /// a reader whose past is unknown learns it from its first record, which the
    /// reader of the whole log may read as text.
    var recordPrefix: RecordPrefix?
    /// Why what the reader read is not what one reader of the whole log reads,
    /// as the search that read it found (reported with `STANZAQ_DEBUG_PARTS`);
    /// `nil` if nothing says so.
    public var trouble: String?

    /// Keeps `tag`: its range in `tags`.
    private mutating func keep(_ tag: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = tags.count
        tags.append(contentsOf: tag)
        return start..<tags.count
    }

    mutating func note(_ operation: Operation) { operations.append(operation) }
    mutating func noteWhole(_ key: LogReader.ChannelKey, _ tag: UnsafeBufferPointer<UInt8>) {
        operations.append(.whole(key, keep(tag)))
    }
    mutating func noteStartTag(_ key: LogReader.ChannelKey, _ tag: UnsafeBufferPointer<UInt8>, _ outcome: StartTagOutcome) {
        operations.append(.startTag(key, keep(tag), outcome))
    }
    mutating func noteEarly(_ key: LogReader.ChannelKey, _ tag: UnsafeBufferPointer<UInt8>) {
        early.append((key, keep(tag)))
    }
    mutating func noteWaiting(_ key: LogReader.ChannelKey, _ tag: UnsafeBufferPointer<UInt8>, until: Int) {
        waiting.append((key, keep(tag), until))
    }

    public init() {}

    init(firstLine: Int, start: LogHandover) {
        self.firstLine = firstLine
        self.start = start
    }
}

/// What the reader of a whole log remembers of the whole stanzas it read, to
/// tell which start tags logged alone they account for: its channels, the last
/// whole stanza, and each channel's recent ones — the only state a reader at a
/// hand-off (``LogReader/canHandOff``) has that a reader started there lacks.
///
/// A parallel search applies the ``LogLedger`` of each part of a log, in order:
/// a part whose start tags fare otherwise here than in its own reader (started
/// at the part, its past unknown) was not read as the reader of the whole log reads it.
public final class LogHistory {
    /// The channels made, each with its recent whole stanzas' top tags: looked
    /// through in place (a log interleaves a few sessions; hashing a key for every
    /// operation cost most of this check).
    private var keys: [LogReader.ChannelKey] = []
    /// Whether each channel logged whole stanzas (its start tags alone are not reported).
    private var logsWhole: [Bool] = []
    private var recent: [RecentTopTags] = []
    /// The last whole stanza's channel (an index of `keys`) and top tag (a range
    /// of `lastWholeTags`, a part's log's tags: not copied).
    private var lastWhole: (channel: Int, range: Range<Int>)?
    private var lastWholeTags: [UInt8] = []
    /// The record prefix of the whole log: the first part's that learned one.
    private var recordPrefix: RecordPrefix?
    /// The state the reader of the last part applied handed on.
    private var handedOn: LogHandover?
    /// Start tags one reader still waits for at the cut (``LogLedger/waiting``).
    private var waiting: [(key: LogReader.ChannelKey, tag: [UInt8], until: Int)] = []

    public init() {}

    private func index(of key: LogReader.ChannelKey) -> Int? {
        keys.withUnsafeBufferPointer { keys in
            for index in keys.indices.reversed() where keys[index].direction == key.direction && keys[index].session == key.session {
                return index
            }
            return nil
        }
    }

    /// Applies what the reader of the next part did: whether its start tags
    /// fared as they do in the reader of the whole log. (No channel was forgotten:
    /// the log has at most as many channels as a reader keeps.)
    public func apply(_ log: LogLedger) -> Bool {
        trouble(applying: log) == nil
    }

    /// As ``apply(_:)``: `nil` if the part fared as in the reader of the whole
    /// log, else what differed.
    public func trouble(applying log: LogLedger) -> String? {
        if log.firstLine > 1 && log.start.handedOnBefore != handedOn {
            return log.start.parser != handedOn?.parser ? "its parser started otherwise than the one before ended"
                : "a stream's namespace other than the part before ended with"
        }
        handedOn = log.end
        if let learned = log.recordPrefix {
            if let recordPrefix, recordPrefix != learned { return "another record prefix" }
            recordPrefix = learned
        }
        waiting.removeAll { $0.until < log.firstLine }
        if !waiting.isEmpty {
            // A whole stanza one reader takes as the one a start tag let go at the cut waits for.
            for (key, range) in log.early {
                let matches = log.tags.withUnsafeBufferPointer { tags in
                    waiting.contains { $0.key == key && $0.tag.count == range.count && $0.tag.withUnsafeBufferPointer { sameStartTag($0, UnsafeBufferPointer(rebasing: tags[range])) } }
                }
                if matches { return "a whole stanza for a start tag waiting at the cut" }
            }
        }
        guard applyOperations(log) else { return "its start tags fare otherwise than in one reader" }
        waiting += log.waiting.map { ($0.key, Array(log.tags[$0.tag]), $0.until) }
        return nil
    }

    private func applyOperations(_ log: LogLedger) -> Bool {
        for operation in log.operations {
            switch operation {
            case .made(let key):
                if index(of: key) == nil {
                    keys.append(key)
                    logsWhole.append(false)
                    recent.append(RecentTopTags())
                    if keys.count > LogReader.channelLimit { return false }
                }
            case .whole(let key, let range):
                // (A whole stanza's channel was made before it: by the part's reader, or by an earlier one.)
                guard let channel = index(of: key) else { return false }
                if let previous = lastWhole {
                    lastWholeTags.withUnsafeBufferPointer { recent[previous.channel].remember(UnsafeBufferPointer(rebasing: $0[previous.range])) }
                }
                lastWhole = (channel, range)
                lastWholeTags = log.tags
            case .logsWhole(let key):
                guard let channel = index(of: key) else { return false }
                logsWhole[channel] = true
            case .alone(let key, let reported):
                // One reader reports it exactly when its channel never logged a whole stanza.
                if reported == (index(of: key).map { logsWhole[$0] } ?? false) { return false }
            case .startTag(let key, let range, let outcome):
                let channel = index(of: key)
                let here = log.tags.withUnsafeBufferPointer { tags -> LogLedger.StartTagOutcome in
                    let tag = UnsafeBufferPointer(rebasing: tags[range])
                    if let last = lastWhole, last.channel == channel, last.range.count == tag.count,
                       lastWholeTags.withUnsafeBufferPointer({ sameStartTag(UnsafeBufferPointer(rebasing: $0[last.range]), tag) }) {
                        lastWhole = nil
                        return .lastWhole
                    }
                    if let channel, recent[channel].forget(tag) { return .remembered }
                    return .neither
                }
                if here != outcome { return false }
            }
        }
        return true
    }
}
