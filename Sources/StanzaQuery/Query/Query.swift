#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// A compiled query of the Monal/Prosody path language (stanzaq-query(7)).
///
/// Compile once, then evaluate on as many elements as you like: parsing,
/// binding format arguments and compiling regular expressions all happen in
/// the initialiser, never per element.
///
/// ```swift
/// let stamp = try Query("{urn:xmpp:delay}delay@stamp|datetime")
/// for value in try stamp.find(in: message) { … }
/// ```
public final class Query {
    /// The parsed query.
    public let syntax: QuerySyntax
    let steps: [Step]

    enum Step {
        case parent(column: Int)
        /// The children of each node that the selector matches.
        case select(CompiledSelector)
        /// The first segment of a rooted query (`/message…`): matched against the
        /// context node itself, not its children (stanzaq-query(7), ROOTED QUERIES).
        /// Compiled once here, so that no evaluation asks again whether a step is it.
        case context(CompiledSelector)
        case anyDepth(column: Int)
        /// Of the nodes reached so far, those the selector (filters only) matches.
        case keep(CompiledSelector)
    }

    /// Compiles `text`, filling its format specifiers (`%@`, `%d`, …) from
    /// `arguments` in order.
    /// - Throws: ``QueryError`` for a syntax error, a misplaced extraction or
    ///   conversion, an invalid regular expression, arguments that do not
    ///   fit the specifiers, or (with `options.extensions` off) a stanzaq extension.
    public convenience init(_ text: String, arguments: [String] = [], options: QueryOptions = QueryOptions()) throws(QueryError) {
        try self.init(syntax: QueryParser.parse(text), arguments: arguments, options: options)
    }

    /// Compiles an already parsed query with `arguments`.
    public convenience init(syntax: QuerySyntax, arguments: [String] = [], options: QueryOptions = QueryOptions()) throws(QueryError) {
        var binder = ArgumentBinder(arguments: arguments)
        binder.start(syntax.text)
        try self.init(syntax: syntax, binder: &binder, options: options)
        try binder.finish()
    }

    init(syntax: QuerySyntax, binder: inout ArgumentBinder, options: QueryOptions) throws(QueryError) {
        self.syntax = syntax
        self.options = options
        if !options.extensions { try syntax.rejectExtensions() }
        let aliases = PrefixAliases(options.namespaces)
        var steps: [Step] = []
        for (index, step) in syntax.steps.enumerated() {
            switch step {
            case .parent(let column):
                steps.append(.parent(column: column))
            case .anyDepth(let column):
                steps.append(.anyDepth(column: column))
            case .keep(let kept, let column):
                let selector = QuerySyntax.Selector(namespace: .any, name: .any, filters: kept, column: column)
                let filters = try Self.compile(kept, binder: &binder, options: options, aliases: aliases, query: syntax.text)
                steps.append(.keep(CompiledSelector(syntax: selector, namespace: .any, filters: filters)))
            case .select(let selector):
                let filters = try Self.compile(selector.filters, binder: &binder, options: options, aliases: aliases, query: syntax.text)
                let compiled = CompiledSelector(syntax: selector, namespace: aliases.resolve(selector.namespace), filters: filters)
                steps.append(syntax.rooted && index == 0 ? .context(compiled) : .select(compiled))
            }
        }
        if case .attribute(let attribute)? = syntax.extraction {
            extractedAttribute = aliases.resolve(attribute)
        } else {
            extractedAttribute = nil
        }
        self.steps = steps
        hasParentStep = steps.contains { if case .parent = $0 { return true } else { return false } }
        hasAnyDepthStep = steps.contains { if case .anyDepth = $0 { return true } else { return false } }
        if case .dataForm(let form)? = syntax.extraction {
            dataForm = CompiledDataForm(form)
        } else {
            dataForm = nil
        }
    }

    /// Compiles the filters of one segment, binding their format arguments in order.
    private static func compile(_ filters: [QuerySyntax.Filter], binder: inout ArgumentBinder, options: QueryOptions,
                                aliases: PrefixAliases, query: String) throws(QueryError) -> [CompiledFilter] {
        var compiled: [CompiledFilter] = []
        for filter in filters {
            switch filter.test {
            case .equals(let parts):
                let value = try binder.bind(parts)
                let test: CompiledFilter.Test = options.caseSensitive
                    ? .equalsExactly(ExactMatcher(value)) : .equals(CaselessMatcher(value))
                compiled.append(.init(subject: aliases.resolve(filter.subject), test: test))
            case .matches(let parts, let column):
                let pattern = try binder.bindPattern(parts)
                guard let regex = ICURegex(pattern, caseInsensitive: !options.caseSensitive) else {
                    throw QueryError("invalid regular expression '\(parts.written)'", column: column, query: query)
                }
                compiled.append(.init(subject: aliases.resolve(filter.subject),
                                      test: .matches(regex.makeMatcher(), AbandonedMatches(), RegexAnswers())))
            }
        }
        return compiled
    }

    /// A copy of this query to evaluate on another thread at the same time as
    /// this one: the caches that matchers fill on first use are its own. The
    /// count of a `~` filter's abandoned matches stays shared (and locked), so
    /// that a filter is given up after as many abandoned matches in a run as
    /// with one thread (stanzaq(1), "Resource limits").
    public func copyForAnotherThread() -> Query { Query(copying: self) }

    private init(copying other: Query) {
        syntax = other.syntax
        options = other.options
        steps = other.steps.map { step in
            switch step {
            case .select(let selector): return .select(selector.copyForAnotherThread())
            case .context(let selector): return .context(selector.copyForAnotherThread())
            case .keep(let selector): return .keep(selector.copyForAnotherThread())
            case .parent, .anyDepth: return step
            }
        }
        hasParentStep = other.hasParentStep
        hasAnyDepthStep = other.hasAnyDepthStep
        dataForm = other.dataForm.map { CompiledDataForm($0.syntax) }
        extractedAttribute = other.extractedAttribute
    }

    /// How the query was compiled.
    public let options: QueryOptions
    /// Whether the path climbs with `..` (evaluated breadth first, step by step).
    let hasParentStep: Bool
    /// Whether the path has a `**` segment (evaluated in one walk over the tree).
    let hasAnyDepthStep: Bool
    /// The data-form subquery that ends the query, ready to match fields.
    let dataForm: CompiledDataForm?
    /// The attribute an `@` extraction reads, its prefix resolved by the aliases.
    let extractedAttribute: QuerySyntax.AttributeName?

    /// The query as written.
    public var text: String { syntax.text }

    /// How many levels below the context node the query can look: elements
    /// deeper than this never affect its results, so a reader need not build
    /// them (``StanzaReader/depthLimit``). `nil` when the whole subtree may be
    /// needed: the query returns elements, which print with all they contain,
    /// or it has a `**` segment, which looks at any depth.
    public var reach: Int? {
        if syntax.extraction == nil { return nil }
        return reachToDecide
    }

    /// Whether the query's results on an element depend only on what its start
    /// tag holds (name, namespace, attributes, the namespaces in scope), not on
    /// its children or text, and evaluating it again gives the same as once:
    /// then a reader can decide whether a stanza is wanted before it reads the
    /// rest of it (``StanzaReader/wholeStanzaTest``). True for a path that stays
    /// at its context node (`/<type=error>`, `@id`, `/@from`) without a text
    /// filter, a `#` or data-form extraction, or a `~` filter (whose abandoned
    /// matches count across a run, so evaluating it twice would count them twice).
    public var isDecidedByStartTag: Bool {
        for step in steps {
            guard case .context(let selector) = step else { return false }
            for filter in selector.filters {
                guard case .attribute = filter.subject else { return false }
                if case .matches = filter.test { return false }
            }
        }
        switch syntax.extraction {
        case nil, .attribute?, .allAttributes?, .name?: return true
        case .text?, .dataForm?: return false
        }
    }

    /// How many levels below the context node the query can look to decide
    /// whether it has a result and what its first one is (``check(in:strict:limits:)``,
    /// and ``find(in:strict:limits:)`` where the elements it gives are not
    /// printed): like ``reach``, but an element the query gives needs only to
    /// be there, not its content. `-c '/'` needs the stanza's root alone.
    /// `nil` when any depth may be needed (a path with `**`).
    public var reachToDecide: Int? {
        if hasAnyDepthStep { return nil }
        var depth = 0, deepest = 0
        for step in steps {
            switch step {
            case .parent: depth -= 1
            case .select: depth += 1
            case .context, .keep: break
            case .anyDepth: return nil
            }
            deepest = max(deepest, depth)
        }
        if dataForm != nil {
            // The form is where the path ends; the subquery reads below it.
            return max(deepest, depth + CompiledDataForm.reach)
        }
        return deepest
    }

    /// Whether the query may read an attribute: a filter (most test one), an
    /// `@` or data-form extraction, or elements as results (printed with their
    /// attributes). `/$` and `body#` read none, so a reader need not build any
    /// (``StanzaReader/buildsAttributes``).
    public var readsAttributes: Bool {
        if dataForm != nil { return true }
        switch syntax.extraction {
        case .text?, .name?: break
        case nil, .attribute?, .allAttributes?, .dataForm?: return true
        }
        for step in steps {
            switch step {
            case .select(let selector), .context(let selector), .keep(let selector):
                if !selector.filters.isEmpty { return true }
            case .parent, .anyDepth: break
            }
        }
        return false
    }

    /// Every result, in document order, duplicates kept (Monal's `find:`).
    /// - Parameters:
    ///   - strict: conversions must succeed on the whole value (stanzaq-query(7), CONVERSIONS).
    ///   - limits: the work the evaluation may do; by default the limits
    ///     stanzaq(1) documents ("Resource limits").
    /// - Throws: ``EvaluationError`` when `..` climbs above the root, a data-form
    ///   subquery meets an element that is not a form, a strict conversion fails,
    ///   a `~` match is abandoned (more than 20,000,000 backtracking steps, or
    ///   10 s of processor time, by default), or a step reaches more than
    ///   1,000,000 elements (by default); see ``EvaluationLimits``.
    public func find(in element: Element, strict: Bool = false,
                     limits: EvaluationLimits = .default) throws(EvaluationError) -> [QueryValue] {
        var results: [QueryValue] = []
        if !hasParentStep && !hasAnyDepthStep {
            // A path that only descends, walked without evaluate's closures.
            var bytes = 0
            try collectResults(below: element, step: 0, context: element, strict: strict, limits: limits,
                               into: &results, bytes: &bytes)
            return results
        }
        try evaluate(on: element, strict: strict, limits: limits) { results.append($0); return true }
        return results
    }

    /// The first result, or `nil` (Monal's `findFirst:`, Prosody's `find`).
    /// Parameters and errors as for ``find(in:strict:limits:)``.
    ///
    /// With `strict`, every result is still converted and checked, as Monal's
    /// `findFirst:` evaluates the whole query: the answer is the same as
    /// without it, or an error.
    public func findFirst(in element: Element, strict: Bool = false,
                          limits: EvaluationLimits = .default) throws(EvaluationError) -> QueryValue? {
        let checkAll = strict && syntax.conversion != nil
        if !checkAll && !hasParentStep && !hasAnyDepthStep {
            // The first result of a path that only descends, found without the
            // closures of `evaluate` (much of the cost of `-e` rows).
            return try firstResult(on: element, strict: strict, limits: limits)
        }
        var first: QueryValue?
        try evaluate(on: element, strict: strict, limits: limits) { value in
            if first == nil { first = value }
            return checkAll
        }
        return first
    }

    /// Whether there is any result (Monal's `check:`).
    /// Parameters and errors as for ``find(in:strict:limits:)``.
    public func check(in element: Element, strict: Bool = false,
                      limits: EvaluationLimits = .default) throws(EvaluationError) -> Bool {
        try findFirst(in: element, strict: strict, limits: limits) != nil
    }
}

extension Element {
    /// Every result of `query` on this element; see ``Query/find(in:strict:limits:)``.
    public func find(_ query: String, _ arguments: String...) throws -> [QueryValue] {
        try Query(query, arguments: arguments).find(in: self)
    }

    /// The first result of `query` on this element, or `nil`.
    public func findFirst(_ query: String, _ arguments: String...) throws -> QueryValue? {
        try Query(query, arguments: arguments).findFirst(in: self)
    }

    /// Whether `query` has any result on this element.
    public func check(_ query: String, _ arguments: String...) throws -> Bool {
        try Query(query, arguments: arguments).check(in: self)
    }
}
