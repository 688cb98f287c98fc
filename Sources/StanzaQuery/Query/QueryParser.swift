#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// Recursive-descent parser from query text to ``QuerySyntax`` (stanzaq-query(7), GRAMMAR).
///
/// ```
/// query      = "" | path [extraction [conversion]] | extraction [conversion]
/// path       = ["/"] segment *("/" segment)
/// segment    = ".." | "**" filter* | ["{" ns "}"] ["!"] name filter* | ["{" ns "}"] filter*
/// filter     = "<" (attr | "#" | "*") ("=" | "~") value ">"
/// extraction = "@" attr | "@@" | "#" | "$" | "\" dataform "\"
/// conversion = "|" name
/// ```
struct QueryParser {
    var scanner: QueryScanner

    init(_ text: String) {
        scanner = QueryScanner(text)
    }

    static func parse(_ text: String) throws(QueryError) -> QuerySyntax {
        do {
            return try parseWithoutHint(text)
        } catch {
            // A query written in XPath fails somewhere: say how stanzaq writes it.
            var error = error
            error.hint = xpathHint(for: text)
            throw error
        }
    }

    static func parseWithoutHint(_ text: String) throws(QueryError) -> QuerySyntax {
        var parser = QueryParser(text)
        return try parser.parseQuery()
    }

    mutating func parseQuery() throws(QueryError) -> QuerySyntax {
        var syntax = QuerySyntax(text: scanner.text, rooted: false, steps: [], extraction: nil, conversion: nil)
        if scanner.isAtEnd { return syntax }
        syntax.rooted = scanner.eat("/")
        // A bare extraction applies to the context node (Prosody's "@attr"); a
        // bare data-form subquery, like an empty segment, to its forms.
        let bareExtraction = !syntax.rooted && [UInt8(ascii: "@"), UInt8(ascii: "#"), UInt8(ascii: "$")]
            .contains { scanner.peek == Unicode.Scalar($0) }
        if !bareExtraction && scanner.peek != "|" {
            repeat {
                syntax.steps.append(contentsOf: try parseSegment())
            } while scanner.eat("/")
        }
        let extractionColumn = scanner.column
        syntax.extraction = try parseExtraction()
        if case .dataForm? = syntax.extraction {
            try defaultToForm(&syntax, column: extractionColumn)
        } else if case .select(let last)? = syntax.steps.last, last.isEmpty, last.filters.isEmpty,
                  syntax.extraction.map(\.readsTheNodeReached) ?? true {
            // A trailing empty segment before '@' or at the end is the node
            // reached, as in Prosody's find ("a/@x" is "a@x", "a/" is "a"), and
            // "item/../@ver" reads the parent's attribute. Before '#' (and '$')
            // it is a step to the children, as in Prosody's find ("a/#" is the
            // text of a's first child: get_child_text).
            syntax.steps.removeLast()
        }
        if scanner.peek == "|" {
            syntax.conversion = try parseConversion(after: syntax.extraction)
        }
        if !scanner.isAtEnd {
            if syntax.conversion != nil {
                throw scanner.error("expected the end of the query after the conversion, found \(scanner.describeNext)")
            }
            if syntax.extraction != nil {
                throw scanner.error("an extraction (@, @@, #, $ or \\…\\) must end the query, found \(scanner.describeNext)")
            }
            throw scanner.error("unexpected \(scanner.describeNext): expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end")
        }
        return syntax
    }

    // MARK: Segments

    /// One segment: one step, or two for `**` with filters (`**<to~ghost>`).
    mutating func parseSegment() throws(QueryError) -> [QuerySyntax.Step] {
        let column = scanner.column
        if scanner.peek == "*" && scanner.peek(1) == "*" {
            scanner.advance(); scanner.advance()
            return try parseAnyDepth(column: column)
        }
        if scanner.peek == "." && scanner.peek(1) == "." {
            scanner.advance(); scanner.advance()
            if let next = scanner.peek, next == "<" || next == "{" || next == "!" || next == "*" || isNameScalar(next) {
                throw scanner.error("'..' stands alone: it takes no name, namespace or filter", at: column)
            }
            return [.parent(column: column)]
        }
        var selector = QuerySyntax.Selector(namespace: .inherited, name: .unnamed, filters: [], column: column)
        if scanner.peek == "{" {
            selector.namespace = try parseBraced(what: "namespace", allowStar: true).map { .uri($0) } ?? .any
        }
        if scanner.eat("!") {
            let nameColumn = scanner.column
            let name = scanner.name()
            if name.isEmpty { throw scanner.error("expected an element name after '!'") }
            if name.contains(":") {
                throw scanner.error("a negated name takes no prefix: write {namespace}!name", at: nameColumn)
            }
            selector.name = .notNamed(name)
        } else if scanner.eat("*") {
            if scanner.peek == "*" {
                throw scanner.error("'**' takes no namespace: for elements of a namespace at any depth write **/{namespace}",
                                    at: scanner.column - 1)
            }
            selector.name = .any
        } else {
            let nameColumn = scanner.column
            let name = scanner.name()
            if let colon = name.firstIndex(of: ":") {
                // A prefixed name (stanzaq-query(7), "Prefixed names"): the prefix is
                // resolved where the element is, or by --ns.
                let prefix = String(name[..<colon]), local = String(name[name.index(after: colon)...])
                if prefix.isEmpty || local.isEmpty || local.contains(":") {
                    throw scanner.error("'\(name)' is not an element name: write prefix:name or {namespace}name", at: nameColumn)
                }
                if selector.namespace != .inherited {
                    throw scanner.error("'\(name)' has a prefix and a {namespace}: write one of them", at: nameColumn)
                }
                selector.namespace = .prefix(prefix)
                selector.name = .named(local)
            } else if !name.isEmpty {
                selector.name = .named(name)
            }
        }
        while scanner.peek == "<" {
            selector.filters.append(try parseFilter())
        }
        return [.select(selector)]
    }

    /// After `**`: alone, or with filters that the elements it reaches must pass
    /// (the context node included, whatever their names): `**<to~ghost>`.
    mutating func parseAnyDepth(column: Int) throws(QueryError) -> [QuerySyntax.Step] {
        if scanner.peek == "<" {
            var filters: [QuerySyntax.Filter] = []
            while scanner.peek == "<" { filters.append(try parseFilter()) }
            return [.anyDepth(column: column), .keep(filters: filters, column: column)]
        }
        guard let next = scanner.peek else { return [.anyDepth(column: column)] }
        if next == "*" {
            throw scanner.error("'***' is not a segment: '**' is any depth, '*' any element; write **/* for the elements below", at: column)
        }
        if next == "{" || next == "!" || isNameScalar(next) {
            let rest = scanner.read { $0 != "/" && $0 != "<" && $0 != "@" && $0 != "#" && $0 != "$" && $0 != "\\" && $0 != "|" }
            throw scanner.error("'**' takes no name or namespace: for such elements at any depth write **/\(rest); "
                                + "to filter every element, the context node included, **<…>", at: column)
        }
        return [.anyDepth(column: column)]
    }

    /// `{…}`: returns the text inside, or `nil` for `{*}` when `allowStar`.
    mutating func parseBraced(what: String, allowStar: Bool) throws(QueryError) -> String? {
        let open = scanner.column
        _ = scanner.eat("{")
        let content = scanner.read { $0 != "}" }
        guard scanner.eat("}") else {
            throw scanner.error("expected '}' to close the \(what) opened at column \(open)")
        }
        if content.isEmpty {
            throw scanner.error("expected \(what.hasPrefix("attribute") ? "an" : "a") \(what) between '{' and '}'\(allowStar ? " ('*' for any)" : "")", at: open + 1)
        }
        return allowStar && content == "*" ? nil : content
    }

    mutating func parseFilter() throws(QueryError) -> QuerySyntax.Filter {
        let column = scanner.column
        _ = scanner.eat("<")
        let subject: QuerySyntax.FilterSubject
        if scanner.eat("#") {
            subject = .text
        } else if scanner.eat("*") {
            subject = .anyAttribute
        } else {
            subject = .attribute(try parseAttributeName(after: "'<'"))
        }
        let isRegex: Bool
        if scanner.eat("=") {
            isRegex = false
        } else if scanner.eat("~") {
            isRegex = true
        } else if case .text = subject {
            throw scanner.error("expected '=' or '~' after '#' in the text filter, found \(scanner.describeNext)")
        } else if case .anyAttribute = subject {
            throw scanner.error("expected '=' or '~' after '*' in the any-attribute filter, found \(scanner.describeNext)")
        } else {
            throw scanner.error("expected '=' or '~' after the attribute name in the filter, found \(scanner.describeNext)")
        }
        let valueColumn = scanner.column
        let value = scanner.read { $0 != ">" }
        if value.isEmpty && scanner.peek == ">" {
            switch (isRegex, subject) {
            case (true, _): throw scanner.error("expected a regular expression after '~'")
            case (false, .attribute(let attribute)):
                throw scanner.error("expected a value after '=' (to match an empty value, use <\(attribute.name)~^$>)")
            case (false, .text):
                throw scanner.error("expected a value after '=' (an element without text never passes a text filter)")
            case (false, .anyAttribute):
                throw scanner.error("expected a value after '=' (to match an empty value, use <*~^$>)")
            }
        }
        guard scanner.eat(">") else {
            throw scanner.error(subject == .text ? "expected '>' to close the text filter" : "expected '>' to close the attribute filter")
        }
        let test: QuerySyntax.FilterTest = isRegex
            ? .matches(pattern: regexParts(value, column: valueColumn), column: valueColumn)
            : .equals(try parseFormatValue(value, column: valueColumn))
        return QuerySyntax.Filter(subject: subject, test: test, column: column)
    }

    /// Splits a `~` pattern into regex text and the `%@`/`%s` specifiers that
    /// take an argument as an escaped literal (a stanzaq extension). Nothing
    /// else is a specifier there (a pattern may well hold `%20` or `%d`), and
    /// neither is a `%` the pattern escapes (`\%@`, or inside `\Q…\E`).
    func regexParts(_ pattern: String, column: Int) -> [QuerySyntax.ValuePart] {
        var parts: [QuerySyntax.ValuePart] = []
        var literal = String.UnicodeScalarView()
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        var quoted = false   // inside \Q…\E
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar == "\\", let next {
                if next == "Q" { quoted = true } else if next == "E" { quoted = false }
                literal.append(scalar); literal.append(next)
                index += 2
            } else if !quoted, scalar == "%", next == "@" || next == "s" {
                if !literal.isEmpty { parts.append(.literal(String(literal))); literal = .init() }
                parts.append(.specifier(next == "@" ? .object : .string, column: column + index))
                index += 2
            } else {
                literal.append(scalar)
                index += 1
            }
        }
        if !literal.isEmpty || parts.isEmpty { parts.append(.literal(String(literal))) }
        return parts
    }

    /// Splits an `=` value into literal text and format specifiers.
    func parseFormatValue(_ value: String, column: Int) throws(QueryError) -> [QuerySyntax.ValuePart] {
        var parts: [QuerySyntax.ValuePart] = []
        var literal = String.UnicodeScalarView()
        let scalars = Array(value.unicodeScalars)
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "%" else {
                literal.append(scalars[index])
                index += 1
                continue
            }
            if index + 1 < scalars.count && scalars[index + 1] == "%" {
                literal.append("%")
                index += 2
                continue
            }
            // The longest supported specifier that follows.
            let rest = String(String.UnicodeScalarView(scalars[(index + 1)...].prefix(3)))
            guard let specifier = FormatSpecifier.allCases
                .filter({ rest.hasPrefix($0.rawValue) })
                .max(by: { $0.rawValue.count < $1.rawValue.count })
            else {
                let shown = scalars.count > index + 1 ? "%" + String(Character(scalars[index + 1])) : "%"
                throw scanner.error(
                    "unsupported format specifier '\(shown)' (supported: %@ %s %d %i %u %ld %li %lu %lld %lli %llu %zd %zu, and %% for '%')",
                    at: column + index)
            }
            if !literal.isEmpty { parts.append(.literal(String(literal))); literal = .init() }
            parts.append(.specifier(specifier, column: column + index))
            index += 1 + specifier.rawValue.unicodeScalars.count
        }
        if !literal.isEmpty || parts.isEmpty { parts.append(.literal(String(literal))) }
        return parts
    }

    /// `name`, `prefix:name` or `{uri}name`.
    mutating func parseAttributeName(after what: String) throws(QueryError) -> QuerySyntax.AttributeName {
        if scanner.peek == "{" {
            guard let uri = try parseBraced(what: "attribute namespace", allowStar: false) else {
                throw scanner.error("expected an attribute namespace")
            }
            let name = scanner.name()
            if name.isEmpty { throw scanner.error("expected an attribute name after '{\(uri)}'") }
            return .init(name: name, namespace: .uri(uri))
        }
        let name = scanner.name()
        if name.isEmpty { throw scanner.error("expected an attribute name after \(what), found \(scanner.describeNext)") }
        if let colon = name.firstIndex(of: ":") {
            let prefix = String(name[..<colon]), local = String(name[name.index(after: colon)...])
            if prefix.isEmpty || local.isEmpty || local.contains(":") {
                throw scanner.error("'\(name)' is not an attribute name: write prefix:name or {namespace}name",
                                    at: scanner.column - name.unicodeScalars.count)
            }
            return .init(name: local, namespace: .prefix(prefix))
        }
        return .init(name: name, namespace: .none)
    }
}

extension QuerySyntax {
    /// Parses a query without compiling it (format arguments are not needed).
    public init(parsing text: String) throws(QueryError) {
        self = try QueryParser.parse(text)
    }
}

let dataFormsNamespace = "jabber:x:data"

extension QuerySyntax.Extraction {
    /// Whether a trailing empty segment before this extraction is the node
    /// reached rather than a step to the children: `@name` and `@@`.
    fileprivate var readsTheNodeReached: Bool {
        switch self {
        case .attribute, .allAttributes: return true
        case .text, .name, .dataForm: return false
        }
    }
}
let conversionList = Conversion.allCases.map(\.rawValue).joined(separator: ", ")
