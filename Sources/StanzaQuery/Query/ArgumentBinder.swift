#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// Fills format specifiers from the arguments, in order across the whole
/// query — and across several queries compiled together, each taking as many
/// as it has specifiers — once at compile time (stanzaq-query(7), FORMAT
/// ARGUMENTS). Nothing here reaches printf: each specifier takes its argument
/// as text, or as an integer printed in decimal.
struct ArgumentBinder {
    let arguments: [String]
    /// The query being bound, for messages.
    private(set) var query = ""
    private var used = 0
    /// The arguments the queries before this one took.
    private var usedBefore = 0
    /// Each query bound so far and how many specifiers it has.
    private var specifierCounts: [(query: String, count: Int)] = []

    init(arguments: [String]) {
        self.arguments = arguments
    }

    /// Starts binding `query` (the next one, when several are compiled together).
    mutating func start(_ query: String) {
        self.query = query
        usedBefore = used
        specifierCounts.append((query, 0))
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
        try bind(parts) { ICURegex.escapedPattern(for: $0) }
    }

    private mutating func bind(_ parts: [QuerySyntax.ValuePart], quoting: (String) -> String) throws(QueryError) -> String {
        var value = ""
        for part in parts {
            switch part {
            case .literal(let text):
                value += text
            case .specifier(let specifier, let column):
                specifierCounts[specifierCounts.count - 1].count += 1
                guard used < arguments.count else {
                    let taken = usedBefore > 0 ? ", \(usedBefore) taken by the queries before this one" : ""
                    throw QueryError(
                        "format specifier %\(specifier.rawValue) has no argument (\(arguments.count) given\(taken); add -a VALUE)",
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
        guard used < arguments.count else { return }
        let given = "\(arguments.count) format argument\(arguments.count == 1 ? "" : "s") given"
        func specifiers(_ count: Int) -> String { "\(count) format specifier\(count == 1 ? "" : "s")" }
        if specifierCounts.count == 1 {
            throw QueryError("\(given), but the query has \(specifiers(used))", column: nil, query: query)
        }
        let each = specifierCounts.map { "'\($0.query)' takes \($0.count)" }.joined(separator: ", ")
        throw QueryError("\(given), but the queries have \(specifiers(used)) in all (\(each))", column: nil, query: query)
    }
}

extension Query {
    /// Compiles several queries that share one list of format arguments, in
    /// order: the first query takes as many as it has specifiers, the next
    /// the following ones, and so on (`stanzaq -a … -e … -e …`). An error
    /// names the query it concerns.
    public static func compile(_ texts: [String], arguments: [String] = [],
                               options: QueryOptions = QueryOptions()) throws(QueryError) -> [Query] {
        var binder = ArgumentBinder(arguments: arguments)
        var queries: [Query] = []
        for text in texts {
            let syntax = try QueryParser.parse(text)
            binder.start(text)
            queries.append(try Query(syntax: syntax, binder: &binder, options: options))
        }
        try binder.finish()
        return queries
    }
}
