#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Tab completion (stanzaq(1), REPL): what the word before the cursor may become.
public struct Completion {
    /// The partial word being completed.
    public let word: String
    /// Full candidates for it, sorted, without duplicates.
    public let candidates: [String]

    public init(word: String, candidates: [String]) {
        self.word = word
        self.candidates = candidates
    }

    /// Completions for `line` (the text before the cursor): queries are completed
    /// on `stanza` (the current one), namespaces from `namespaces` (those of every
    /// loaded stanza); `options` and `arguments` compile the path typed so far.
    public static func complete(_ line: String, stanza: Element?, namespaces: [String] = [],
                                options: QueryOptions = QueryOptions(), arguments: [String] = []) -> Completion {
        let context = QueryContext(stanza: stanza, namespaces: namespaces, options: options, arguments: arguments)
        if line.hasPrefix(":") {
            guard let space = line.firstIndex(of: " ") else {
                return Completion(word: line, candidates: REPLSession.commands.map(\.name).filter { $0.hasPrefix(line) })
            }
            let rest = String(line[line.index(after: space)...])
            switch REPLSession.command(named: String(line[..<space]))?.completion ?? .nothing {
            case .files:
                // After an option (`:load --log FILE`), the file name.
                if rest.hasPrefix("-"), let space = rest.lastIndex(of: " ") { return files(String(rest[rest.index(after: space)...])) }
                return files(rest)
            case .query: return query(rest, context)
            case .choices(let choices): return Completion(word: rest, candidates: choices.filter { $0.hasPrefix(rest) }.sorted())
            case .nothing: return Completion(word: rest, candidates: [])
            }
        }
        return query(line, context)
    }

    /// What a query is completed against.
    struct QueryContext {
        var stanza: Element?
        var namespaces: [String]
        var options = QueryOptions()
        var arguments: [String] = []

        /// The elements the path `text` selects in the stanza: the root for an
        /// empty path or `/`; `nil` when there is no stanza or the path does not
        /// compile (then completion offers every name of the stanza).
        func select(_ text: String) -> [Element]? {
            guard let stanza else { return nil }
            if text.isEmpty || text == "/" { return [stanza] }
            guard let syntax = try? QuerySyntax(parsing: text),
                  let query = try? Query(syntax: syntax, arguments: Array(arguments.prefix(syntax.formatSpecifierCount)), options: options),
                  let values = try? query.find(in: stanza)
            else { return nil }
            return values.compactMap { value in
                if case .element(let element) = value { return element }
                return nil
            }
        }
    }

    /// In a query: conversions after `|`; namespaces after `{`; after `@` or `<`
    /// the attributes of the elements the path before it selects; where a name is
    /// expected the names of the children of what the path so far selects (in the
    /// namespace given with `{ns}`; without one, those in another namespace than
    /// their parent's with it), and `**` (any depth) where a segment may start.
    static func query(_ text: String, _ context: QueryContext) -> Completion {
        let scalars = Array(text.unicodeScalars)
        func string(_ slice: ArraySlice<Unicode.Scalar>) -> String { String(String.UnicodeScalarView(slice)) }
        // Stars where a segment starts: `*` becomes `**`.
        var stars = scalars.count
        while stars > 0, scalars[stars - 1] == "*" { stars -= 1 }
        if stars < scalars.count, stars == 0 || scalars[stars - 1] == "/" {
            let word = string(scalars[stars...])
            return Completion(word: word, candidates: word.count <= 2 ? ["**"] : [])
        }
        // The word starts after the last character that cannot be part of a name.
        var start = scalars.count
        // (`#` too, which ends a query: nothing is offered after it.)
        while start > 0, QuerySyntax.isNameCharacter(scalars[start - 1]) || scalars[start - 1] == "#" { start -= 1 }
        let word = string(scalars[start...])
        let before: Unicode.Scalar? = start > 0 ? scalars[start - 1] : nil
        // Inside an unclosed "{": a namespace, which may hold any character but "}".
        if let open = scalars.lastIndex(of: "{"), !scalars[open...].contains("}") {
            let partial = string(scalars[(open + 1)...])
            return Completion(word: partial, candidates: context.namespaces.filter { $0.hasPrefix(partial) }.map { $0 + "}" })
        }
        let candidates: [String]
        switch before {
        case "|":
            candidates = Conversion.allCases.map(\.rawValue)
        case "@":
            candidates = attributeNames(of: context.select(string(scalars[..<(start - 1)])), in: context.stanza)
        case "<" where scalars.filter({ $0 == "<" }).count > scalars.filter({ $0 == ">" }).count:
            candidates = attributeNames(of: context.select(string(scalars[..<(start - 1)])), in: context.stanza)
        default:
            // A name, perhaps after `{ns}`: the segment starts at its `{`.
            var segment = start
            var namespace: String?
            if before == "}", let open = scalars[..<start].lastIndex(of: "{") {
                namespace = string(scalars[(open + 1)..<(start - 1)])
                segment = open
            }
            let prior: Unicode.Scalar? = segment > 0 ? scalars[segment - 1] : nil
            var names: [String]
            if prior == nil || prior == "/" {
                let path = prior == nil ? nil : string(scalars[..<(segment - 1)])
                if path == "" {
                    // `/name`: the root itself, in any namespace when none is given.
                    names = context.stanza.map { stanza in
                        namespace == nil || namespace == "*" || namespace == stanza.namespace ? [stanza.name] : []
                    } ?? []
                } else if let parents = path.map(context.select) ?? context.stanza.map({ [$0] }) {
                    names = children(of: parents, in: namespace)
                    // (Children in another namespace, where completion helps most, with theirs.)
                    if namespace == nil { names += qualifiedChildren(of: parents) }
                } else {
                    names = context.stanza.map(elementNames) ?? []
                }
            } else {
                names = context.stanza.map(elementNames) ?? []
            }
            // "**" sorts before every name.
            candidates = (namespace == nil && (prior == nil || prior == "/") ? ["**"] : []) + Set(names).sorted()
        }
        return Completion(word: word, candidates: candidates.filter { $0.hasPrefix(word) })
    }

    /// The names of the children of `parents` that a name can match there: those in
    /// `namespace` (any for `*`), or without one in their parent's namespace, as
    /// an unqualified name requires (stanzaq-query(7), SELECTION).
    private static func children(of parents: [Element], in namespace: String?) -> [String] {
        parents.flatMap { parent in
            parent.childElements.filter { child in
                namespace == "*" || child.namespace == (namespace ?? parent.namespace)
            }.map(\.name)
        }
    }

    /// The children of `parents` in a namespace other than their parent's, as a
    /// segment names them: `{urn:xmpp:forward:0}forwarded`.
    private static func qualifiedChildren(of parents: [Element]) -> [String] {
        parents.flatMap { parent in
            parent.childElements.filter { $0.namespace != parent.namespace }.map { "{\($0.namespace)}\($0.name)" }
        }
    }

    /// The attributes of `elements`, or (when the path could not be read) of every element of `stanza`.
    private static func attributeNames(of elements: [Element]?, in stanza: Element?) -> [String] {
        guard let elements else { return stanza.map(attributeNames) ?? [] }
        return Set(elements.flatMap { $0.attributes.map(\.qualifiedName) }).sorted()
    }

    static func files(_ partial: String) -> Completion {
        let directory: String, prefix: String
        if let slash = partial.lastIndex(of: "/") {
            directory = String(partial[...slash])
            prefix = String(partial[partial.index(after: slash)...])
        } else {
            directory = ""
            prefix = partial
        }
        var names: [String] = []
        if let dir = opendir(directory.isEmpty ? "." : directory) {
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.hasPrefix(prefix), name != ".", name != "..", !(prefix.isEmpty && name.hasPrefix(".")) else { continue }
                let isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
                names.append(directory + name + (isDirectory ? "/" : ""))
            }
        }
        return Completion(word: partial, candidates: names.sorted())
    }

    static func namespaces(_ stanza: Element) -> [String] {
        var found = Set<String>()
        collectNamespaces(of: stanza, into: &found)
        return found.sorted()
    }

    /// Adds the namespaces of `element` and everything in it to `found` (once per
    /// stanza of a 200 MB capture: no array is made on the way).
    static func collectNamespaces(of element: Element, into found: inout Set<String>) {
        if !element.namespace.isEmpty { found.insert(element.namespace) }
        for attribute in element.attributes where !attribute.namespace.isEmpty { found.insert(attribute.namespace) }
        for case .element(let child) in element.children { collectNamespaces(of: child, into: &found) }
    }

    static func elementNames(_ stanza: Element) -> [String] {
        var found = Set<String>()
        visit(stanza) { found.insert($0.name) }
        return found.sorted()
    }

    static func attributeNames(_ stanza: Element) -> [String] {
        var found = Set<String>()
        visit(stanza) { element in element.attributes.forEach { found.insert($0.qualifiedName) } }
        return found.sorted()
    }

    private static func visit(_ element: Element, _ body: (Element) -> Void) {
        body(element)
        for child in element.childElements { visit(child, body) }
    }

    /// The longest text every candidate starts with.
    public var commonPrefix: String {
        guard var prefix = candidates.first else { return "" }
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
