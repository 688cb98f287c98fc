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
        decoder.feed(bytes.bindMemory(to: UInt8.self), { take($0) }, damage: { reportDamage($0) })
        current?.flush()
    }

    public func finish() throws {
        // (Stopped, the rest of the input is not read: a line it cut is no damage.)
        guard !isStopped else { return }
        decoder.finish({ take($0) }, damage: { reportDamage($0) })
        current?.flush()
        for log in order where !isStopped {
            log.endPartialLine()
            log.flush()
            log.reader.finish()
        }
    }

    /// The input goes on in another file after `linesBefore` lines that are not
    /// read (a followed log was rotated or truncated): what was held of an
    /// entry or of a line is dropped, and lines are numbered on from there
    /// (see ``LogReader/continueInNewFile(linesBefore:)``).
    public func continueInNewFile(linesBefore: Int) {
        current?.flush()
        decoder.continueInNewFile(linesBefore: linesBefore)
        for log in order { log.continueInNewFile(linesBefore: linesBefore) }
    }

    /// No more input is coming for now (a followed log is idle): see ``LogReader/idle()``.
    public func idle() {
        current?.flush()
        for log in order { log.reader.idle() }
    }

    /// Damage to the envelope: reported after what the lines before it hold.
    private func reportDamage(_ damage: InputDamage) {
        current?.flush()
        self.damage(damage)
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
