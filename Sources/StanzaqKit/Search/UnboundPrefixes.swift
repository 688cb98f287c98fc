#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Watches whether the prefixes of the queries' prefixed element names
/// (`/stream:features`) are bound anywhere in the input, so that a prefix
/// bound nowhere — whose names can match nothing — is said once, at the end
/// of the run, instead of the query silently finding nothing.
struct UnboundPrefixes {
    /// The (query, prefix) pairs not yet seen bound.
    private var pending: [(query: String, prefix: String)] = []

    /// - Parameter aliases: the prefixes `--ns` binds; they need no binding in the input.
    init(queries: [Query], aliases: [String: String]) {
        for query in queries {
            for prefix in query.syntax.elementPrefixes where aliases[prefix] == nil && prefix != "xml" {
                pending.append((query.text, prefix))
            }
        }
    }

    /// Notes the prefixes `stanza` binds (on any of its elements, or in the
    /// stream around it). Costs nothing once every prefix has been seen.
    mutating func observe(_ stanza: Element) {
        guard !pending.isEmpty else { return }
        pending.removeAll { stanza.bindsSomewhere($0.prefix) }
    }

    /// Keeps only the prefixes `other` has not seen bound either (the same
    /// queries, searched in another stretch of the input).
    mutating func formIntersection(_ other: UnboundPrefixes) {
        pending.removeAll { mine in !other.pending.contains { $0.query == mine.query && $0.prefix == mine.prefix } }
    }

    /// Whether some prefix is still to be seen bound: then stanzas must be
    /// built whole, since a declaration may be anywhere in them.
    var isWatching: Bool { !pending.isEmpty }

    /// One warning per prefix still unbound.
    var warnings: [Diagnostic] {
        pending.map {
            .warning("query '\($0.query)': the prefix '\($0.prefix)' is bound nowhere in the input, "
                     + "so its names match nothing (bind it with --ns \($0.prefix)=URI)")
        }
    }
}

extension Element {
    /// Whether `prefix` is declared on this element, below it, or in the stream around it.
    fileprivate func bindsSomewhere(_ prefix: String) -> Bool {
        if inheritedDeclarations.contains(where: { $0.prefix == prefix }) { return true }
        var stack = [self]
        while let element = stack.popLast() {
            if element.namespaceDeclarations.contains(where: { $0.prefix == prefix }) { return true }
            for case .element(let child) in element.children { stack.append(child) }
        }
        return false
    }
}
