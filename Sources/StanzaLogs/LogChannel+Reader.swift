#if canImport(StanzaXML)
import StanzaXML
#endif

/// The reader of a channel's stream, made when its first stanza starts.
extension LogChannel {
    /// A reader inside a log's stream (a channel's, or the one a batch of kept records
    /// is read with), fed the stream's `header`. Its recovery skips a damaged stanza
    /// and reads on where a stanza can start, as in XML input (stanzaq(1), INPUT):
    /// complete stanzas that follow the damage in the same record, or in later
    /// records, are read.
    static func makeReader(header: [UInt8], defaultNamespace: String?, depthLimit: Int?, childSelection: ChildSelection?,
                           stanza: @escaping (Element) -> Bool, damage: @escaping (InputDamage) -> Bool) -> StanzaReader {
        let reader = StanzaReader(defaultNamespace: defaultNamespace, recovery: .skipDamage, handler: stanza)
        reader.damageHandler = damage
        reader.depthLimit = depthLimit
        reader.childSelection = childSelection
        try? reader.feed(header)
        return reader
    }
}
