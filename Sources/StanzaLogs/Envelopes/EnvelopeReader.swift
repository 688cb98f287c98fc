#if canImport(StanzaXML)
import StanzaXML
#endif

/// Reads the stanzas of a log inside an envelope (stanzaq(1), ENVELOPES): the
/// envelope is taken apart into entries, and each source's text is read by a
/// ``LogReader`` of its own, so that a stanza never mixes two sources' text.
/// The stanzas' lines are the input's; the envelope's facts become fields
/// (`source`; its time and session where the program's line has none; the
/// fields it names).
public final class EnvelopeReader: StanzaStream {
    public let envelope: Envelope
    private let decoder: any EnvelopeDecoder
    private let format: LogFormat?
    private let defaultNamespace: String?
    private let handler: LogReader.Handler
    private let damage: (InputDamage) -> Void
    /// The sources' logs, and the order they appeared in (they end in that order).
    private var logs: [SourceKey: SourceLog] = [:]
    private var order: [SourceLog] = []
    /// The source of the latest entry (whose lines may wait to be read together).
    private var current: SourceLog?
    public private(set) var isStopped = false
    public var depthLimit: Int? { didSet { for log in order { log.reader.depthLimit = depthLimit } } }
    public var childSelection: ChildSelection? { didSet { for log in order { log.reader.childSelection = childSelection } } }

    /// The formats of the sources' logs, as given or detected, in the order the sources appeared.
    public var formats: [LogFormat] { order.compactMap(\.reader.format) }

    /// - Parameters:
    ///   - format: the format of every source's log (`--log=FORMAT`); `nil`: the
    ///     envelope's, or detected for each source.
    public init(envelope: Envelope, format: LogFormat? = nil, defaultNamespace: String? = nil,
                handler: @escaping LogReader.Handler, damage: @escaping (InputDamage) -> Void) {
        self.envelope = envelope
        decoder = envelope.makeDecoder()
        self.format = format ?? envelope.innerFormat
        self.defaultNamespace = defaultNamespace
        self.handler = handler
        self.damage = damage
    }

    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard !isStopped else { return }
        decoder.feed(bytes.bindMemory(to: UInt8.self), { take($0) }, damage: damage)
        current?.flush()
    }

    public func finish() throws {
        // (Stopped, the rest of the input is not read: a line it cut is no damage.)
        guard !isStopped else { return }
        decoder.finish({ take($0) }, damage: damage)
        current?.flush()
        for log in order where !isStopped {
            log.endPartialLine()
            log.flush()
            log.reader.finish()
        }
    }

    /// No more input is coming for now (a followed log is idle): see ``LogReader/idle()``.
    public func idle() {
        current?.flush()
        for log in order { log.reader.idle() }
    }

    private func take(_ entry: EnvelopeEntry) {
        guard !isStopped else { return }
        let key = SourceKey(source: entry.source, session: entry.session)
        let log = logs[key] ?? makeLog(key)
        // The sources' lines are read in the input's order.
        if log !== current {
            current?.flush()
            current = log
        }
        log.take(entry)
    }

    private func makeLog(_ key: SourceKey) -> SourceLog {
        let log = SourceLog(name: key.source)
        log.reader = LogReader(format: format, defaultNamespace: defaultNamespace, handler: { [unowned self, unowned log] element, source in
            var source = source
            log.addFacts(to: &source)
            guard handler(element, source) else {
                isStopped = true
                return false
            }
            return true
        }, damage: damage)
        log.reader.depthLimit = depthLimit
        log.reader.childSelection = childSelection
        logs[key] = log
        order.append(log)
        return log
    }
}

/// What tells two sources apart: the source the envelope names, and the
/// connection (Monal's rawlog has several in one process).
struct SourceKey: Hashable {
    var source: String?
    var session: String?
}

/// One source of an envelope: its log's reader, and the facts of its latest
/// entries, for the stanzas that start in them.
final class SourceLog {
    let name: String?
    var reader: LogReader!
    /// A line the next entry goes on with (CRI's `P`, Docker's split lines).
    private var partialLine: (line: Int, time: String?, text: [UInt8])?
    /// The facts of the latest entries, by the line they start at (a ring: a
    /// stanza is handed over a few entries after the one it starts in).
    private var recent: [(line: Int, facts: EnvelopeEntry)] = []
    private var next = 0
    private static let recentLimit = 1024

    init(name: String?) {
        self.name = name
    }

    func take(_ entry: EnvelopeEntry) {
        var entry = entry
        if let partial = partialLine {
            entry.text = partial.text + entry.text
            entry.line = partial.line
            entry.time = partial.time ?? entry.time
            partialLine = nil
        }
        if entry.partial {
            partialLine = (entry.line, entry.time, entry.text)
            return
        }
        read(entry)
    }

    /// The input has ended in the middle of a line: what came of it is read.
    func endPartialLine() {
        guard let partial = partialLine else { return }
        partialLine = nil
        read(EnvelopeEntry(source: name, time: partial.time, text: partial.text, line: partial.line))
    }

    private func read(_ entry: EnvelopeEntry) {
        var facts = entry
        facts.text = []
        if recent.count < Self.recentLimit {
            recent.append((entry.line, facts))
        } else {
            recent[next] = (entry.line, facts)
            next = (next + 1) % Self.recentLimit
        }
        let text = entry.text
        guard !text.contains(0x0A) else {
            // An entry of several lines: each numbered with the entry's line.
            flush()
            var start = 0
            while start <= text.count {
                let end = text[start...].firstIndex(of: 0x0A) ?? text.count
                reader.numberNextLine(entry.line)
                reader.feed(Array(text[start..<end]) + [0x0A])
                start = end + 1
            }
            return
        }
        // Lines of consecutive entries go to the reader together (its batches of
        // records are read at the end of each feed).
        if block.isEmpty || entry.line != blockNextLine {
            flush()
            blockFirstLine = entry.line
        }
        block.append(contentsOf: text)
        block.append(0x0A)
        blockLines += 1
        blockNextLine = entry.line + 1
        if block.count >= Self.blockBytes || blockLines >= Self.blockLineLimit { flush() }
    }

    /// The lines of consecutive entries not yet read, the first one's number,
    /// and the number the next one must have to join them.
    private var block: [UInt8] = []
    private var blockFirstLine = 0, blockNextLine = 0, blockLines = 0
    private static let blockBytes = 1 << 15
    /// Fewer lines than the facts' ring holds: the facts of a stanza's line are
    /// still there when the block is read.
    private static let blockLineLimit = recentLimit / 4

    /// Reads the lines held in ``block``.
    func flush() {
        guard !block.isEmpty else { return }
        reader.numberNextLine(blockFirstLine)
        reader.feed(block)
        block.removeAll(keepingCapacity: true)
        blockLines = 0
    }

    /// The facts of the entry at `line`, looked for from the latest back.
    private func facts(at line: Int) -> EnvelopeEntry? {
        var index = recent.count < Self.recentLimit ? recent.count : next
        for _ in 0..<recent.count {
            index = index == 0 ? recent.count - 1 : index - 1
            if recent[index].line == line { return recent[index].facts }
            if recent[index].line < line { return nil }
        }
        return nil
    }

    /// The envelope's facts for a stanza that starts at `source.line`.
    func addFacts(to source: inout StanzaSource) {
        guard let facts = facts(at: source.line) else { return }
        if let name = facts.source { source.fields.insert(LogField(name: "source", value: name), at: 0) }
        if source.time == nil, let time = facts.time { source.time = time }
        if source.session == nil, let session = facts.session { source.session = session }
        source.fields.append(contentsOf: facts.fields)
    }
}
