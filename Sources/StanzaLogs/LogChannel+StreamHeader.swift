#if canImport(StanzaXML)
import StanzaXML
#endif

/// The stream header a channel's reader starts with.
extension LogChannel {
    /// The start of a stream whose default namespace is `namespace` (none if the reader has a `defaultNamespace`).
    static func streamHeader(namespace: String?, defaultNamespace: String?) -> [UInt8] {
        // (The usual two made once: a channel is made for each session in each
        // window of a selective search, and building the String cost 1,100
        // instructions each, 5% of reading the windows of tshark's output, callgrind.)
        guard let namespace, defaultNamespace == nil else { return headerWithoutNamespace }
        if namespace == "jabber:client" { return clientHeader }
        return makeStreamHeader(namespace: namespace)
    }

    private static let headerWithoutNamespace = makeStreamHeader(namespace: nil)
    private static let clientHeader = makeStreamHeader(namespace: "jabber:client")

    private static func makeStreamHeader(namespace: String?) -> [UInt8] {
        var header = "<stream:stream xmlns:stream='http://etherx.jabber.org/streams'"
        if var namespace {
            // (Foundation's replacing cost 51,000 instructions a header, callgrind: only where needed.)
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
    /// (Its header declares the `stream` prefix and, unless the reader has a
    /// `defaultNamespace`, the stream's namespace: another header may declare more.)
    func readsChannelStream(_ reader: StanzaReader) -> Bool {
        let declared = reader.streamDeclarations
        let declaresDefault = defaultNamespace == nil && namespace != nil
        guard declared.count == (declaresDefault ? 2 : 1) else { return false }
        return declared.allSatisfy {
            $0.prefix == "stream" ? $0.uri == "http://etherx.jabber.org/streams" : $0.prefix == nil && declaresDefault && $0.uri == namespace
        }
    }
}
