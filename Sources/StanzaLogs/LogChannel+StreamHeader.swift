#if canImport(StanzaXML)
import StanzaXML
#endif

/// The stream header a channel's reader starts with.
extension LogChannel {
    /// The start of a stream whose default namespace is `namespace` (none if the reader has a `defaultNamespace`).
    static func streamHeader(namespace: String?, defaultNamespace: String?) -> [UInt8] {
        // (The usual two made once: a channel is made for each session each
        // time a reader starts, many times in a selective search, and building
        // the String each time slowed reading tshark's output.)
        guard let namespace, defaultNamespace == nil else { return headerWithoutNamespace }
        if namespace == "jabber:client" { return clientHeader }
        return makeStreamHeader(namespace: namespace)
    }

    private static let headerWithoutNamespace = makeStreamHeader(namespace: nil)
    private static let clientHeader = makeStreamHeader(namespace: "jabber:client")

    private static func makeStreamHeader(namespace: String?) -> [UInt8] {
        // The prefixes XMPP's streams declare on their header, which a log's
        // stanzas use without declaring them: `stream:` and dialback's `db:`.
        var header = "<stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns:db='jabber:server:dialback'"
        if var namespace {
            // (Foundation's replacing is slow: only where needed.)
            if namespace.utf8.contains(where: { $0 == 0x26 || $0 == 0x27 || $0 == 0x3C }) {
                namespace = namespace.replacing("&", with: "&amp;").replacing("'", with: "&apos;")
                    .replacing("<", with: "&lt;")
            }
            header += " xmlns='" + namespace + "'"
        }
        return Array((header + ">").utf8)
    }

    /// Whether `reader` reads the stream the channel's header starts: a stream
    /// header in a record's later lines (after text, where the channel does not
    /// look for one) starts another in the reader alone.
    /// (Its header declares the `stream` and `db` prefixes and, unless the
    /// reader has a `defaultNamespace`, the stream's namespace: another header
    /// may declare more.)
    func readsChannelStream(_ reader: StanzaReader) -> Bool {
        let declared = reader.streamDeclarations
        let declaresDefault = defaultNamespace == nil && namespace != nil
        guard declared.count == (declaresDefault ? 3 : 2) else { return false }
        return declared.allSatisfy {
            switch $0.prefix {
            case "stream": return $0.uri == "http://etherx.jabber.org/streams"
            case "db": return $0.uri == "jabber:server:dialback"
            case nil: return declaresDefault && $0.uri == namespace
            default: return false
            }
        }
    }
}
