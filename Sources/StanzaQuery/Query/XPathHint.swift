#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// The hint for a query that failed to parse and looks like XPath, which
/// people reach for first (`//message[@type="chat"]/body`, `body/text()`):
/// the same query in stanzaq's language when it can be said there, else how
/// XPath's usual constructs are written. `nil` when the query does not look
/// like XPath.
func xpathHint(for text: String) -> String? {
    guard looksLikeXPath(text) else { return nil }
    var translator = XPathTranslator(text)
    if let forms = translator.translate(),
       forms.allSatisfy({ (try? QueryParser.parseWithoutHint($0.query)) != nil }) {
        let written = forms.map { form in form.note.map { "\(form.query) (\($0))" } ?? form.query }
        return "this looks like XPath; in stanzaq's language: " + written.joined(separator: ", or ")
    }
    return "this looks like XPath, which stanzaq does not read: write **/ for //, <a=v> for [@a='v'], "
        + "<#=v> for [text()='v'], # for /text() (stanzaq-query(7))"
}

private func looksLikeXPath(_ text: String) -> Bool {
    // XPath has no backslash; after one comes a data-form subquery, whose
    // item index is in brackets.
    let text = String(text.prefix { $0 != "\\" })
    if text.hasPrefix("//") || text.contains("text()") || text.contains("::") { return true }
    // A predicate: "[" then "@", a digit, ".", or a function.
    guard let regex = ICURegex(#"\[\s*(@|[0-9]|\.|contains\(|starts-with\(|ends-with\(|not\(|last\(|position\()"#,
                               caseInsensitive: false)
    else { return false }
    return regex.makeMatcher().matches(text)
}

/// Translates the small part of XPath 1.0 that has a stanzaq equivalent:
/// `/`, `//`, names, `*`, `..`, `.`, `@a`, `@*`, `text()`, `name()` and
/// `local-name()` at the end, and predicates made of `@a`, `@a='v'`,
/// `text()='v'`, `.='v'`, `contains(…)`, `starts-with(…)`, `ends-with(…)`
/// joined with `and`.
private struct XPathTranslator {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    struct Form {
        var query: String
        var note: String?
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func eat(_ string: String) -> Bool {
        let wanted = Array(string.unicodeScalars)
        guard index + wanted.count <= scalars.count, Array(scalars[index..<index + wanted.count]) == wanted else { return false }
        index += wanted.count
        return true
    }

    private mutating func skipSpaces() {
        while let scalar = peek, scalar == " " { index += 1 }
    }

    private mutating func name() -> String {
        var result = String.UnicodeScalarView()
        while let scalar = peek, isNameScalar(scalar) {
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    /// The stanzaq forms of the query, or `nil` if some part has none.
    mutating func translate() -> [Form]? {
        var anywhere = false, rooted = false
        if eat("//") { anywhere = true } else if eat("/") { rooted = true }
        var segments: [String] = []
        var extraction = ""
        while true {
            guard extraction.isEmpty else { return nil }   // an extraction must end the path
            if eat("text()") {
                extraction = "#"
            } else if eat("name()") || eat("local-name()") {
                extraction = "$"
            } else if eat("@*") {
                extraction = "@@"
            } else if eat("@") {
                let attribute = name()
                guard !attribute.isEmpty else { return nil }
                extraction = "@" + attribute
            } else if eat("..") {
                segments.append("..")
            } else if eat(".") {
                // The node itself: nothing to add.
            } else {
                var segment: String
                if eat("*") { segment = "*" } else { segment = name() }
                guard !segment.isEmpty, !segment.contains(":") else { return nil }
                while peek == "[" {
                    guard let filters = predicate() else { return nil }
                    segment += filters
                }
                segments.append(segment)
            }
            if peek == nil { break }
            if eat("//") {
                segments.append("**")
            } else if !eat("/") {
                return nil
            }
        }
        let path = segments.joined(separator: "/")
        if anywhere {
            let below = (["**"] + segments).joined(separator: "/") + extraction
            if segments.isEmpty || segments.first == "**" { return [Form(query: below, note: nil)] }
            return [Form(query: "/" + path + extraction, note: "the stanza itself"),
                    Form(query: below, note: "below it, at any depth")]
        }
        if rooted && segments.isEmpty { return [Form(query: "/" + extraction, note: nil)] }
        return [Form(query: (rooted ? "/" : "") + path + extraction, note: nil)]
    }

    /// `[…]` as stanzaq filters.
    private mutating func predicate() -> String? {
        guard eat("[") else { return nil }
        var filters = ""
        repeat {
            skipSpaces()
            guard let filter = condition() else { return nil }
            filters += filter
            skipSpaces()
        } while eat("and ")
        guard eat("]") else { return nil }
        return filters
    }

    /// One condition of a predicate, as a filter.
    private mutating func condition() -> String? {
        for (function, makePattern) in [("contains(", { (v: String) in v }), ("starts-with(", { "^" + $0 }),
                                         ("ends-with(", { $0 + "$" })] where eat(function) {
            skipSpaces()
            guard let subject = subject() else { return nil }
            skipSpaces()
            guard eat(",") else { return nil }
            skipSpaces()
            guard let value = literal() else { return nil }
            skipSpaces()
            guard eat(")") else { return nil }
            return "<\(subject)~\(makePattern(regexLiteral(value)))>"
        }
        guard let subject = subject() else { return nil }
        skipSpaces()
        guard eat("=") else {
            // `[@a]`: the attribute exists (`^` matches every value).
            return subject == "#" ? nil : "<\(subject)~^>"
        }
        skipSpaces()
        guard let value = literal(), !value.isEmpty, !value.contains(">") else { return nil }
        return "<\(subject)=\(value.replacingLiterally("%", with: "%%"))>"
    }

    /// `@name` as `name`; `text()` or `.` as `#`.
    private mutating func subject() -> String? {
        if eat("@") {
            let attribute = name()
            return attribute.isEmpty ? nil : attribute
        }
        if eat("text()") || eat(".") { return "#" }
        return nil
    }

    /// A quoted string, or an unquoted word up to `]`, `)`, `,` or a space.
    private mutating func literal() -> String? {
        guard let quote = peek else { return nil }
        var value = String.UnicodeScalarView()
        if quote == "\"" || quote == "'" {
            index += 1
            while let scalar = peek, scalar != quote {
                value.append(scalar)
                index += 1
            }
            guard eat(String(quote)) else { return nil }
            return String(value)
        }
        while let scalar = peek, !"]), ".unicodeScalars.contains(scalar) {
            value.append(scalar)
            index += 1
        }
        return value.isEmpty ? nil : String(value)
    }

    /// `value` as a regular expression that matches it literally, with no `>`
    /// (which would end the filter).
    private func regexLiteral(_ value: String) -> String {
        ICURegex.escapedPattern(for: value).replacingLiterally(">", with: "\\x{3e}")
    }
}
