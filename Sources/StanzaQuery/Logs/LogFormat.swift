/// The log formats stanzaq reads (stanzaq(1), LOGS).
public enum LogFormat: String, CaseIterable, Sendable {
    case prosody, ejabberd, smack, slixmpp, nbxmpp, gajim, dino, monal, conversations, tshark, json, tsv, generic

    /// The formats in the order detection tries them: the most specific first.
    static let detectionOrder: [LogFormat] = [.prosody, .ejabberd, .smack, .nbxmpp, .gajim, .dino, .monal, .conversations, .tshark, .json, .slixmpp, .tsv]

    /// Whether `line` is typical of this format.
    func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .prosody: return ProsodyLogParser.recognises(line)
        case .ejabberd: return EjabberdLogParser.recognises(line)
        case .smack: return SmackLogParser.recognises(line)
        case .slixmpp: return SlixmppLogParser.recognises(line)
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

    /// The format `line` shows, if it is typical of one.
    static func detect(_ line: UnsafeBufferPointer<UInt8>) -> LogFormat? {
        detectionOrder.first { $0.recognises(line) }
    }
}
