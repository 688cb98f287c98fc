#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// A query near one that had no result: the same query with one of the
/// commonest mistakes undone, and which (stanzaq(1), "No result").
public struct NearQuery: Equatable, Sendable {
    /// The query as it would be written.
    public var text: String
    /// What was changed, for the hint: "the value without its quotes".
    public var change: String
    /// The steps whose namespace became `{*}`, by their index.
    public var anyNamespaceSteps: [Int] = []
}

/// The queries near `syntax` to try when it had no result in the whole input
/// (``NoResultHint``), in the order they are tried: the commonest mistakes of
/// the language, each undone alone, then all of them at once.
///
/// - a quoted filter value (`<type='chat'>` compares with the quotes);
/// - `//` at the start (the stanza's children, not any depth: `**/`);
/// - a path without its leading `/` (it starts at the stanza's children);
/// - a name the input does not have, one or two edits from one it has
///   (`mesage`, `<typ=chat>`, `boddy#`), from `names`;
/// - a name without `{…}`, which is looked for in its parent's namespace, or
///   one in a namespace the input does not use there: any namespace (`{*}`).
enum NearQueries {
    static func candidates(for syntax: QuerySyntax, elementNames: Set<String>, attributeNames: Set<String>) -> [NearQuery] {
        let text = syntax.text
        var near: [NearQuery] = []
        // Every change but the namespaces' at once, and what they are.
        var all = text, allChanges: [String] = []
        if let unquoted = unquotingFilterValues(text) {
            near.append(NearQuery(text: unquoted, change: "the value without its quotes"))
            all = unquoted
            allChanges.append(near.last!.change)
        }
        if text.hasPrefix("//") {
            near.append(NearQuery(text: "**/" + text.dropFirst(2), change: "'**/' reaches any depth; '//' only the stanza's children"))
            all = "**/" + all.dropFirst(2)
            allChanges.append(near.last!.change)
        } else if !syntax.rooted, case .select(let first)? = syntax.steps.first, case .named = first.name {
            near.append(NearQuery(text: "/" + text, change: "a path from the stanza starts with '/'"))
            all = "/" + all
            allChanges.append(near.last!.change)
        }
        for (name, isAttribute) in names(in: syntax) {
            let known = isAttribute ? attributeNames : elementNames
            guard !known.contains(name), let other = NameSuggestion.suggestion(for: name, among: known.sorted()),
                  let renamed = renaming(name, to: other, in: text, attribute: isAttribute) else { continue }
            near.append(NearQuery(text: renamed, change: "the input has no \(isAttribute ? "attribute" : "element") '\(name)'"))
            all = renaming(name, to: other, in: all, attribute: isAttribute) ?? all
            allChanges.append(near.last!.change)
        }
        let anyNamespace = inAnyNamespace(syntax, explicitToo: false)
        if !anyNamespace.steps.isEmpty {
            near.append(NearQuery(text: anyNamespace.text, change: "a name without {…} is looked for in its parent's namespace",
                                  anyNamespaceSteps: anyNamespace.steps))
        }
        let anyAtAll = inAnyNamespace(syntax, explicitToo: true)
        if anyAtAll.steps != anyNamespace.steps {
            near.append(NearQuery(text: anyAtAll.text, change: "in another namespace", anyNamespaceSteps: anyAtAll.steps))
        }
        if all != text, !near.contains(where: { $0.text == all }) {
            near.append(NearQuery(text: all, change: allChanges.joined(separator: "; ")))
        }
        return near
    }

    /// The query with each `=` filter value written in quotes (`<type='chat'>`)
    /// without them, if it has one.
    private static func unquotingFilterValues(_ text: String) -> String? {
        let characters = Array(text)
        var result = "", index = 0, changed = false
        while index < characters.count {
            let character = characters[index]
            result.append(character)
            index += 1
            guard character == "=", index < characters.count, characters[index] == "'" || characters[index] == "\"" else { continue }
            let quote = characters[index]
            guard let close = characters[(index + 1)...].firstIndex(of: quote), close + 1 < characters.count,
                  characters[close + 1] == ">", !characters[(index + 1)..<close].contains(where: { "<>'\"".contains($0) })
            else { continue }
            result += String(characters[(index + 1)..<close])
            index = close + 1
            changed = true
        }
        return changed ? result : nil
    }

    /// The element names of the query's steps and the attribute names of its
    /// filters and extraction, each once, in order; true for an attribute.
    private static func names(in syntax: QuerySyntax) -> [(String, Bool)] {
        var names: [(String, Bool)] = []
        func add(_ name: String, _ attribute: Bool) {
            if !names.contains(where: { $0 == (name, attribute) }) { names.append((name, attribute)) }
        }
        for step in syntax.steps {
            guard case .select(let selector) = step else { continue }
            if case .named(let name) = selector.name { add(name, false) }
            for filter in selector.filters {
                if case .attribute(let attribute) = filter.subject, attribute.namespace == .none { add(attribute.name, true) }
            }
        }
        if case .attribute(let attribute)? = syntax.extraction, attribute.namespace == .none { add(attribute.name, true) }
        return names
    }

    /// `text` with the name `name` (as an element name, after one of `/ } !`
    /// or at the start; as an attribute's, after `<` or `@`) written `other`.
    private static func renaming(_ name: String, to other: String, in text: String, attribute: Bool) -> String? {
        let before: Set<Character> = attribute ? ["<", "@"] : ["/", "}", "!"]
        let after: Set<Character> = ["/", "<", ">", "@", "#", "$", "|", "\\", "=", "~"]
        let characters = Array(text), wanted = Array(name)
        var result = "", index = 0, changed = false
        while index < characters.count {
            let end = index + wanted.count
            if end <= characters.count, Array(characters[index..<end]) == wanted,
               index == 0 ? !attribute : before.contains(characters[index - 1]),
               end == characters.count || after.contains(characters[end]) {
                result += other
                index = end
                changed = true
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return changed ? result : nil
    }

    /// The query with `{*}` for the namespace of every named step that inherits
    /// its parent's (and, `explicitToo`, that names one), and those steps.
    private static func inAnyNamespace(_ syntax: QuerySyntax, explicitToo: Bool) -> (text: String, steps: [Int]) {
        var scalars = Array(syntax.text.unicodeScalars)
        var changed: [Int] = []
        // From the last step back, so that the columns before stay right.
        for (index, step) in syntax.steps.enumerated().reversed() {
            guard case .select(let selector) = step, case .named = selector.name,
                  !(index == 0 && syntax.rooted) else { continue }
            let start = selector.column - 1
            guard start >= 0 && start < scalars.count else { continue }
            switch selector.namespace {
            case .inherited:
                scalars.insert(contentsOf: "{*}".unicodeScalars, at: start)
            case .uri where explicitToo:
                guard scalars[start] == "{", let close = scalars[start...].firstIndex(of: "}") else { continue }
                scalars.replaceSubrange(start...close, with: "{*}".unicodeScalars)
            default:
                continue
            }
            changed.insert(index, at: 0)
        }
        return (String(scalars), changed)
    }

    /// Where the selector that starts at `start` (an index into `scalars`)
    /// ends: after its namespace, name and filters.
    static func selectorEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        if index < scalars.count, scalars[index] == "{" {
            index = (scalars[index...].firstIndex(of: "}") ?? scalars.count - 1) + 1
        }
        while index < scalars.count, !"<@#$\\|/".unicodeScalars.contains(scalars[index]) { index += 1 }
        while index < scalars.count, scalars[index] == "<" {
            index = (scalars[index...].firstIndex(of: ">") ?? scalars.count - 1) + 1
        }
        return index
    }
}

extension String {
    init(_ scalars: [Unicode.Scalar]) {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        self = text
    }
}
