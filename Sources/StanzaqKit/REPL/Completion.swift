import StanzaQuery

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

    /// Completions for `line` (the text before the cursor) on `stanza`.
    public static func complete(_ line: String, stanza: Element?) -> Completion {
        if line.hasPrefix(":") {
            guard let space = line.firstIndex(of: " ") else {
                return Completion(word: line, candidates: REPLSession.commands.map(\.name).filter { $0.hasPrefix(line) })
            }
            let rest = String(line[line.index(after: space)...])
            switch REPLSession.command(named: String(line[..<space]))?.completion ?? .nothing {
            case .files: return files(rest)
            case .query: return query(rest, stanza: stanza)
            case .choices(let choices): return Completion(word: rest, candidates: choices.filter { $0.hasPrefix(rest) })
            case .nothing: return Completion(word: rest, candidates: [])
            }
        }
        return query(line, stanza: stanza)
    }

    /// In a query: conversions after `|`, namespaces after `{`, attribute names
    /// after `@`, element names elsewhere — from the current stanza — and
    /// `**` (any depth) where a segment may start.
    static func query(_ text: String, stanza: Element?) -> Completion {
        let scalars = Array(text.unicodeScalars)
        // Stars where a segment starts: `*` becomes `**`.
        var stars = scalars.count
        while stars > 0, scalars[stars - 1] == "*" { stars -= 1 }
        if stars < scalars.count, stars == 0 || scalars[stars - 1] == "/" {
            let word = String(String.UnicodeScalarView(scalars[stars...]))
            return Completion(word: word, candidates: word.count <= 2 ? ["**"] : [])
        }
        // The word starts after the last character that cannot be part of a name.
        var start = scalars.count
        // (`#` too, which ends a query: nothing is offered after it.)
        while start > 0, QuerySyntax.isNameCharacter(scalars[start - 1]) || scalars[start - 1] == "#" { start -= 1 }
        let word = String(String.UnicodeScalarView(scalars[start...]))
        let before: Unicode.Scalar? = start > 0 ? scalars[start - 1] : nil
        // Inside an unclosed "{": a namespace, which may hold any character but "}".
        if let open = scalars.lastIndex(of: "{"), !scalars[open...].contains("}") {
            let partial = String(String.UnicodeScalarView(scalars[(open + 1)...]))
            let namespaces = stanza.map(Self.namespaces) ?? []
            return Completion(word: partial, candidates: namespaces.filter { $0.hasPrefix(partial) }.map { $0 + "}" })
        }
        let candidates: [String]
        switch before {
        case "|": candidates = Conversion.allCases.map(\.rawValue)
        case "@": candidates = stanza.map(attributeNames) ?? []
        case "<" where scalars.filter({ $0 == "<" }).count > scalars.filter({ $0 == ">" }).count:
            candidates = stanza.map(attributeNames) ?? []
        default:
            // "**" sorts before every name.
            candidates = (before == nil || before == "/" ? ["**"] : []) + (stanza.map(elementNames) ?? [])
        }
        return Completion(word: word, candidates: candidates.filter { $0.hasPrefix(word) })
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
        visit(stanza) { element in
            if !element.namespace.isEmpty { found.insert(element.namespace) }
            for attribute in element.attributes where !attribute.namespace.isEmpty { found.insert(attribute.namespace) }
        }
        return found.sorted()
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
