/// Which children of a stanza's root some queries can reach, so that a reader
/// need not build the others (``StanzaReader/childSelection``): a query whose
/// path goes below the root reaches only the root's children that its first
/// segment below the root matches, and a query that stays at the root (`/@id`)
/// reaches none. A child is kept when one of those segments could match it by
/// its name and namespace; filters are not looked at (they test what is kept).
///
/// For `body#`, only `<body>` is built of a message, not its `<delay/>`, `<x/>`
/// or `<thread/>`; for a data-form query on `{…disco#info}query`, only that
/// element of an `<iq/>` (callgrind: most of the work of reading whole stanzas
/// is building and freeing elements no query looks at).
public struct ChildSelection: Sendable {
    private enum NameTest: Sendable {
        case any
        case named(String)
        case notNamed(String)
    }

    private enum NamespaceTest: Sendable {
        case any
        case uri(String)
        /// The root's namespace (a segment without `{ns}` inherits its parent's).
        case root
    }

    private var tests: [(name: NameTest, namespace: NamespaceTest)] = []

    /// The children `queries` can reach, or `nil` when one of them may need any
    /// child: its path climbs (`..`) or descends to any depth (`**`), or it gives
    /// the root itself, whole (`-s`, or a query without an extraction that
    /// stays at the root), or reads below it (a data form on the root).
    /// - Parameter deciding: the results only decide whether a stanza counts,
    ///   and an element given needs only to be there (as ``Query/reachToDecide``).
    public init?(queries: [Query], deciding: Bool) {
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
            let name: NameTest
            switch selector.syntax.name {
            case .any, .unnamed: name = .any
            case .named(let text): name = .named(text)
            case .notNamed(let text): name = .notNamed(text)
            }
            let namespace: NamespaceTest
            switch selector.namespace {
            case .any, .prefix: namespace = .any   // a prefix resolves where the element is: kept, to be safe
            case .uri(let uri): namespace = .uri(uri)
            case .inherited: namespace = .root
            }
            tests.append((name, namespace))
        }
    }

    /// Whether a child of the root named `name` in `namespace` may be reached.
    @inline(__always)
    public func admits(name: String, namespace: String, rootNamespace: String) -> Bool {
        for test in tests {
            switch test.name {
            case .any: break
            case .named(let text): if name != text { continue }
            case .notNamed(let text): if name == text { continue }
            }
            switch test.namespace {
            case .any: return true
            case .uri(let uri): if namespace == uri { return true }
            case .root: if namespace == rootNamespace { return true }
            }
        }
        return false
    }
}
