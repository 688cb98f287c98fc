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
        var scope = NamespaceScope()
        write(element, scope: &scope, depth: 0, into: &out)
    }

    private func write(_ element: Element, scope: inout NamespaceScope, depth: Int, into out: inout [UInt8]) {
        let mark = scope.mark
        defer { scope.restore(to: mark) }

        out.append(UInt8(ascii: "<"))
        highlighted(options.highlight?.tag, in: &out) { appendName(element.prefix, element.name, to: &$0) }

        func declare(_ prefix: String?, _ uri: String) {
            guard scope.bind(prefix, to: uri) else { return }
            out.append(UInt8(ascii: " "))
            writeAttribute(into: &out, name: {
                $0.append(contentsOf: "xmlns".utf8)
                if let prefix {
                    $0.append(UInt8(ascii: ":"))
                    $0.append(contentsOf: prefix.utf8)
                }
            }, value: uri)
        }
        for declaration in element.namespaceDeclarations { declare(declaration.prefix, declaration.uri) }
        declare(element.prefix, element.namespace)
        for attribute in element.attributes where attribute.prefix != nil && attribute.prefix != "xml" {
            declare(attribute.prefix, attribute.namespace)
        }
        for attribute in element.attributes {
            out.append(UInt8(ascii: " "))
            writeAttribute(into: &out, name: { appendName(attribute.prefix, attribute.name, to: &$0) }, value: attribute.value)
        }

        if element.children.isEmpty {
            out.append(contentsOf: "/>".utf8)
            return
        }
        out.append(UInt8(ascii: ">"))
        // Element-only content (whitespace between child elements, no other
        // text): --pretty indents it, --compact drops the whitespace.
        let elementOnly = (options.pretty || options.compact) && element.children.contains {
            if case .element = $0 { return true } else { return false }
        } && element.children.allSatisfy {
            if case .text(let text) = $0 { return text.utf8.allSatisfy(isXMLSpace) } else { return true }
        }
        let indentChildren = elementOnly && options.pretty
        var childOptions = self
        if !indentChildren { childOptions.options.pretty = false }   // never add whitespace to mixed content
        for child in element.children {
            switch child {
            case .text(let text):
                if !elementOnly { appendEscaped(text, quote: nil, to: &out, newlines: options.compact) }
            case .element(let childElement):
                if indentChildren { newline(depth: depth + 1, into: &out) }
                childOptions.write(childElement, scope: &scope, depth: depth + 1, into: &out)
            }
        }
        if indentChildren { newline(depth: depth, into: &out) }
        out.append(contentsOf: "</".utf8)
        highlighted(options.highlight?.tag, in: &out) { appendName(element.prefix, element.name, to: &$0) }
        out.append(UInt8(ascii: ">"))
    }

    private func writeAttribute(into out: inout [UInt8], name: (inout [UInt8]) -> Void, value: String) {
        highlighted(options.highlight?.attributeName, in: &out, name)
        out.append(UInt8(ascii: "="))
        highlighted(options.highlight?.attributeValue, in: &out) {
            $0.append(UInt8(ascii: "'"))
            appendEscaped(value, quote: UInt8(ascii: "'"), to: &$0)
            $0.append(UInt8(ascii: "'"))
        }
    }

    /// Appends what `body` writes, wrapped in a colour if there is one.
    private func highlighted(_ colour: String?, in out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        guard let colour, let reset = options.highlight?.reset else { return body(&out) }
        out.append(contentsOf: colour.utf8)
        body(&out)
        out.append(contentsOf: reset.utf8)
    }

    private func newline(depth: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }
}

/// The namespace bindings in scope while an element is written: each prefix's
/// current URI in a map, and an undo log of what each binding replaced, so
/// that leaving an element restores its parent's bindings. Looking a prefix up
/// costs the same however many are declared (a list searched from the end made
/// an element with many declarations quadratic).
private struct NamespaceScope {
    private var bindings: [String?: String] = [nil: "", "xml": xmlNamespaceURI]
    private var undo: [(prefix: String?, previous: String?)] = []

    /// Where the undo log stands, to restore to when an element ends.
    var mark: Int { undo.count }

    /// Binds `prefix` to `uri`; returns whether that is a change (a
    /// declaration to write).
    mutating func bind(_ prefix: String?, to uri: String) -> Bool {
        let previous = bindings.updateValue(uri, forKey: prefix)
        if previous == uri { return false }
        undo.append((prefix, previous))
        return true
    }

    /// Undoes the bindings made since `mark`, the latest first.
    mutating func restore(to mark: Int) {
        while undo.count > mark {
            let (prefix, previous) = undo.removeLast()
            bindings[prefix] = previous
        }
    }
}

private func appendName(_ prefix: String?, _ name: String, to out: inout [UInt8]) {
    if let prefix {
        out.append(contentsOf: prefix.utf8)
        out.append(UInt8(ascii: ":"))
    }
    out.append(contentsOf: name.utf8)
}

/// Escapes text (quote `nil`) or a quoted attribute value; `newlines`: text's
/// newlines too, so that the element stays on one line (`--compact`).
///
/// Runs of bytes that need no escape are appended at once: byte by byte, this
/// was a third of printing stanzas whole (callgrind, `-s` over the corpus).
func appendEscaped(_ string: String, quote: UInt8?, to out: inout [UInt8], newlines: Bool = false) {
    let escapesNewlines = newlines || quote != nil
    let escapesGreater = quote == nil
    let escapesApostrophe = quote == UInt8(ascii: "'")
    let escapesTab = quote != nil
    /// What `byte` is written as, or `nil` for itself.
    @inline(__always)
    func replacement(_ byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">") where escapesGreater: return "&gt;"
        case UInt8(ascii: "'") where escapesApostrophe: return "&apos;"
        // Attribute-value normalisation would turn these into spaces on the way back in.
        case 0x0A where escapesNewlines: return "&#10;"
        case 0x0D: return "&#13;"
        case 0x09 where escapesTab: return "&#9;"
        default: return nil
        }
    }
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            // Every byte escaped is below '?' (0x3F): most bytes are done with one comparison.
            guard byte < 0x3F, let escaped = replacement(byte) else { continue }
            if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            escaped.withUTF8Buffer { out.append(contentsOf: $0) }
            runStart = index + 1
        }
        if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
    }
    if string.utf8.withContiguousStorageIfAvailable(append) == nil {
        Array(string.utf8).withUnsafeBufferPointer(append)
    }
}

extension Element {
    /// The element as standalone XML (see ``XMLSerializer``).
    public func xmlString(pretty: Bool = false) -> String {
        XMLSerializer(options: .init(pretty: pretty)).string(for: self)
    }
}
