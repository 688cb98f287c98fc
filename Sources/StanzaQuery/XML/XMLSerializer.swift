/// Terminal colours for serialised XML (see ``RenderOptions/highlight``).
public struct XMLHighlight: Sendable {
    public var tag: String
    public var attributeName: String
    public var attributeValue: String
    public var reset: String

    public init(tag: String, attributeName: String, attributeValue: String, reset: String) {
        self.tag = tag
        self.attributeName = attributeName
        self.attributeValue = attributeValue
        self.reset = reset
    }

    /// ANSI colours: tags blue, attribute names yellow, values green.
    public static let ansi = XMLHighlight(
        tag: "\u{1B}[1;34m", attributeName: "\u{1B}[33m", attributeValue: "\u{1B}[32m", reset: "\u{1B}[0m")
}

/// Writes an element as standalone XML.
///
/// The element declares its own namespace and every prefix it uses, even when
/// they were inherited (from a stream, say); below it, declarations appear only
/// where they change. Attributes are single-quoted, prefixes kept as read.
public struct XMLSerializer: Sendable {
    /// How to write: the one set of options every rendering takes (the
    /// serializer reads `pretty` and `highlight`).
    public typealias Options = RenderOptions

    public var options: RenderOptions

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// The element as an XML string.
    public func string(for element: Element) -> String {
        var bytes: [UInt8] = []
        write(element, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the element's XML to `out` as UTF-8.
    public func write(_ element: Element, into out: inout [UInt8]) {
        var scope: [NamespaceDeclaration] = [
            NamespaceDeclaration(prefix: nil, uri: ""), NamespaceDeclaration(prefix: "xml", uri: xmlNamespaceURI),
        ]
        write(element, scope: &scope, depth: 0, into: &out)
    }

    private func write(_ element: Element, scope: inout [NamespaceDeclaration], depth: Int, into out: inout [UInt8]) {
        let scopeSize = scope.count
        defer { scope.removeSubrange(scopeSize...) }

        out.append(UInt8(ascii: "<"))
        let start = out.count
        appendName(element.prefix, element.name, to: &out)
        // A copy, not a slice: a slice of `out` kept while `out` grows would make
        // every append below copy the whole buffer.
        let qualifiedName = Array(out[start...])
        highlighted(options.highlight?.tag, from: start, in: &out)

        func declare(_ prefix: String?, _ uri: String) {
            if let bound = scope.last(where: { $0.prefix == prefix }), bound.uri == uri { return }
            scope.append(NamespaceDeclaration(prefix: prefix, uri: uri))
            out.append(UInt8(ascii: " "))
            let nameStart = out.count
            out.append(contentsOf: "xmlns".utf8)
            if let prefix {
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: prefix.utf8)
            }
            writeAttributeValue(uri, nameStart: nameStart, into: &out)
        }
        for declaration in element.namespaceDeclarations { declare(declaration.prefix, declaration.uri) }
        declare(element.prefix, element.namespace)
        for attribute in element.attributes where attribute.prefix != nil && attribute.prefix != "xml" {
            declare(attribute.prefix, attribute.namespace)
        }
        for attribute in element.attributes {
            out.append(UInt8(ascii: " "))
            let nameStart = out.count
            appendName(attribute.prefix, attribute.name, to: &out)
            writeAttributeValue(attribute.value, nameStart: nameStart, into: &out)
        }

        if element.children.isEmpty {
            out.append(contentsOf: "/>".utf8)
            return
        }
        out.append(UInt8(ascii: ">"))
        let indentChildren = options.pretty && element.children.contains {
            if case .element = $0 { return true } else { return false }
        } && element.children.allSatisfy {
            if case .text(let text) = $0 { return text.utf8.allSatisfy(isXMLSpace) } else { return true }
        }
        var childOptions = self
        if !indentChildren { childOptions.options.pretty = false }   // never add whitespace to mixed content
        for child in element.children {
            switch child {
            case .text(let text):
                if !indentChildren { appendEscaped(text, quote: nil, to: &out) }
            case .element(let childElement):
                if indentChildren { newline(depth: depth + 1, into: &out) }
                childOptions.write(childElement, scope: &scope, depth: depth + 1, into: &out)
            }
        }
        if indentChildren { newline(depth: depth, into: &out) }
        out.append(contentsOf: "</".utf8)
        let endStart = out.count
        out.append(contentsOf: qualifiedName)
        highlighted(options.highlight?.tag, from: endStart, in: &out)
        out.append(UInt8(ascii: ">"))
    }

    private func writeAttributeValue(_ value: String, nameStart: Int, into out: inout [UInt8]) {
        highlighted(options.highlight?.attributeName, from: nameStart, in: &out)
        out.append(UInt8(ascii: "="))
        let valueStart = out.count
        out.append(UInt8(ascii: "'"))
        appendEscaped(value, quote: UInt8(ascii: "'"), to: &out)
        out.append(UInt8(ascii: "'"))
        highlighted(options.highlight?.attributeValue, from: valueStart, in: &out)
    }

    /// Wraps out[start...] in a colour, if there is one.
    private func highlighted(_ colour: String?, from start: Int, in out: inout [UInt8]) {
        guard let colour, let reset = options.highlight?.reset else { return }
        out.insert(contentsOf: colour.utf8, at: start)
        out.append(contentsOf: reset.utf8)
    }

    private func newline(depth: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }
}

private func appendName(_ prefix: String?, _ name: String, to out: inout [UInt8]) {
    if let prefix {
        out.append(contentsOf: prefix.utf8)
        out.append(UInt8(ascii: ":"))
    }
    out.append(contentsOf: name.utf8)
}

/// Escapes text (quote `nil`) or a quoted attribute value.
func appendEscaped(_ string: String, quote: UInt8?, to out: inout [UInt8]) {
    for byte in string.utf8 {
        switch byte {
        case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">") where quote == nil: out.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "'") where quote == UInt8(ascii: "'"): out.append(contentsOf: "&apos;".utf8)
        // Attribute-value normalisation would turn these into spaces on the way back in.
        case 0x0A where quote != nil: out.append(contentsOf: "&#10;".utf8)
        case 0x0D: out.append(contentsOf: "&#13;".utf8)
        case 0x09 where quote != nil: out.append(contentsOf: "&#9;".utf8)
        default: out.append(byte)
        }
    }
}

extension Element {
    /// The element as standalone XML (see ``XMLSerializer``).
    public func xmlString(pretty: Bool = false) -> String {
        XMLSerializer(options: .init(pretty: pretty)).string(for: self)
    }
}
