import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// What a search looks for before it reads (stanzaq(1), "Skipping what cannot
/// match"): byte runs one of which every stanza that counts contains, so that
/// the records of a log without any are not read at all — ripgrep's literal
/// search before its regular expression.
public struct Prefilter: Equatable, Sendable, CustomStringConvertible {
    /// Every stanza that counts holds one of these, or one of their stand-ins.
    public let literals: [RequiredLiteral]

    /// The needles a search for the literals looks for, stand-ins included.
    var needles: [Needle] {
        var needles: [Needle] = []
        for literal in literals {
            needles.append(Needle(bytes: literal.bytes, caseless: literal.caseless, wholeValue: literal.isWholeValue))
            for standIn in literal.standIns where !needles.contains(where: { $0.bytes == standIn }) {
                needles.append(Needle(bytes: standIn, caseless: false, wholeValue: false))
            }
        }
        return needles
    }

    public var description: String { literals.map(\.description).joined(separator: " | ") }

    /// What it looks for, as the tests' debugging line shows it.
    public var explanation: String {
        var shown: [String] = []
        for literal in literals {
            let notes = (literal.caseless ? ["any case"] : []) + (literal.isWholeValue ? ["a whole value"] : [])
            shown.append("'" + literal.description + "'" + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"))
            for standIn in literal.standIns {
                let written = "'" + String(decoding: standIn, as: UTF8.self) + "'"
                if !shown.contains(written) { shown.append(written) }
            }
        }
        return shown.joined(separator: ", ")
    }

    /// The literals of a search, or `nil` if it must read everything.
    ///
    /// Every `--where` must have a result, so one of their literals would do;
    /// any one of the queries may: then each needs one. `--each` is where the
    /// queries look, its literals count as a `--where`'s. Not with a `~` filter
    /// in `--each` or `--where` (they are tried on every stanza, and a regular
    /// expression's abandoned matches are counted across a run), nor with
    /// prefixed names (whether a prefix is bound anywhere is warned about at the
    /// end: every stanza must be read for that).
    init?(queries: [Query], each: Query?, wheres: [Query], aliases: [String: String]) {
        let selectors = wheres + (each.map { [$0] } ?? [])
        guard !selectors.contains(where: \.hasRegularExpression),
              !UnboundPrefixes(queries: queries + selectors, aliases: aliases).isWatching else { return nil }
        let bySelector = selectors.compactMap(\.bestRequiredLiteral)
        let byQuery = queries.map(\.bestRequiredLiteral)
        var candidates = bySelector.map { [$0] }
        if !byQuery.isEmpty, !byQuery.contains(where: { $0 == nil }) {
            var distinct: [RequiredLiteral] = []
            for literal in byQuery.compactMap({ $0 }) where !distinct.contains(literal) { distinct.append(literal) }
            candidates.append(distinct)
        }
        // The fewest needles, then the shortest literal the longest: a rare hit.
        guard let best = candidates.min(by: { Self.cost($0) < Self.cost($1) }) else { return nil }
        literals = best
    }

    private static func cost(_ literals: [RequiredLiteral]) -> (Int, Int) {
        (literals.count, -(literals.map(\.bytes.count).min() ?? 0))
    }
}
