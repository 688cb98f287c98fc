import FoundationEssentials
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// One result of a query (stanzaq-query(7), EXTRACTIONS, CONVERSIONS, DATA FORMS).
public enum QueryValue {
    /// A selected element (a query without extraction, or a whole data form).
    case element(Element)
    /// `@attr`, `#`, `$` or `@field` without conversion.
    case string(String)
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case dateTime(DateTime)
    /// `|base64`: the decoded bytes.
    case data([UInt8])
    case uuid(UUID)
    /// `@@`: every attribute in document order, `xmlns` (the element's namespace) first.
    case attributes([KeyValue])
    /// `%field` / `&field`: a description of a data-form field.
    // Indirect: inline, its seven fields made every value large, copied and
    // destroyed through value witnesses on every result.
    indirect case field(FieldDescription)
}

/// A key and a string value of an ordered map.
public struct KeyValue: Equatable, Sendable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// What `%field` says of a data-form field (stanzaq-query(7), DATA FORMS).
public struct FieldDescription: Equatable, Sendable {
    /// The field's `var`.
    public var name: String
    /// Its `type`: with an index, from the field of that name in `<reported/>`
    /// if there is one, else the field's own; `nil` when that one has none.
    public var type: String?
    /// The first value with text (what `@field` gives), `nil` if none.
    public var value: String?
    /// The `<value/>`s with text, in order (an empty `<value/>` is no value).
    public var values: [String]
    /// `<option/>`s: value → label (the label defaults to the value), one
    /// entry per value: a later option with the same value replaces the label.
    public var options: [KeyValue]
    /// The `<desc/>` text, `nil` if none.
    public var desc: String?
    /// Whether the field has `<required/>`.
    public var required: Bool
}

extension QueryValue: Equatable {
    public static func == (lhs: QueryValue, rhs: QueryValue) -> Bool {
        switch (lhs, rhs) {
        case (.element(let a), .element(let b)): return a === b
        case (.string(let a), .string(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.uint(let a), .uint(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.dateTime(let a), .dateTime(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.attributes(let a), .attributes(let b)): return a == b
        case (.field(let a), .field(let b)): return a == b
        default: return false
        }
    }
}
