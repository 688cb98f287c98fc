#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// The children of a stanza's root that queries can reach (``ChildSelection``).
extension ChildSelection {
    /// The children `queries` can reach, or `nil` when one of them may need any
    /// child: its path climbs (`..`) or descends to any depth (`**`), or it gives
    /// the root itself, whole (`-s`, or a query without an extraction that
    /// stays at the root), or reads below it (a data form on the root).
    /// - Parameter deciding: the results only decide whether a stanza counts,
    ///   and an element given needs only to be there (as ``Query/reachToDecide``).
    public init?(queries: [Query], deciding: Bool) {
        self.init()
        for query in queries {
            if query.hasParentStep || query.hasAnyDepthStep { return nil }
            let firstBelowRoot = query.steps.first { if case .select = $0 { return true } else { return false } }
            guard case .select(let selector)? = firstBelowRoot else {
                // The query stays at the root: it reads the root's own name,
                // attributes or text (which skipped children do not change), or
                // gives the root, which is then printed or searched whole.
                switch query.syntax.extraction {
                case .attribute?, .allAttributes?, .text?, .name?: continue
                case nil where deciding: continue
                case .dataForm?, nil: return nil
                }
            }
            let name: ChildSelection.NameTest
            switch selector.syntax.name {
            case .any, .unnamed: name = .any
            case .named(let text): name = .named(text)
            case .notNamed(let text): name = .notNamed(text)
            }
            let namespace: ChildSelection.NamespaceTest
            switch selector.namespace {
            case .any, .prefix: namespace = .any   // a prefix resolves where the element is: kept, to be safe
            case .uri(let uri): namespace = .uri(uri)
            case .inherited: namespace = .root
            }
            admit(name, namespace)
        }
    }
}
