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
        write(element, scope: &scope, inForce: nil, depth: 0, into: &out)
    }

    /// - Parameter inForce: a binding known to be in `scope` (the parent's own
    ///   prefix and namespace): an element in its parent's namespace under the
    ///   parent's prefix, the common case, declares nothing and looks nothing up.
    private func write(_ element: Element, scope: inout NamespaceScope, inForce: (prefix: String?, uri: String)?,
                       depth: Int, into out: inout [UInt8]) {
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
                    appendUTF8(prefix, to: &$0)
                }
            }, value: uri)
        }
        for declaration in element.namespaceDeclarations { declare(declaration.prefix, declaration.uri) }
        if !element.namespaceDeclarations.isEmpty || inForce == nil || inForce!.prefix != element.prefix
            || inForce!.uri != element.namespace {
            declare(element.prefix, element.namespace)
        }
        // The element's own binding stays in force for its children unless an
        // attribute rebinds its prefix (which well-formed XML never does).
        var ownBinding: (prefix: String?, uri: String)? = (element.prefix, element.namespace)
        for attribute in element.attributes where attribute.prefix != nil && attribute.prefix != "xml" {
            declare(attribute.prefix, attribute.namespace)
            if attribute.prefix == element.prefix { ownBinding = nil }
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
                childOptions.write(childElement, scope: &scope, inForce: ownBinding, depth: depth + 1, into: &out)
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

/// The namespace bindings in scope while an element is written: a log of the
/// bindings made, the latest last, each with what it replaced, so that leaving
/// an element restores its parent's bindings. A prefix is looked up from the
/// end of the log (a few entries: hashing a prefix cost more than the search);
/// past 32 bindings, in a map kept besides, so that an element with many
/// declarations does not make the search quadratic.
private struct NamespaceScope {
    private var log: [(prefix: String?, uri: String, previous: String?)] = []
    private var index: [String?: String]?

    /// Where the log stands, to restore to when an element ends.
    var mark: Int { log.count }

    /// The URI `prefix` is bound to.
    private func current(_ prefix: String?) -> String? {
        if let index { return index[prefix] ?? nil }
        for entry in log.reversed() where entry.prefix == prefix { return entry.uri }
        return prefix == nil ? "" : prefix == "xml" ? xmlNamespaceURI : nil
    }

    /// Binds `prefix` to `uri`; returns whether that is a change (a
    /// declaration to write).
    mutating func bind(_ prefix: String?, to uri: String) -> Bool {
        let previous = current(prefix)
        if previous == uri { return false }
        log.append((prefix, uri, previous))
        if index != nil {
            index![prefix] = uri
        } else if log.count > 32 {
            var map: [String?: String] = [nil: "", "xml": xmlNamespaceURI]
            for entry in log { map[entry.prefix] = entry.uri }
            index = map
        }
        return true
    }

    /// Undoes the bindings made since `mark`, the latest first.
    mutating func restore(to mark: Int) {
        while log.count > mark {
            let entry = log.removeLast()
            if index != nil { index![entry.prefix] = entry.previous }
        }
    }
}

private func appendName(_ prefix: String?, _ name: String, to out: inout [UInt8]) {
    if let prefix {
        appendUTF8(prefix, to: &out)
        out.append(UInt8(ascii: ":"))
    }
    appendUTF8(name, to: &out)
}

/// Appends a string's UTF-8 at once (`append(contentsOf: string.utf8)` goes
/// through the generic sequence path, a byte at a time).
@inline(__always)
private func appendUTF8(_ string: String, to out: inout [UInt8]) {
    if string.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
        out.append(contentsOf: string.utf8)
    }
}

/// Escapes text (quote `nil`) or a quoted attribute value; `newlines`: text's
/// newlines too, so that the element stays on one line (`--compact`).
///
/// Runs of bytes that need no escape are appended at once: byte by byte, this
/// was much of the work of printing stanzas whole.
func appendEscaped(_ string: String, quote: UInt8?, to out: inout [UInt8], newlines: Bool = false) {
    // Which bytes are escaped, as bits of a mask (they are all below 64): one
    // comparison and one shift per byte.
    let escaped = quote == UInt8(ascii: "'") ? escapedInAttribute : quote != nil ? escapedInOtherAttribute
        : newlines ? escapedInCompactText : escapedInText
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 64, escaped & (1 << UInt64(byte)) != 0 else { continue }
            if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            escape(byte).withUTF8Buffer { out.append(contentsOf: $0) }
            runStart = index + 1
        }
        if runStart == 0 {
            out.append(contentsOf: bytes)
        } else if runStart < bytes.count {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }
    if string.utf8.withContiguousStorageIfAvailable(append) == nil {
        Array(string.utf8).withUnsafeBufferPointer(append)
    }
}

/// What an escaped byte is written as.
private func escape(_ byte: UInt8) -> StaticString {
    switch byte {
    case UInt8(ascii: "&"): return "&amp;"
    case UInt8(ascii: "<"): return "&lt;"
    case UInt8(ascii: ">"): return "&gt;"
    case UInt8(ascii: "'"): return "&apos;"
    // Attribute-value normalisation would turn these into spaces on the way back in.
    case 0x0A: return "&#10;"
    case 0x0D: return "&#13;"
    default: return "&#9;"
    }
}

private func escapeMask(_ bytes: String) -> UInt64 {
    bytes.utf8.reduce(0) { $0 | 1 << UInt64($1) }
}

// Text: & < > and carriage returns; --compact: newlines too. A quoted attribute
// value: & < the quote, newlines, carriage returns and tabs.
private let escapedInText = escapeMask("&<>\r")
private let escapedInCompactText = escapeMask("&<>\r\n")
private let escapedInAttribute = escapeMask("&<'\r\n\t")
private let escapedInOtherAttribute = escapeMask("&<\r\n\t")

extension Element {
    /// The element as standalone XML (see ``XMLSerializer``).
    public func xmlString(pretty: Bool = false) -> String {
        XMLSerializer(options: .init(pretty: pretty)).string(for: self)
    }
}
