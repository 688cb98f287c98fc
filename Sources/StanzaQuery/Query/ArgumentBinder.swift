import Foundation

/// Fills format specifiers from the arguments, in order across the whole
/// query, once at compile time (SPEC 3.5). Nothing here reaches printf: each
/// specifier takes its argument as text, or as an integer printed in decimal.
struct ArgumentBinder {
    let arguments: [String]
    let query: String
    private var used = 0
    private var specifierCount = 0

    init(arguments: [String], query: String) {
        self.arguments = arguments
        self.query = query
    }

    /// The value of an `=` filter, its specifiers filled.
    mutating func bind(_ parts: [QuerySyntax.ValuePart]) throws(QueryError) -> String {
        try bind(parts) { $0 }
    }

    /// The pattern of a `~` filter, its `%@` and `%s` filled with the
    /// argument as a literal (escaped), so that `<from~^%@(/|$)>` means what it
    /// says whatever the argument holds (a stanzaq extension: Monal pastes the
    /// raw argument into the pattern).
    mutating func bindPattern(_ parts: [QuerySyntax.ValuePart]) throws(QueryError) -> String {
        try bind(parts) { NSRegularExpression.escapedPattern(for: $0) }
    }

    private mutating func bind(_ parts: [QuerySyntax.ValuePart], quoting: (String) -> String) throws(QueryError) -> String {
        var value = ""
        for part in parts {
            switch part {
            case .literal(let text):
                value += text
            case .specifier(let specifier, let column):
                specifierCount += 1
                guard used < arguments.count else {
                    throw QueryError(
                        "format specifier %\(specifier.rawValue) has no argument (\(arguments.count) given; add -a VALUE)",
                        column: column, query: query)
                }
                let argument = arguments[used]
                used += 1
                value += quoting(try format(argument, as: specifier, column: column))
            }
        }
        return value
    }

    private func format(_ argument: String, as specifier: FormatSpecifier, column: Int) throws(QueryError) -> String {
        guard specifier.isInteger else { return argument }
        if specifier.isUnsigned, let value = UInt64(argument) { return String(value) }
        if !specifier.isUnsigned, let value = Int64(argument) { return String(value) }
        throw QueryError(
            "format specifier %\(specifier.rawValue) needs \(specifier.isUnsigned ? "a non-negative integer" : "an integer"), not '\(argument)'",
            column: column, query: query)
    }

    /// Throws if arguments are left over.
    func finish() throws(QueryError) {
        if used < arguments.count {
            let count = specifierCount
            throw QueryError(
                "\(arguments.count) format argument\(arguments.count == 1 ? "" : "s") given, but the query has \(count) format specifier\(count == 1 ? "" : "s")",
                column: nil, query: query)
        }
    }
}
