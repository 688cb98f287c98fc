#if canImport(StanzaQuery)
import StanzaQuery
#endif

// The fields a log gives a stanza (`--fields`), redacted as the stanza is
// (stanzaq(1), `--redact`): with `jids`, the session (which some logs name by
// the account: Dino's JID, Gajim's and nbxmpp's account name) and the archive
// columns that hold JIDs; with `bodies`, the archive columns that hold a
// message's text.

/// Archive columns (Prosody's `prosodyarchive`, ejabberd's `archive`) by what they hold.
private let jidColumns: Set<String> = ["with", "peer", "bare_peer", "jid", "from", "to"]
private let localColumns: Set<String> = ["user", "username"]
private let domainColumns: Set<String> = ["host", "server_host"]
private let nickColumns: Set<String> = ["nick"]
private let bodyColumns: Set<String> = ["txt", "body"]

extension Redactor {
    /// `source` with its fields redacted. With `jids`, a session that is a JID
    /// (it holds `@`) gets its pseudonym, any other session `sessionN`, and so
    /// does the JID a log's record names for its session.
    public func redact(_ source: StanzaSource) -> StanzaSource {
        var source = source
        if kinds.contains(.jids), let session = source.session {
            source.session = session.contains("@") ? pseudonyms.jid(session) : pseudonyms.session(session)
        }
        if kinds.contains(.jids), let jid = source.jid { source.jid = pseudonyms.jid(jid) }
        for index in source.fields.indices {
            source.fields[index].value = redactField(source.fields[index].name, source.fields[index].value)
        }
        return source
    }

    private func redactField(_ name: String, _ value: String) -> String {
        if kinds.contains(.bodies), bodyColumns.contains(name), !value.isEmpty { return Self.marker }
        guard kinds.contains(.jids) else { return value }
        if jidColumns.contains(name) { return pseudonyms.jid(value) }
        if localColumns.contains(name) { return pseudonyms.local(value) }
        if domainColumns.contains(name) { return pseudonyms.domain(value) }
        if nickColumns.contains(name) { return pseudonyms.resource(value) }
        return value
    }
}
