#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Why a query had no result, said as a near query that has one
/// (stanzaq(1), "No result").
public struct NoResultHint: Equatable, Sendable {
    /// The query that had no result, as written.
    public var query: String
    /// The near query that has one.
    public var near: NearQuery

    /// The hint as the command line writes it on standard error.
    public var line: String {
        "stanzaq: hint: no result for '\(query)'; '\(near.text)' has some (\(near.change))"
    }

    /// The hint as the REPL says it after `(no result)`.
    public var remark: String {
        "hint: '\(near.text)' has some (\(near.change))"
    }

    /// How many near queries are tried at most, each a search of its own.
    static let attempts = 8

    /// The hint for the first of `queries` with a near query (``NearQueries``)
    /// for which `hasResult` is true, tried in order; `nil` if none has one.
    ///
    /// - Parameters:
    ///   - names: the element and attribute names of the input, asked for once
    ///     and only if a query has a name to check against them.
    ///   - hasResult: whether a query, as written, has a result in the input.
    ///   - firstValue: a query's first result in the input, as text.
    public static func hint(for queries: [QuerySyntax], names: () -> InputNames, hasResult: (String) -> Bool,
                            firstValue: (String) -> String?) -> NoResultHint? {
        var known: InputNames?
        var tried = 0
        for query in queries {
            let inputNames = known ?? names()
            known = inputNames
            for near in NearQueries.candidates(for: query, elementNames: inputNames.elements,
                                               attributeNames: inputNames.attributes) {
                guard tried < attempts else { return nil }
                tried += 1
                if hasResult(near.text) {
                    return NoResultHint(query: query.text, near: resolvingNamespaces(of: near, firstValue: firstValue))
                }
            }
        }
        return nil
    }
}

extension NoResultHint {
    /// `near` with the namespace of each of its `{*}` steps written as the
    /// input has it (`{urn:xmpp:forward:0}forwarded`), or left out where it is
    /// that of the step before; `near` as it is if that query has no result.
    static func resolvingNamespaces(of near: NearQuery, firstValue: (String) -> String?) -> NearQuery {
        guard !near.anyNamespaceSteps.isEmpty, let syntax = try? QuerySyntax(parsing: near.text) else { return near }
        var scalars = Array(near.text.unicodeScalars)
        var found: [Int: String] = [:]
        for index in near.anyNamespaceSteps {
            guard case .select(let selector) = syntax.steps[index] else { return near }
            let end = NearQueries.selectorEnd(scalars, from: selector.column - 1)
            guard let namespace = firstValue(String(Array(scalars[..<end])) + "@xmlns") else { return near }
            found[index] = namespace
        }
        for index in near.anyNamespaceSteps.reversed() {
            guard case .select(let selector) = syntax.steps[index], let namespace = found[index] else { continue }
            let start = selector.column - 1
            var before: String?
            if index > 0, case .select(let previous) = syntax.steps[index - 1] {
                if case .uri(let uri) = previous.namespace { before = uri } else { before = found[index - 1] }
            }
            scalars.replaceSubrange(start..<(start + 3), with: (before == namespace ? "" : "{\(namespace)}").unicodeScalars)
        }
        let resolved = String(scalars)
        guard resolved != near.text, firstValue(resolved) != nil else { return near }
        return NearQuery(text: resolved, change: near.change)
    }
}

/// The names an input's elements and attributes have (those without a
/// namespace prefix), for the hint on a mistyped one.
public struct InputNames: Equatable, Sendable {
    public var elements: Set<String> = []
    public var attributes: Set<String> = []
    /// At most this many names of each kind are kept.
    static let limit = 10_000

    public init() {}

    /// Adds the names of `element` and everything in it.
    public mutating func add(_ element: Element) {
        if elements.count < Self.limit { elements.insert(element.name) }
        for attribute in element.attributes where attribute.namespace.isEmpty && attributes.count < Self.limit {
            attributes.insert(attribute.name)
        }
        for case .element(let child) in element.children { add(child) }
    }

    /// Adds the names of the tags in `bytes`, text as it is (XML, or a log's
    /// lines): each `<name` (its local part) and each `name=` inside such a
    /// tag, without building anything — names to suggest, not a parse.
    public mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        let count = bytes.count
        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
        }
        func name(from start: Int) -> (String, Int) {
            var end = start
            while end < count, isNameByte(bytes[end]) { end += 1 }
            var local = start
            for position in start..<end where bytes[position] == 0x3A { local = position + 1 }
            return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[local..<end]), as: UTF8.self), end)
        }
        while index < count, elements.count < Self.limit && attributes.count < Self.limit {
            guard bytes[index] == 0x3C, index + 1 < count, isNameByte(bytes[index + 1]) else { index += 1; continue }
            let (element, end) = name(from: index + 1)
            if !element.isEmpty { elements.insert(element) }
            index = end
            // The attributes, up to the tag's end (or the line's, in a log).
            while index < count, bytes[index] != 0x3E, bytes[index] != 0x3C, bytes[index] != 0x0A {
                if isNameByte(bytes[index]), bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 {
                    let (attribute, after) = name(from: index)
                    if after < count, bytes[after] == 0x3D, !attribute.isEmpty, !bytes[index..<after].contains(0x3A) {
                        attributes.insert(attribute)
                    }
                    index = after
                } else {
                    index += 1
                }
            }
        }
    }
}
