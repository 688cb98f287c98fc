#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// The tokenizer of the query language: a cursor over the query's Unicode
/// scalars that reads one lexeme at a time (a name, a braced namespace, a
/// filter value…). The language is context-sensitive — `}` ends a namespace,
/// `>` ends a filter value, and anything else may stand inside them — so the
/// parser tells the scanner which lexeme it expects next.
struct QueryScanner {
    let text: String
    let scalars: [Unicode.Scalar]
    private(set) var index = 0

    init(_ text: String) {
        self.text = text
        self.scalars = Array(text.unicodeScalars)
    }

    /// The 1-based column of the next scalar.
    var column: Int { index + 1 }
    var isAtEnd: Bool { index >= scalars.count }
    var peek: Unicode.Scalar? { isAtEnd ? nil : scalars[index] }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    mutating func advance() { index += 1 }

    /// Consumes `scalar` if it is next.
    mutating func eat(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        index += 1
        return true
    }

    /// Consumes `string` if it is next.
    mutating func eat(_ string: String) -> Bool {
        let wanted = Array(string.unicodeScalars)
        guard index + wanted.count <= scalars.count,
              Array(scalars[index..<index + wanted.count]) == wanted else { return false }
        index += wanted.count
        return true
    }

    /// Reads scalars while `accept` holds.
    mutating func read(while accept: (Unicode.Scalar) -> Bool) -> String {
        var result = String.UnicodeScalarView()
        while let scalar = peek, accept(scalar) {
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    /// Reads an XML name: letters, digits, `. - _ :` and non-ASCII name characters.
    mutating func name() -> String {
        read(while: isNameScalar)
    }

    func error(_ message: String, at column: Int? = nil) -> QueryError {
        QueryError(message, column: column ?? self.column, query: text)
    }

    /// A short, quoted rendering of the next scalar for messages.
    var describeNext: String {
        guard let scalar = peek else { return "the end of the query" }
        if scalar.value < 0x20 || scalar.value == 0x7F {   // keep the message on one line
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return "'\(Character(scalar))'"
    }
}

/// Characters of an element, attribute or conversion name in a query.
func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_", ":": return true
    default: return scalar.value > 0x7F && !scalar.properties.isWhitespace
    }
}

extension QuerySyntax {
    /// Whether `scalar` may be part of a name in a query (element, attribute,
    /// prefix or conversion): the scanner's rule, for tools that find words in
    /// query text (the REPL's completion).
    public static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isNameScalar(scalar)
    }
}

/// Characters a data-form field name may hold (stanzaq-query(7), DATA FORMS).
func isFieldNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "_", ":", "#", "-", ".": return true
    default: return scalar.value > 0x7F && scalar.properties.isAlphabetic
    }
}
