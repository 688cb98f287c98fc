/// A query that cannot be compiled: a syntax error, a misplaced conversion,
/// an invalid regular expression, format arguments that do not fit.
public struct QueryError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in one line ("expected '>' to close the attribute filter").
    public var message: String
    /// The 1-based column (in Unicode scalars) the error points at, if any.
    public var column: Int?
    /// The query text.
    public var query: String

    public init(_ message: String, column: Int?, query: String) {
        self.message = message
        self.column = column
        self.query = query
    }

    /// The message, then the query with a caret under the column:
    ///
    /// ```
    /// query: expected '>' to close the attribute filter at column 19
    ///   {urn:x}item<node=a
    ///                     ^
    /// ```
    public var description: String {
        guard let column else { return "query: \(message)" }
        let visible = query.unicodeScalars.map { $0 == "\t" || $0 == "\n" ? " " : Character($0) }
        return "query: \(message) at column \(column)\n  \(String(visible))\n  "
            + String(repeating: " ", count: column - 1) + "^"
    }
}

/// A query that failed on one stanza: `..` above the stanza root, a data-form
/// subquery on an element that is not a form, a strict conversion.
public struct EvaluationError: Error, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
