/// A namespace declaration as written on an element: `xmlns='uri'` (prefix `nil`)
/// or `xmlns:prefix='uri'`.
public struct NamespaceDeclaration: Hashable, Sendable {
    /// The declared prefix, or `nil` for the default namespace.
    public var prefix: String?
    /// The namespace URI ("" undeclares the default namespace).
    public var uri: String

    public init(prefix: String?, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}

/// An attribute of an element. `xmlns` declarations are not attributes
/// (see ``Element/namespaceDeclarations``).
public struct Attribute: Hashable, Sendable {
    /// The local name (`lang` for `xml:lang`).
    public var name: String
    /// The prefix as written (`xml` for `xml:lang`), `nil` if none.
    public var prefix: String?
    /// The namespace URI; "" for an unprefixed attribute.
    public var namespace: String
    /// The value, with entity and character references decoded.
    public var value: String

    public init(name: String, prefix: String? = nil, namespace: String = "", value: String) {
        self.name = name
        self.prefix = prefix
        self.namespace = namespace
        self.value = value
    }

    /// The name as written: `prefix:name` or `name`.
    public var qualifiedName: String {
        if let prefix { return prefix + ":" + name }
        return name
    }
}

/// A child of an element: another element or a run of text.
public enum Node {
    case element(Element)
    case text(String)
}

/// The namespace the `xml` prefix is always bound to.
public let xmlNamespaceURI = "http://www.w3.org/XML/1998/namespace"

/// An XML element: the unit stanzas are made of.
///
/// Elements form a tree through ``children`` and ``parent``. A stanza read
/// by ``StanzaReader`` is the root of its own tree: its ``parent`` is `nil`,
/// even inside an XMPP stream.
public final class Element {
    /// The local name (`error` for `<stream:error>`).
    public let name: String
    /// The namespace URI resolved by XML namespace rules; "" when none is in scope.
    public let namespace: String
    /// The prefix as written (`stream` for `<stream:error>`), `nil` if none.
    public let prefix: String?
    /// Attributes in document order.
    public internal(set) var attributes: [Attribute]
    /// Namespace declarations written on this element, in document order.
    public internal(set) var namespaceDeclarations: [NamespaceDeclaration]
    /// For a stanza read from a stream: the declarations the stream had in
    /// scope, so that prefixes declared there still resolve.
    // Unchecked, as `children` below: set by the reader once per stanza.
    @exclusivity(unchecked) public internal(set) var inheritedDeclarations: [NamespaceDeclaration] = []
    /// Elements and text runs in document order.
    // Unchecked: the reader appends to it once per element and text run, and the
    // run-time exclusivity check was most of the cost of doing so. Nothing
    // accesses it re-entrantly.
    @exclusivity(unchecked) public internal(set) var children: [Node] = []
    /// The element this one is a child of; `nil` for a stanza root.
    // Unchecked, as `children`: set once per element by the reader.
    @exclusivity(unchecked) public internal(set) weak var parent: Element?

    /// Creates a detached element. Use ``append(_:)`` and ``appendText(_:)`` to build a tree.
    public init(
        name: String, namespace: String = "", prefix: String? = nil,
        attributes: [Attribute] = [], namespaceDeclarations: [NamespaceDeclaration] = []
    ) {
        self.name = name
        self.namespace = namespace
        self.prefix = prefix
        self.attributes = attributes
        self.namespaceDeclarations = namespaceDeclarations
    }

    /// `prefix:name` as written, or `name`.
    public var qualifiedName: String {
        prefix.map { $0 + ":" + name } ?? name
    }

    /// Appends `child` (which becomes this element's child) after the existing children.
    public func append(_ child: Element) {
        child.parent = self
        children.append(.element(child))
    }

    /// Appends a run of text, merged with a text run that ends the children.
    public func appendText(_ text: String) {
        if case .text(let previous)? = children.last {
            children[children.count - 1] = .text(previous + text)
        } else {
            children.append(.text(text))
        }
    }

    /// The child elements, in document order.
    public var childElements: [Element] {
        children.compactMap { if case .element(let e) = $0 { return e } else { return nil } }
    }

    /// The concatenation of the direct text children, or `nil` when that is empty
    /// (the `#` extraction).
    public var text: String? {
        var result = ""
        var runs = 0
        for case .text(let run) in children {
            // One run is returned as it is (its storage shared, not copied);
            // several are appended in place (`result + run` copied all so far).
            if runs == 0 { result = run } else { result += run }
            runs += 1
        }
        return result.isEmpty ? nil : result
    }

    /// The value of the attribute with this local name and namespace ("" for unprefixed).
    public func attribute(_ name: String, namespace: String = "") -> String? {
        for attribute in attributes where attribute.name == name && attribute.namespace == namespace {
            return attribute.value
        }
        return nil
    }

    /// The namespace URI `prefix` is bound to at this element (`nil` prefix: the
    /// default namespace), looking at this element, its ancestors and, at the
    /// root, the declarations inherited from the stream.
    public func namespaceURI(forPrefix prefix: String?) -> String? {
        if prefix == "xml" { return xmlNamespaceURI }
        var node: Element? = self
        var last: Element = self
        while let current = node {
            for declaration in current.namespaceDeclarations where declaration.prefix == prefix {
                return declaration.uri
            }
            last = current
            node = current.parent
        }
        for declaration in last.inheritedDeclarations.reversed() where declaration.prefix == prefix {
            return declaration.uri
        }
        return nil
    }
}
