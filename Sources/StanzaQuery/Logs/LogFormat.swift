/// The log formats stanzaq reads (stanzaq(1), LOGS).
public enum LogFormat: String, CaseIterable, Sendable {
    case prosody, ejabberd, smack, slixmpp, libstrophe, nbxmpp, gajim, dino, monal, conversations, tshark, json, tsv, generic

    /// The formats in the order detection tries them: the most specific first.
    static let detectionOrder: [LogFormat] = [.prosody, .ejabberd, .smack, .libstrophe, .nbxmpp, .gajim, .dino, .monal, .conversations, .tshark, .json, .slixmpp, .tsv]

    /// Whether `line` is typical of this format.
    func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .prosody: return ProsodyLogParser.recognises(line)
        case .ejabberd: return EjabberdLogParser.recognises(line)
        case .smack: return SmackLogParser.recognises(line)
        case .slixmpp: return SlixmppLogParser.recognises(line)
        case .libstrophe: return LibstropheLogParser.recognises(line)
        case .nbxmpp: return NbxmppLogParser.recognises(line)
        case .gajim: return GajimConsoleParser.recognises(line)
        case .dino: return DinoLogParser.recognises(line)
        case .monal: return MonalLogParser.recognises(line)
        case .conversations: return ConversationsLogParser.recognises(line)
        case .tshark: return TsharkFollowParser.recognises(line)
        case .json: return ArchiveRowParser.recognisesJSON(line)
        case .tsv: return ArchiveRowParser.recognisesTSV(line)
        case .generic: return true
        }
    }

    /// A parser for this format, at the start of a log.
    func makeParser() -> any LogLineParser {
        switch self {
        case .prosody: return ProsodyLogParser()
        case .ejabberd: return EjabberdLogParser()
        case .smack: return SmackLogParser()
        case .slixmpp: return SlixmppLogParser()
        case .libstrophe: return LibstropheLogParser()
        case .nbxmpp: return NbxmppLogParser()
        case .gajim: return GajimConsoleParser()
        case .dino: return DinoLogParser()
        case .monal: return MonalLogParser()
        case .conversations: return ConversationsLogParser()
        case .tshark: return TsharkFollowParser()
        case .json: return ArchiveRowParser(layout: .json)
        case .tsv: return ArchiveRowParser(layout: .tsv)
        case .generic: return GenericLogParser()
        }
    }

    /// The default namespace of the streams a log of this format shows, where a
    /// record does not name one and no stream header in the log declares one:
    /// a client's log shows a client's streams, and clients log stanzas without
    /// the namespace they inherit (slixmpp the stanzas it receives).
    var streamNamespace: StaticString? {
        switch self {
        case .smack, .slixmpp, .libstrophe, .nbxmpp, .gajim, .dino, .monal, .conversations: return "jabber:client"
        case .prosody, .ejabberd, .tshark, .json, .tsv, .generic: return nil
        }
    }

    /// Whether a log of this format starts its records with a prefix of its own
    /// (a time stamp, a level, a logger) that a line must have to start one
    /// (``RecordPrefix``): not where records are rows, chunks, comments or terms.
    var learnsRecordPrefix: Bool {
        switch self {
        case .prosody, .smack, .slixmpp, .libstrophe, .nbxmpp, .monal, .conversations: return true
        case .ejabberd, .gajim, .dino, .tshark, .json, .tsv, .generic: return false
        }
    }

    /// Whether the lines this format is recognised by are written by other
    /// programs too (``FormatDetector``): slixmpp's `SEND: <` and `RECV: <` stand
    /// in Monal's and libstrophe's lines; a tab before `<` in any tabbed log.
    var sharesItsMarker: Bool {
        self == .slixmpp || self == .tsv
    }
}

// MARK: - Parts of a log read on their own

extension LogFormat {
    /// Whether a part of a log in this format may be read on its own (a parallel
    /// search): its parser can say that it holds nothing from earlier lines.
    /// ejabberd's (a term may span lines), Dino's, Conversations', TSV's (a
    /// header row) and tshark's (the session named at the top, the length of the
    /// chunk being read) keep state, and are read in order.
    public var mayBeCut: Bool {
        switch self {
        case .ejabberd, .dino, .conversations, .tsv, .tshark: return false
        default: return true
        }
    }

    /// Whether a part of a log in this format may well start at `line` (without
    /// its line feed), after `previous`: a line that starts a record of whole
    /// stanzas or of stream data, as a parser with nothing before reads it — not
    /// a start tag alone, nor a line that may continue a record — after a line
    /// that is not a start tag alone (whose stanza may follow). A guess: the
    /// readers of the parts check.
    public func mayStartPart(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>) -> Bool {
        let parser = makeParser()
        switch kind(of: line, parser) {
        case .record(let shape): if shape == .startTag { return false }
        case .maybeMoreElseRecord: break
        default: return false
        }
        if case .record(.startTag) = kind(of: previous, makeParser()) { return false }
        return true
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
        var detector = FormatDetector()
        var start = 0
        while start < bytes.count {
            let end = bytes.firstIndex(of: 0x0A, from: start) ?? (atEnd ? bytes.count : -1)
            if end < 0 { return nil }
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if let found = withTerminalEscapesRemoved(raw, { detector.decide(after: $0) }) { return found }
            start = end + 1
        }
        return atEnd ? detector.atEnd : nil
    }
}
