#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The full JID bound in each session of one input, as its stanzas pass in
/// order: the `jid` field (`--fields jid`, stanzaq(1), LOGS).
///
/// A session's JID is the one the last bind result in it gave (an `iq` of
/// type `result` with `{urn:ietf:params:xml:ns:xmpp-bind}bind/jid`), whichever
/// way the log shows it: a server sends it, a client receives it; or the one a
/// log's record names as its session's (``StanzaSource/jid``: MongooseIM's
/// `to_jid=`, which logs no bind result). An input
/// whose stanzas name no session (XML, most clients' logs) is one session.
/// Only what was read before tells, so one reader must read the input in order
/// and no record be skipped (``SearchOptions/parallelism(for:)``).
final class SessionJIDs {
    /// How many sessions are remembered: past that, the one bound longest ago
    /// is forgotten (a long server log opens sessions without end).
    static let capacity = 100_000

    private let capacity: Int
    /// Each session's JID, and the number of the bind that gave it.
    private var bound: [String?: (jid: String, serial: Int)] = [:]
    /// The binds in order, oldest first from `head`: the ones whose serial is
    /// no longer the session's were replaced by a later bind.
    private var binds: [(session: String?, serial: Int)] = []
    private var head = 0
    private var serial = 0

    init(capacity: Int = SessionJIDs.capacity) {
        self.capacity = capacity
    }

    /// Takes the bind result `stanza` is, if it is one, or the JID its record
    /// names; then the JID of its session.
    func jid(after stanza: Element, in source: StanzaSource?) -> String? {
        let session = source?.session
        if let jid = Self.boundJID(stanza) ?? source?.jid {
            remember(jid, for: session)
            return jid
        }
        return bound.isEmpty ? nil : bound[session]?.jid
    }

    /// The JID a bind result gives, or `nil` if `stanza` is none.
    static func boundJID(_ stanza: Element) -> String? {
        guard stanza.name == "iq", stanza.attribute("type") == "result" else { return nil }
        for bind in stanza.childElements where bind.name == "bind" && bind.namespace == bindNamespace {
            for jid in bind.childElements where jid.name == "jid" && jid.namespace == bindNamespace {
                let text = (jid.text ?? "").trimmingXMLSpace
                if !text.isEmpty { return text }
            }
        }
        return nil
    }

    private static let bindNamespace = "urn:ietf:params:xml:ns:xmpp-bind"

    private func remember(_ jid: String, for session: String?) {
        serial += 1
        bound[session] = (jid, serial)
        binds.append((session, serial))
        // Forget the oldest binds still in force (a session bound again later is
        // not forgotten for its first bind).
        while bound.count > capacity, head < binds.count {
            let oldest = binds[head]
            head += 1
            if bound[oldest.session]?.serial == oldest.serial { bound[oldest.session] = nil }
        }
        if head > 1024 && head * 2 > binds.count {
            binds.removeFirst(head)
            head = 0
        }
    }
}

private extension String {
    /// Without the XML white space (space, tab, newline, carriage return) around it.
    var trimmingXMLSpace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
