#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

extension QuerySyntax {
    /// The query as a readable outline, one step per line (`stanzaq --explain`):
    ///
    /// ```
    /// query: {urn:xmpp:delay}delay@stamp|datetime
    /// start: the children of the context node
    /// 1. select: elements named 'delay' in namespace 'urn:xmpp:delay'
    /// extract: attribute 'stamp'
    /// convert: datetime (XEP-0082 date and time; no result if invalid)
    /// ```
    ///
    /// stanzaq's extensions of Monal's language are marked "(stanzaq extension)".
    public var explanation: String { explanation(options: QueryOptions()) }

    /// The outline of the query as compiled with `options` (which say how
    /// filters compare case).
    public func explanation(options: QueryOptions) -> String {
        var lines = ["query: " + (text.isEmpty ? "(empty: the context node itself)" : text)]
        if steps.isEmpty {
            lines.append("start: the context node itself")
        } else {
            lines.append(rooted ? "start: the context node itself (rooted query)" : "start: the children of the context node")
        }
        if text.hasPrefix("//"), steps.count > 1 {
            // Valid, and Prosody's: but whoever writes it probably means XPath's "anywhere".
            lines.append("note: this '//' is an empty segment (the context node itself), not XPath's '//': "
                         + "any depth is written '**/'")
        }
        for (index, step) in steps.enumerated() {
            let number = "\(index + 1). "
            switch step {
            case .parent:
                lines.append(number + "up: the parent of each node reached so far")
            case .anyDepth:
                lines.append(number + "any depth: the nodes reached so far and all their descendants, "
                             + "each once, in document order (stanzaq extension)")
                if case .select(let next)? = steps.dropFirst(index + 1).first, next.name == .unnamed, !next.filters.isEmpty {
                    lines.append("   note: the next segment's filters test the children of these nodes, "
                                 + "not the nodes themselves: '**<…>' tests them all, the context node included")
                }
            case .keep(let filters, _):
                lines.append(number + "keep: of those, the elements (any name, any namespace) that pass the filters "
                             + "(stanzaq extension)")
                for filter in filters {
                    lines.append("   where " + describe(filter, caseSensitive: options.caseSensitive))
                }
            case .select(let selector):
                if rooted && index == 0 {
                    lines.append(number + "select: the context node, if it is " + describe(selector, onContext: true))
                } else {
                    lines.append(number + "select: " + describe(selector))
                }
                for filter in selector.filters {
                    lines.append("   where " + describe(filter, caseSensitive: options.caseSensitive))
                }
            }
        }
        switch extraction {
        case nil: lines.append("result: the selected elements")
        case .attribute(let attribute)?: lines.append("extract: attribute " + describe(attribute))
        case .allAttributes?: lines.append("extract: all attributes, as a map (with xmlns)")
        case .text?: lines.append("extract: the text")
        case .name?: lines.append("extract: the element name")
        case .dataForm(let form)?: lines.append(contentsOf: describe(form))
        }
        if let conversion {
            lines.append("convert: " + conversion.conversion.summary)
        }
        return lines.joined(separator: "\n")
    }

    /// A selector as a phrase: "elements named 'x' in …", or, for the rooted first
    /// segment matched against the context node itself, "an element named 'x' in …".
    private func describe(_ selector: Selector, onContext: Bool = false) -> String {
        let name: String
        switch selector.name {
        case .unnamed, .any: name = "any element"
        case .named(let element): name = (onContext ? "an element" : "elements") + " named '\(element)'"
        case .notNamed(let element): name = (onContext ? "an element" : "elements") + " not named '\(element)'"
        }
        switch selector.namespace {
        case .any: return name + " in any namespace"
        case .uri(let uri): return name + " in namespace '\(uri)'"
        case .prefix(let prefix): return name + " in the namespace of prefix '\(prefix)' (resolved by --ns, else on the element; stanzaq extension)"
        case .inherited where !onContext: return name + " in the parent's namespace"
        case .inherited:
            return name + (selector.isEmpty ? " in any namespace" : " in its parent's namespace (any, on a stanza)")
        }
    }

    private func describe(_ filter: Filter, caseSensitive: Bool) -> String {
        let subject: String
        var notes: [String] = []
        switch filter.subject {
        case .attribute(let attribute): subject = describe(attribute)
        case .text:
            subject = "the text"
            notes.append("stanzaq extension")
        case .anyAttribute:
            subject = "any attribute's value (xmlns included)"
            notes.append("stanzaq extension")
        }
        let comparison = caseSensitive ? "case included" : "ignoring case"
        switch filter.test {
        case .equals(let parts):
            if parts.contains(where: \.isSpecifier) { notes.insert("format arguments filled in", at: 0) }
            return subject + " equals '\(parts.written)', \(comparison)" + Self.parenthesized(notes)
        case .matches(let parts, _):
            if parts.contains(where: \.isSpecifier) {
                notes.append("format arguments filled in as literal text: stanzaq extension")
            }
            return subject + " matches the regular expression '\(parts.written)', \(comparison)" + Self.parenthesized(notes)
        }
    }

    private static func parenthesized(_ notes: [String]) -> String {
        notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
    }

    private func describe(_ attribute: AttributeName) -> String {
        switch attribute.namespace {
        case .none: return "'\(attribute.name)'"
        case .uri(let uri): return "'\(attribute.name)' in namespace '\(uri)'"
        case .prefix(let prefix): return "'\(prefix):\(attribute.name)' (prefix resolved by --ns, else on the element)"
        }
    }

    private func describe(_ form: DataFormSyntax) -> [String] {
        var lines = ["extract: data form (XEP-0004)"]
        lines.append("   FORM_TYPE: " + (form.formType.map { "'\($0)'" } ?? "any"))
        lines.append("   form type: " + (form.type.map { "'\($0)'" } ?? "any"))
        if let index = form.index { lines.append("   item: \(index) (0-based)") }
        switch form.field {
        case nil: lines.append("   result: the form element")
        case .value(let name)?: lines.append("   result: the first value of field '\(name)'")
        case .description(let name)?: lines.append("   result: a description of field '\(name)'")
        }
        return lines
    }
}

extension Conversion {
    /// One line on what the conversion gives.
    var summary: String {
        switch self {
        case .bool: return "bool (true for 'true' or '1', else false)"
        case .int: return "int (leading integer, saturating; 0 if none)"
        case .uint: return "uint (the int, reinterpreted as unsigned)"
        case .double: return "double (leading decimal number; 0 if none)"
        case .datetime: return "datetime (XEP-0082 date and time; no result if invalid)"
        case .base64: return "base64 (decoded bytes; no result if invalid)"
        case .uuid: return "uuid (no result if not a UUID)"
        case .uuidcast: return "uuidcast (the UUID, or one made from the SHA-256 of the text)"
        }
    }
}
