#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// A run of bytes that the XML text of every element a query has a result on
/// contains: ripgrep's idea of a literal that every match must hold, which a
/// byte search finds far faster than a parser reads (stanzaq(1), "Skipping
/// what cannot match").
public struct RequiredLiteral: Equatable, Sendable, CustomStringConvertible {
    /// The bytes, as the XML text holds them (ASCII).
    public var bytes: [UInt8]
    /// Whether the text may hold them in any ASCII case.
    public var caseless: Bool
    /// Other byte runs whose presence may stand for the literal: an attribute
    /// value can be spelled with character references (`&#101;`), and ignoring
    /// case, ICU takes the Kelvin sign for `k`, `ſ` for `s`, `ß` and `ẞ` for
    /// `ss`, and the ligatures U+FB00–FB06 for `ff`, `fi`, `fl`, `ffi`, `ffl`
    /// and `st` (the only characters outside ASCII whose full case folding
    /// holds ASCII letters alone).
    public var standIns: [[UInt8]]
    /// Whether the literal is an `=` value whole: where the text holds it as
    /// is, it stands between an attribute's quotes (a value spelled otherwise
    /// holds a stand-in), save for a line terminator after it that is not
    /// ASCII (NEL, LS and PS are not normalised in attribute values).
    public var isWholeValue = false

    /// Whether the literal names an element or attribute (a value's is rarer).
    var isName: Bool

    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

extension Query {
    /// The literals the XML text of an element contains if the query has a
    /// result with that element as its context: names of elements the path
    /// must reach, names of attributes its filters and extraction read, and
    /// the longest safe piece of each `=` value.
    ///
    /// Only what is decided before the query's first `~` filter counts: the
    /// abandoned matches of a regular expression are counted across a run, so
    /// every element on which one is tried must be read as a full read reads it.
    /// Left out: namespaces (inherited from a stream header), text values (CDATA
    /// sections and comments split them), `xmlns` and any-attribute values
    /// (the namespace is an attribute to `@@`, inherited too), and names that
    /// are not ASCII (Swift compares them by canonical equivalence).
    public var requiredLiterals: [RequiredLiteral] {
        var literals: [RequiredLiteral] = []
        for step in steps {
            let selector: CompiledSelector
            switch step {
            case .select(let compiled), .context(let compiled), .keep(let compiled): selector = compiled
            case .parent, .anyDepth: continue
            }
            if case .named(let name) = selector.syntax.name, let literal = RequiredLiteral(name: name) {
                literals.append(literal)
            }
            for filter in selector.filters {
                if case .matches = filter.test { return literals }
                guard case .attribute(let attribute) = filter.subject, attribute.name != "xmlns" else { continue }
                if let literal = RequiredLiteral(name: attribute.name) { literals.append(literal) }
                switch filter.test {
                case .equals(let matcher):
                    if let literal = RequiredLiteral(value: matcher.value, caseless: true) { literals.append(literal) }
                case .equalsExactly(let matcher):
                    if let literal = RequiredLiteral(value: matcher.value, caseless: false) { literals.append(literal) }
                case .matches:
                    break
                }
            }
        }
        if let attribute = extractedAttribute, attribute.name != "xmlns", let literal = RequiredLiteral(name: attribute.name) {
            literals.append(literal)
        }
        return literals
    }

    /// Whether the query has a `~` filter anywhere.
    public var hasRegularExpression: Bool {
        steps.contains { step in
            switch step {
            case .select(let selector), .context(let selector), .keep(let selector):
                return selector.filters.contains { if case .matches = $0.test { return true } else { return false } }
            case .parent, .anyDepth:
                return false
            }
        }
    }

    /// The query's most selective literal: a value's before a name's, the
    /// longer first; `nil` if it has none.
    public var bestRequiredLiteral: RequiredLiteral? {
        requiredLiterals.max { a, b in (a.isName ? 0 : 1, a.bytes.count) < (b.isName ? 0 : 1, b.bytes.count) }
    }
}

extension RequiredLiteral {
    /// An element's or attribute's local name: written as is (no reference
    /// spells a name), and compared with case.
    init?(name: String) {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        guard !local.isEmpty, local.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.init(bytes: Array(local.utf8), caseless: false, standIns: [], isWholeValue: false, isName: true)
    }

    /// The longest piece of an `=` value that its attribute's text must hold as
    /// is: ASCII, and neither white space (normalised to spaces in attribute
    /// values) nor a character that XML writes as an entity (`&<>"'`).
    init?(value: String, caseless: Bool) {
        var best: ArraySlice<UInt8> = []
        let bytes = Array(value.utf8)
        var start = 0
        for end in 0...bytes.count {
            if end == bytes.count || !Self.isPlain(bytes[end]) {
                if end - start > best.count { best = bytes[start..<end] }
                start = end + 1
            }
        }
        guard best.count >= 2 else { return nil }
        var standIns = ["&#"]
        if caseless {
            // The characters whose case folding (ICU's, full) is or holds ASCII letters.
            let lower = String(decoding: best.map(asciiLower), as: UTF8.self)
            if lower.contains("k") { standIns.append("\u{212A}") }
            if lower.contains("s") { standIns.append("\u{17F}") }
            if lower.contains("ss") { standIns += ["\u{DF}", "\u{1E9E}"] }
            if lower.contains("st") { standIns += ["\u{FB05}", "\u{FB06}"] }
            if lower.contains("ff") || lower.contains("fi") || lower.contains("fl") {
                standIns += ["\u{FB00}", "\u{FB01}", "\u{FB02}", "\u{FB03}", "\u{FB04}"]
            }
        }
        self.init(bytes: Array(best), caseless: caseless, standIns: standIns.map { Array($0.utf8) },
                  isWholeValue: best.count == bytes.count, isName: false)
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21...0x7E: return !"&<>\"'".utf8.contains(byte)
        default: return false
        }
    }
}
