#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// How a query is compiled, beyond its text and format arguments.
public struct QueryOptions: Equatable, Sendable {
    /// `=` and `~` filters compare case (`stanzaq --case-sensitive`). Monal
    /// ignores case in both; ids, stanza-ids and resources are case-sensitive
    /// in practice. Data-form field names and types are not affected.
    public var caseSensitive: Bool
    /// Whether stanzaq's extensions of Monal's language are accepted
    /// (stanzaq-query(7), EXTENSIONS). `false` (`stanzaq --monal`) makes each
    /// one a ``QueryError`` that names it, for queries meant for Monal or Prosody.
    public var extensions: Bool
    /// Prefix → namespace URI bindings for the prefixes of prefixed names
    /// (`stream:features`, `@p:a`, `<p:a=v>`), applied when the query is
    /// compiled: they take precedence over the prefixes the stanzas bind
    /// (`stanzaq --ns PREFIX=URI`). `xml` is always bound to its namespace.
    public var namespaces: [String: String]

    public init(caseSensitive: Bool = false, extensions: Bool = true, namespaces: [String: String] = [:]) {
        self.caseSensitive = caseSensitive
        self.extensions = extensions
        self.namespaces = namespaces
    }
}

/// A construct of stanzaq's language that Monal's lacks, where a query uses it.
public struct LanguageExtension: Equatable, Sendable {
    /// One line naming the construct: "Monal's language has no '**' (any depth, …)".
    public var message: String
    /// The 1-based column where the construct starts.
    public var column: Int
}

extension QuerySyntax {
    /// The stanzaq extensions the query uses, in the order they are written.
    /// Each is a syntax error, or a query that never matches, in Monal's and
    /// Prosody's languages, so no query written for them uses one.
    public var extensionsUsed: [LanguageExtension] {
        var found: [LanguageExtension] = []
        for step in steps {
            switch step {
            case .parent:
                break
            case .anyDepth(let column):
                found.append(.init(message: "Monal's language has no '**' (any depth, a stanzaq extension)", column: column))
            case .select(let selector):
                if case .prefix(let prefix) = selector.namespace {
                    found.append(.init(message: "Monal's language has no prefixed element name '\(prefix):…' (a stanzaq extension)",
                                       column: selector.column))
                }
                found += filterExtensions(selector.filters)
            case .keep(let filters, _):
                // '**' was reported; its filters may use more.
                found += filterExtensions(filters)
            }
        }
        return found
    }

    /// The extensions filters use: text and any-attribute filters, `%@` in a regex.
    private func filterExtensions(_ filters: [Filter]) -> [LanguageExtension] {
        var found: [LanguageExtension] = []
        for filter in filters {
            let equals = if case .equals = filter.test { true } else { false }
            switch filter.subject {
            case .text:
                found.append(.init(message: "Monal's language has no text filter '\(equals ? "<#=…>" : "<#~…>")' (a stanzaq extension)",
                                   column: filter.column))
            case .anyAttribute:
                found.append(.init(message: "Monal's language has no any-attribute filter '\(equals ? "<*=…>" : "<*~…>")' "
                                   + "(a stanzaq extension)", column: filter.column))
            case .attribute:
                break
            }
            if case .matches(let pattern, _) = filter.test {
                for case .specifier(let specifier, let column) in pattern {
                    found.append(.init(
                        message: "Monal's language fills no '%\(specifier.rawValue)' in a regular expression (a stanzaq extension)",
                        column: column))
                }
            }
        }
        return found
    }

    /// Throws for the first stanzaq extension the query uses (`stanzaq --monal`).
    public func rejectExtensions() throws(QueryError) {
        if let first = extensionsUsed.first {
            throw QueryError(first.message, column: first.column, query: text)
        }
    }
}
