#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// The parsed form of a query (stanzaq-query(7), GRAMMAR), before format arguments are bound.
///
/// Columns are 1-based positions in the query text, counted in Unicode scalars;
/// errors and `--explain` use them.
public struct QuerySyntax: Equatable, Sendable {
    /// The query as written.
    public var text: String
    /// A leading `/`: the first step matches the context node itself.
    public var rooted: Bool
    /// The path, in order. Empty for `""` and for a bare extraction (`@id`).
    public var steps: [Step]
    public var extraction: Extraction?
    public var conversion: ConversionSyntax?

    /// How many format specifiers (`%@`, `%d`, …) the query's filters hold.
    public var formatSpecifierCount: Int {
        steps.reduce(0) { count, step in
            let filters: [Filter]
            switch step {
            case .select(let selector): filters = selector.filters
            case .keep(let kept, _): filters = kept
            case .parent, .anyDepth: return count
            }
            return count + filters.reduce(0) { count, filter in
                count + filter.test.parts.filter(\.isSpecifier).count
            }
        }
    }

    /// One `/`-separated segment of the path.
    public enum Step: Equatable, Sendable {
        /// `..`: the parent of each node reached so far.
        case parent(column: Int)
        /// A selection of elements by namespace, name and attribute filters.
        case select(Selector)
        /// `**` (a stanzaq extension): the nodes reached so far and all their
        /// descendants, each once, in document order.
        case anyDepth(column: Int)
        /// The filters written right after `**` (`**<to~ghost>`, a stanzaq
        /// extension): of the nodes reached so far, those that pass them all,
        /// whatever their name and namespace. It always follows an ``anyDepth(column:)``.
        case keep(filters: [Filter], column: Int)
    }

    /// `{ns}name<filter>…`, `{ns}!name`, `{ns}`, or an empty segment.
    public struct Selector: Equatable, Sendable {
        public var namespace: NamespaceTest
        public var name: NameTest
        public var filters: [Filter]
        public var column: Int

        /// Names neither element nor namespace (filters aside).
        var isEmpty: Bool { namespace == .inherited && name == .unnamed }
    }

    public enum NamespaceTest: Equatable, Sendable {
        /// No `{…}`: the namespace of the parent of the nodes being matched.
        case inherited
        /// `{*}`
        case any
        /// `{uri}`
        case uri(String)
        /// `prefix:name`: the namespace `prefix` is bound to, by `--ns` or in
        /// the scope of the element being matched (a stanzaq extension).
        case prefix(String)
    }

    public enum NameTest: Equatable, Sendable {
        /// No name: any element (Prosody's empty segment).
        case unnamed
        /// `*`
        case any
        case named(String)
        /// `!name`: every element not called `name`.
        case notNamed(String)
    }

    /// An attribute as named in a filter or an `@` extraction.
    public struct AttributeName: Equatable, Sendable {
        public var name: String
        public var namespace: AttributeNamespace
    }

    public enum AttributeNamespace: Equatable, Sendable {
        /// `name`: an attribute without a namespace.
        case none
        /// `{uri}name`
        case uri(String)
        /// `prefix:name`, resolved in the element's scope.
        case prefix(String)
    }

    /// `<attr=value>`, `<attr~regex>`, or a text filter `<#=value>`, `<#~regex>`.
    public struct Filter: Equatable, Sendable {
        public var subject: FilterSubject
        public var test: FilterTest
        public var column: Int
    }

    /// What a filter tests.
    public enum FilterSubject: Equatable, Sendable {
        /// An attribute's value: the attribute must exist.
        case attribute(AttributeName)
        /// `#` (a stanzaq extension): the element's text, as the `#` extraction
        /// reads it; an element without text fails the filter.
        case text
        /// `*` (a stanzaq extension): any of the element's attributes, its
        /// namespace (`xmlns`) included as `@@` gives it: the filter passes
        /// when one of their values does.
        case anyAttribute
    }

    public enum FilterTest: Equatable, Sendable {
        /// `=`: equal, ignoring case; the value may hold format specifiers.
        case equals([ValuePart])
        /// `~`: an ICU regular expression found anywhere in the value, ignoring
        /// case. Its `%@` and `%s` (a stanzaq extension) are filled with the
        /// argument as an escaped literal; the other parts are the pattern as written.
        case matches(pattern: [ValuePart], column: Int)

        /// The value or pattern, in pieces.
        public var parts: [ValuePart] {
            switch self {
            case .equals(let parts), .matches(let parts, _): return parts
            }
        }
    }

    /// A piece of the value of an `=` filter or the pattern of a `~` filter.
    public enum ValuePart: Equatable, Sendable {
        case literal(String)
        case specifier(FormatSpecifier, column: Int)

        var isSpecifier: Bool {
            if case .specifier = self { return true } else { return false }
        }
    }

    public enum Extraction: Equatable, Sendable {
        /// `@name`, `@{ns}name`, `@prefix:name`
        case attribute(AttributeName)
        /// `@@`
        case allAttributes
        /// `#`
        case text
        /// `$`
        case name
        /// `\…\`
        case dataForm(DataFormSyntax)
    }

    /// `\{FORM_TYPE}type[index]@field\` (stanzaq-query(7), DATA FORMS).
    public struct DataFormSyntax: Equatable, Sendable {
        /// The `FORM_TYPE` field value to require; `nil` for any (absent or `*`).
        public var formType: String?
        /// The form's `type` attribute to require; `nil` for any (absent or `*`).
        public var type: String?
        /// The `<item/>` to read fields from.
        public var index: Int?
        public var field: FieldPart?
        public var column: Int
    }

    public enum FieldPart: Equatable, Sendable {
        /// `@field`: the field's first value.
        case value(String)
        /// `%field` or `&field`: a description of the field.
        case description(String)
    }

    public struct ConversionSyntax: Equatable, Sendable {
        public var conversion: Conversion
        public var column: Int
    }
}

/// A printf-style specifier in the value of an `=` filter, or (`%@`, `%s`) in a `~` pattern
/// (stanzaq-query(7), FORMAT ARGUMENTS).
public enum FormatSpecifier: String, Equatable, Sendable, CaseIterable {
    case object = "@", string = "s"
    case d, i, u, ld, li, lu, lld, lli, llu, zd, zu

    /// Whether the argument must be an integer (and, for `u` forms, not negative).
    var isInteger: Bool { self != .object && self != .string }
    var isUnsigned: Bool { [.u, .lu, .llu, .zu].contains(self) }
}

/// The conversion commands (stanzaq-query(7), CONVERSIONS).
public enum Conversion: String, Equatable, Sendable, CaseIterable {
    case bool, int, uint, double, datetime, base64, uuid, uuidcast
}

extension [QuerySyntax.ValuePart] {
    /// The parts as the query wrote them (`%%` in an `=` value shows as `%`).
    var written: String {
        map { part in
            switch part {
            case .literal(let text): return text
            case .specifier(let specifier, _): return "%" + specifier.rawValue
            }
        }.joined()
    }
}
