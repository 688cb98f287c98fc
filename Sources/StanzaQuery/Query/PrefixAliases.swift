#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// The prefixes a query's prefixed names may use without the stanza binding
/// them (`stanzaq --ns PREFIX=URI`, xmlstarlet's `-N`): applied when the query
/// is compiled, they take precedence over the stanza's own bindings.
struct PrefixAliases {
    let uris: [String: String]

    init(_ uris: [String: String]) {
        self.uris = uris
    }

    func resolve(_ namespace: QuerySyntax.NamespaceTest) -> QuerySyntax.NamespaceTest {
        if case .prefix(let prefix) = namespace, let uri = uri(for: prefix) { return .uri(uri) }
        return namespace
    }

    func resolve(_ attribute: QuerySyntax.AttributeName) -> QuerySyntax.AttributeName {
        guard case .prefix(let prefix) = attribute.namespace, let uri = uri(for: prefix) else { return attribute }
        return .init(name: attribute.name, namespace: .uri(uri))
    }

    func resolve(_ subject: QuerySyntax.FilterSubject) -> QuerySyntax.FilterSubject {
        if case .attribute(let attribute) = subject { return .attribute(resolve(attribute)) }
        return subject
    }

    private func uri(for prefix: String) -> String? {
        prefix == "xml" ? xmlNamespaceURI : uris[prefix]
    }
}

extension QuerySyntax {
    /// The prefixes the query's element names use (`stream` in
    /// `/stream:features`), in order of appearance, each once.
    public var elementPrefixes: [String] {
        var prefixes: [String] = []
        for case .select(let selector) in steps {
            if case .prefix(let prefix) = selector.namespace, !prefixes.contains(prefix) { prefixes.append(prefix) }
        }
        return prefixes
    }
}
