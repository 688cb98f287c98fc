#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// A query that cannot be compiled: a syntax error, a misplaced conversion,
/// an invalid regular expression, format arguments that do not fit.
public struct QueryError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in one line ("expected '>' to close the attribute filter").
    public var message: String
    /// The 1-based column (in Unicode scalars) the error points at, if any.
    public var column: Int?
    /// The query text.
    public var query: String
    /// A suggestion that follows the message on its own line, such as the
    /// stanzaq form of a query written in XPath.
    public var hint: String?

    public init(_ message: String, column: Int?, query: String, hint: String? = nil) {
        self.message = message
        self.column = column
        self.query = query
        self.hint = hint
    }

    /// The message, then the query with a caret under the column:
    ///
    /// ```
    /// query: expected '>' to close the attribute filter at column 19
    ///   {urn:x}item<node=a
    ///                     ^
    /// ```
    ///
    /// and the hint, if any, on a line of its own.
    public var description: String {
        let hintLine = hint.map { "\n  hint: " + $0 } ?? ""
        guard let column else { return "query: \(message)" + hintLine }
        // One column per scalar, so that the caret stays under its column: a tab or
        // a newline shows as a space, another control character (which would move
        // the cursor or drive the terminal) as '?'.
        let visible = query.unicodeScalars.map {
            $0 == "\t" || $0 == "\n" ? " " : $0.isControlCharacter ? "?" : Character($0)
        }
        return "query: \(message) at column \(column)\n  \(String(visible))\n  "
            + String(repeating: " ", count: column - 1) + "^" + hintLine
    }
}

/// A query that failed on one stanza: `..` above the stanza root, a data-form
/// subquery on an element that is not a form, a strict conversion.
public struct EvaluationError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// Whether the error repeats one reported before: a `~` filter given up
    /// after ``EvaluationLimits/abandonedMatchesPerFilter`` abandoned
    /// matches fails on every later stanza that needs it, and a program
    /// that reports errors may say so once (as stanzaq(1) does) rather than
    /// once per stanza. The stanza has no result all the same.
    public var reportedBefore: Bool

    public init(_ message: String, reportedBefore: Bool = false) {
        self.message = message
        self.reportedBefore = reportedBefore
    }

    public var description: String { message }
}
