#if canImport(StanzaXML)
import StanzaXML
#endif

/// A log format stanzaq reads (stanzaq(1), LOGS): its name (`--log=NAME`) and
/// its ``LogFormatDefinition``, which says how to recognise, read and cut it.
///
/// Each format is written in a file of its own under Formats/ (its parser, its
/// definition and its `LogFormat` constant); adding one is such a file and a
/// line in ``registry``.
public struct LogFormat: RawRepresentable, Hashable, CaseIterable, Sendable, CustomStringConvertible {
    /// Everything about the format.
    let definition: any LogFormatDefinition.Type
    /// How a large log of the format is cut into parts; `nil`: it is not (``CuttableLogFormat``).
    let cutting: (any CuttableLogFormat.Type)?
    /// How its records are skipped; `nil`: they are not (``SkippableLogFormat``).
    let skipping: (any SkippableLogFormat.Type)?

    init(_ definition: any LogFormatDefinition.Type) {
        self.definition = definition
        cutting = definition.asCuttable
        skipping = definition.asSkippable
    }

    /// The formats, in the order `--help` lists them. Detection tries them in
    /// the order of their ``LogFormatDefinition/detectionRank``.
    static let registry: [LogFormat] = [
        .prosody, .prosodyWatch, .ejabberd, .logxml, .mongooseim, .openfire, .smack, .slixmpp, .libstrophe, .profanity, .libpurple, .qxmpp, .strophejs, .nbxmpp, .aioxmpp, .gajim, .dino, .monal, .conversations, .xmlstream, .goxmpp, .mcabber, .jabberd2, .xmppjs, .tigase,
        .tshark, .json, .tsv, .generic,
    ]

    /// The formats in the order detection tries them: the most specific first.
    static let detectionOrder: [LogFormat] = registry
        .compactMap { format in format.definition.detectionRank.map { (format, $0) } }
        .sorted { $0.1 < $1.1 }
        .map(\.0)

    public static var allCases: [LogFormat] { registry }

    /// The format named `rawValue` (`--log=NAME`), if there is one.
    public init?(rawValue: String) {
        guard let found = Self.registry.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    public var rawValue: String { definition.name }
    public var description: String { rawValue }

    public static func == (first: LogFormat, second: LogFormat) -> Bool {
        ObjectIdentifier(first.definition) == ObjectIdentifier(second.definition)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(definition))
    }

    /// Whether `line` is typical of this format.
    func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool { definition.recognises(line) }

    /// A parser for this format, at the start of a log.
    func makeParser() -> any LogLineParser { definition.makeParser() }

    /// As ``LogFormatDefinition/streamNamespace``.
    var streamNamespace: StaticString? { definition.streamNamespace }

    /// As ``LogFormatDefinition/learnsRecordPrefix``.
    var learnsRecordPrefix: Bool { definition.learnsRecordPrefix }

    /// As ``CuttableLogFormat/partStartMarker``: a line without these bytes starts no part.
    public var partStartMarker: StaticString? { cutting?.partStartMarker }


    /// Whether a large log of the format may be cut into parts read on their own.
    public var isCut: Bool { cutting != nil }

    /// How the format writes a stanza's bytes; `nil`: its records are never skipped (``SkippableLogFormat``).
    var recordSpelling: RecordSpelling? { skipping?.recordSpelling }

    /// As ``LogFormatDefinition/sharesItsMarker``.
    var sharesItsMarker: Bool { definition.sharesItsMarker }
}

// MARK: - Parts of a log read on their own

extension LogFormat {
    /// Whether a part of a log in this format may well start at `line` (without
    /// its line feed), after `previous`: a line that starts a record of whole
    /// stanzas or of stream data, as a parser with nothing before reads it — not
    /// a start tag alone, nor a line that may continue a record — after a line
    /// that is not a start tag alone (whose stanza may follow). A guess: the
    /// readers of the parts check. (Formats whose parts start otherwise say so
    /// in their ``CuttableLogFormat/partState(at:after:carried:)``.)
    public func mayStartPart(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>) -> Bool {
        cutting?.partState(at: line, after: previous, carried: LogParserState()) != nil
    }

    /// Whether `line` is a record that a parser at rest reads as one reader
    /// does, after a line that is no start tag logged alone and whose data does
    /// not open more elements than it closes: a stanza that goes on in later
    /// records (a read of a socket that ended inside it, a stanza's text over
    /// lines), which a part starting after it would not know. (Tags are
    /// counted, not checked.)
    func mayStartRecordPart(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>) -> Bool {
        // (A byte search rules out most lines of a log whose records are few: no parser made, no line parsed.)
        if let marker = partStartMarker, line.firstRange(of: marker) == nil { return false }
        let parser = makeParser()
        switch kind(of: line, parser) {
        case .record(let shape): if shape == .startTag { return false }
        case .maybeMoreElseRecord: break
        default: return false
        }
        // (The line before, parsed once: a start tag logged alone, or data that leaves an element open.)
        return withTerminalEscapesRemoved(previous) { clean in
            let parsed = makeParser().parse(clean)
            switch parsed.kind {
            case .text, .unrelated: return true
            case .record where (parsed.lineHeader?.shape ?? parsed.header?.shape) == .startTag: return false
            default: break
            }
            if let decoded = parsed.decoded { return decoded.withUnsafeBufferPointer { Self.openDepth($0) <= 0 } }
            return Self.openDepth(UnsafeBufferPointer(rebasing: clean[parsed.payload])) <= 0
        }
    }

    /// Elements opened less elements closed in `data`.
    static func openDepth(_ data: UnsafeBufferPointer<UInt8>) -> Int {
        var depth = 0
        var index = 0
        while let open = data.firstIndex(of: 0x3C, from: index) {
            guard open + 1 < data.count else { break }
            let next = data[open + 1]
            if next == 0x2F {
                depth -= 1
            } else if isASCIILetter(next) || next == 0x5F {
                depth += 1
                if let close = data.firstIndex(of: 0x3E, from: open), close > open + 1, data[close - 1] == 0x2F { depth -= 1 }
            }
            index = open + 1
        }
        return depth
    }

    /// The prefix a reader of a log that starts with `bytes` learns from its
    /// first record (``RecordPrefix``), where the format learns one: a line
    /// without it starts no record, so no part of the log either. `nil` if the
    /// format learns none, or `bytes` hold no record.
    public func learnedRecordPrefix(atStartOf bytes: UnsafeBufferPointer<UInt8>) -> RecordPrefix? {
        guard learnsRecordPrefix else { return nil }
        var start = 0
        var first: (prefix: RecordPrefix, line: [UInt8])?
        while start < bytes.count {
            let end = bytes.firstIndex(of: 0x0A, from: start) ?? bytes.count
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if case .record = kind(of: line, makeParser()) {
                let clean = withTerminalEscapesRemoved(line) { Array($0) }
                // As the reader learns it: the first record's, unless the second shows words before it.
                guard let (prefix, firstLine) = first else {
                    let prefix = clean.withUnsafeBufferPointer { RecordPrefix(of: $0) }
                    if prefix.hasTime { return prefix }
                    first = (prefix, clean)
                    start = end + 1
                    continue
                }
                return firstLine.withUnsafeBufferPointer { firstLine in
                    clean.withUnsafeBufferPointer { RecordPrefix.replacing(prefix, firstLine: firstLine, by: $0) }
                } ?? prefix
            }
            start = end + 1
        }
        return first?.prefix
    }

    private enum Kind { case record(RecordShape?), maybeMoreElseRecord, other }

    /// What `parser` makes of `line`, as ``LogReader`` reads it (without terminal escapes).
    private func kind(of line: UnsafeBufferPointer<UInt8>, _ parser: any LogLineParser) -> Kind {
        withTerminalEscapesRemoved(line) { clean in
            let parsed = parser.parse(clean)
            switch parsed.kind {
            case .record: return .record(parsed.lineHeader?.shape ?? parsed.header?.shape)
            case .maybeMoreElseRecord: return .maybeMoreElseRecord
            default: return .other
            }
        }
    }

    /// The format ``LogReader`` detects in a log that starts with `bytes`
    /// (`atEnd`: all of it), or `nil` if they do not tell it yet.
    public static func detected(atStartOf bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> LogFormat? {
        detection(atStartOf: bytes, atEnd: atEnd)?.format
    }

    /// As ``detected(atStartOf:atEnd:)``, with where the line that decided it
    /// ends (a reader of fewer bytes may not know the format yet).
    public static func detection(atStartOf bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> (format: LogFormat, decidedBy: Int)? {
        var detector = FormatDetector()
        var start = 0
        while start < bytes.count {
            let end = bytes.firstIndex(of: 0x0A, from: start) ?? (atEnd ? bytes.count : -1)
            if end < 0 { return nil }
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if let found = withTerminalEscapesRemoved(raw, { detector.decide(after: $0) }) { return (found, end) }
            start = end + 1
        }
        return atEnd ? (detector.atEnd, bytes.count) : nil
    }
}
