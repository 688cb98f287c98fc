/// Which children of a stanza's root some queries can reach, so that a reader
/// need not build the others (``StanzaReader/childSelection``): a query whose
/// path goes below the root reaches only the root's children that its first
/// segment below the root matches, and a query that stays at the root (`/@id`)
/// reaches none. A child is kept when one of those segments could match it by
/// its name and namespace; filters are not looked at (they test what is kept).
///
/// For `body#`, only `<body>` is built of a message, not its `<delay/>`, `<x/>`
/// or `<thread/>`; for a data-form query on `{…disco#info}query`, only that
/// element of an `<iq/>` (most of the work of reading whole stanzas is
/// building and freeing elements no query looks at).
public struct ChildSelection: Sendable {
    /// What a segment's name test keeps.
    package enum NameTest: Sendable {
        case any
        case named(String)
        case notNamed(String)
    }

    /// What a segment's namespace test keeps.
    package enum NamespaceTest: Sendable {
        case any
        case uri(String)
        /// The root's namespace (a segment without `{ns}` inherits its parent's).
        case root
    }

    private var tests: [(name: NameTest, namespace: NamespaceTest)] = []

    /// Admits no child until tests are added (``admit(_:_:)``).
    package init() {}

    /// Admits the children that `name` and `namespace` match.
    package mutating func admit(_ name: NameTest, _ namespace: NamespaceTest) {
        tests.append((name, namespace))
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
