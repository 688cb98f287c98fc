import Foundation

/// A path segment ready to test elements: names and namespaces compared
/// directly, filter values bound to their arguments, regexes compiled.
struct CompiledSelector {
    let syntax: QuerySyntax.Selector
    let filters: [CompiledFilter]

    /// - Parameter inherited: the namespace an omitted `{ns}` stands for;
    ///   `nil` when any namespace matches (a rooted query on a stanza).
    func matches(_ element: Element, inherited: String?) -> Bool {
        switch syntax.name {
        case .any, .unnamed: break
        case .named(let name): if element.name != name { return false }
        case .notNamed(let name): if element.name == name { return false }
        }
        switch syntax.namespace {
        case .any: break
        case .uri(let uri): if element.namespace != uri { return false }
        case .inherited: if let inherited, element.namespace != inherited { return false }
        }
        for filter in filters where !filter.matches(element) { return false }
        return true
    }
}

struct CompiledFilter {
    let attribute: QuerySyntax.AttributeName
    let test: Test

    enum Test {
        case equals(CaselessMatcher)
        case matches(NSRegularExpression)
    }

    func matches(_ element: Element) -> Bool {
        guard let value = element.value(of: attribute) else { return false }
        switch test {
        case .equals(let matcher): return matcher.matches(value)
        case .matches(let regex): return regexMatches(regex, value)
        }
    }
}

extension Element {
    /// The attribute as an `@` extraction or a filter names it; `nil` if absent.
    func value(of attribute: QuerySyntax.AttributeName) -> String? {
        let namespace: String
        switch attribute.namespace {
        case .none: namespace = ""
        case .uri(let uri): namespace = uri
        case .prefix(let prefix):
            guard let uri = namespaceURI(forPrefix: prefix) else { return nil }
            namespace = uri
        }
        return self.attribute(attribute.name, namespace: namespace)
    }
}
