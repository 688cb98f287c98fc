#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Loading several files on one time line (`:load --merge`, `stanzaq -i
/// --merge`): their stanzas in the order of their times, by the rules of
/// `--merge` (stanzaq(1), "Times").
extension REPLSession {
    /// Loads the stanzas of `paths`, read as ``load(path:as:)`` reads each,
    /// then numbers them in the order of their times: those of inputs without
    /// times (XML) first, a stanza without a time after the one before it in
    /// its file, a tie in the order of the files. Returns false if any file
    /// failed (reported).
    @discardableResult
    public func load(merging paths: [String], as kind: InputKind? = nil) throws(OutputError) -> Bool {
        var loaded: [(element: Element, fields: StanzaSource?, instant: DateTime?, path: String)] = []
        var ok = true
        for path in paths {
            let (sink, read) = try readThroughSearcher(path: path, as: kind ?? input, merge: true)
            loaded += zip(sink.stanzas, sink.instants).map { ($0.0, $0.1, $1, path) }
            ok = ok && read
        }
        let order = loaded.indices.sorted { TimeOrder.precedes((loaded[$0].instant, $0), (loaded[$1].instant, $1)) }
        for index in order {
            let stanza = loaded[index]
            stanzas.append(.element(stanza.element, source: stanza.path, fields: stanza.fields))
            namespaces.formUnion(Completion.namespaces(stanza.element))
            if stanza.fields != nil { hasLogFields = true }
        }
        if !order.isEmpty { current = stanzas.count - 1 }
        return ok
    }
}
