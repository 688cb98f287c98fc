import XCTest
import Foundation
import StanzaqTestSupport
@testable import StanzaQuery

/// stanzaq matches `~` filters with the system ICU's C API (``ICURegex``), Monal
/// with NSRegularExpression, which wraps ICU's. This test is the proof that the
/// answers are the same: every regular expression the tests, the documentation,
/// the examples and the benchmarks use, compiled both ways with both sets of
/// options (none, `.caseInsensitive`), must compile in both or in neither, and
/// give the same answer on every value — attribute values and texts of the
/// examples and of the shared corpus, and values chosen for case folding, line
/// terminators and anchors. NSRegularExpression is the oracle here only: the
/// product does not link Foundation.
final class RegexDifferentialTests: XCTestCase {
    /// Values for the parts of Monal's semantics that differ between engines:
    /// case folding, `$` before a final line terminator, `.` and line
    /// terminators, surrogate pairs, empty values.
    private static let chosenValues: [String] = [
        "", " ", "a", "A", "aaa", "chat", "CHAT", "Chat", "groupchat", "normal", "headline", "error",
        "chat\n", "chat\r\n", "chat\r", "chat\u{0B}", "chat\u{0C}", "chat\u{85}", "chat\u{2028}", "chat\u{2029}",
        "chat\n\n", "\nchat", "ch\nat", "k", "K", "\u{212A}", "ß", "SS", "ss", "ẞ", "İ", "i", "I", "ı", "é", "É", "e\u{301}",
        "Σ", "σ", "ς", "😀", "a😀b", "ǅ", "ǆ", "Ǆ", "ﬀ", "ff", "romeo@montague.lit", "romeo@montague.lit/orchard",
        "Romeo@Montague.LIT/Orchard", "juliet@capulet.lit/balcony", "urn:xmpp:ping", "jabber:client",
        "http://jabber.org/protocol/disco#info", "2002-09-10T23:08:25Z", "a.b", "a+b", "(x)", "[y]", "{z}", "^$", "a|b",
        "50%", "%@", "10", "-42", "3.5e2", "true", "x>y", "line one\nline two",
    ]

    func testICUAnswersAsNSRegularExpressionOnEveryPatternInUse() throws {
        let patterns = try Self.patternsInUse()
        let values = try Self.values()
        XCTAssertGreaterThan(patterns.count, 50, "the scan of the suite and documentation found too few patterns")
        var compared = 0, abandoned = 0
        for pattern in patterns {
            for caseInsensitive in [false, true] {
                let ours = ICURegex(pattern, caseInsensitive: caseInsensitive)
                let oracle = try? NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
                XCTAssertEqual(ours != nil, oracle != nil, "compiling '\(pattern)' (case-insensitive: \(caseInsensitive))")
                guard let ours, let oracle else { continue }
                let matcher = ours.makeMatcher()
                for value in values + Self.valuesFor(pattern) {
                    // (A low step limit: the catastrophic patterns of the tests are not waited for.)
                    let answer = matcher.match(value, limits: .withoutTimeLimit(regularExpressionSteps: 200_000))
                    guard answer != .abandoned("backtracked more than 200000 times") else {
                        abandoned += 1
                        continue
                    }
                    let expected = oracle.firstMatch(in: value, range: NSRange(location: 0, length: value.utf16.count)) != nil
                    XCTAssertEqual(answer, expected ? .match : .noMatch,
                                   "'\(pattern)' (case-insensitive: \(caseInsensitive)) on \(value.debugDescription)")
                    compared += 1
                }
            }
        }
        // (Some 100,000 comparisons with the shared corpus's values beside the
        // package, some 17,000 with the chosen values and the examples' alone.)
        let corpus = PackagePaths.shared.appendingPathComponent("corpus/xep-stanzas.xml").path
        XCTAssertGreaterThan(compared, FileManager.default.fileExists(atPath: corpus) ? 100_000 : 10_000)
        // Only the deliberately catastrophic patterns of the tests meet the limit, on few values.
        XCTAssertLessThan(abandoned, compared / 100)
    }

    /// `%@` in a `~` filter is the argument escaped as NSRegularExpression's
    /// `escapedPattern(for:)` escapes it.
    func testEscapingIsNSRegularExpressions() throws {
        for value in try Self.values() + Self.chosenValues + ["*?+[(){}^$|\\./", "a\\b", "-#&~<>=%"] {
            XCTAssertEqual(ICURegex.escapedPattern(for: value), NSRegularExpression.escapedPattern(for: value))
        }
    }

    /// The catastrophic pattern of stanzaq(1) is stopped by ICU's own limit, with
    /// the documented message.
    func testACatastrophicPatternIsStoppedByICUsLimit() throws {
        let matcher = try XCTUnwrap(ICURegex("^(a+)+$", caseInsensitive: true)).makeMatcher()
        XCTAssertEqual(matcher.match(String(repeating: "a", count: 40) + "!", limits: .default),
                       .abandoned("backtracked more than 20000000 times"))
    }

    // MARK: - The patterns and the values

    /// Every `~` filter's pattern in the tests, the README, the man pages, the
    /// examples and the benchmarks, as stanzaq compiles it.
    static func patternsInUse() throws -> [String] {
        var texts: [String] = []
        let fileManager = FileManager.default
        for folder in ["Tests", "man", "examples", "benchmarks"] {
            let root = PackagePaths.file(folder)
            guard let walk = fileManager.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where ["swift", "1", "7", "md", "py", "xml", "log"].contains(url.pathExtension) {
                if let text = try? String(contentsOf: url, encoding: .utf8) { texts.append(text) }
            }
        }
        texts.append(try String(contentsOf: PackagePaths.file("README.md"), encoding: .utf8))
        if let spec = try? String(contentsOf: PackagePaths.shared.appendingPathComponent("SPEC.md"), encoding: .utf8) {
            texts.append(spec)
        }
        var candidates = Set<String>()
        for text in texts {
            for written in filterValues(in: text) {
                // As written in a Swift string, in roff, or as is.
                for form in [written, swiftUnescaped(written), roffUnescaped(written)] {
                    candidates.insert(form)
                }
            }
        }
        // Each as stanzaq compiles it: the query parsed, the pattern bound.
        var patterns = Set<String>()
        for candidate in candidates {
            guard let query = try? Query("/<a~\(candidate)>", options: QueryOptions()) else { continue }
            for step in query.steps {
                let selector: CompiledSelector
                switch step {
                case .select(let compiled), .context(let compiled): selector = compiled
                default: continue
                }
                for filter in selector.filters {
                    if case .matches(let matcher, _, _) = filter.test { patterns.insert(matcher.regex.pattern) }
                }
            }
        }
        return patterns.sorted()
    }

    /// What follows each `~` up to the next `>` on its line (a filter's value
    /// has no `>`), when short enough to be a pattern.
    private static func filterValues(in text: String) -> [String] {
        var values: [String] = []
        for line in text.split(separator: "\n") {
            var rest = line[...]
            while let tilde = rest.firstIndex(of: "~") {
                let after = rest[rest.index(after: tilde)...]
                if let close = after.firstIndex(of: ">") {
                    let value = String(after[..<close])
                    if !value.isEmpty && value.count <= 200 && !value.contains("%") { values.append(value) }
                }
                rest = after
            }
        }
        return values
    }

    private static func swiftUnescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\\\", with: "\\")
    }

    private static func roffUnescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\(aq", with: "'").replacingOccurrences(of: "\\(ti", with: "~")
            .replacingOccurrences(of: "\\e", with: "\\").replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\&", with: "")
    }

    /// The chosen values, then the attribute values and texts of the examples and
    /// of the shared corpus (distinct, short, a fixed sample of the corpus's).
    static func values() throws -> [String] {
        var values = chosenValues
        var seen = Set(values)
        var fromFiles: [String] = []
        let examples = try FileManager.default.contentsOfDirectory(at: PackagePaths.examples, includingPropertiesForKeys: nil)
        let corpus = PackagePaths.shared.appendingPathComponent("corpus/xep-stanzas.xml")
        for url in examples.sorted(by: { $0.path < $1.path }) + [corpus] where url.pathExtension == "xml" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let quoted = try NSRegularExpression(pattern: #"='([^']*)'|="([^"]*)"|>([^<>]+)<"#)
            for match in quoted.matches(in: text, range: NSRange(location: 0, length: text.utf16.count)) {
                for group in 1...3 {
                    guard let range = Range(match.range(at: group), in: text) else { continue }
                    let value = String(text[range])
                    if value.utf16.count <= 120 && seen.insert(value).inserted { fromFiles.append(value) }
                }
            }
        }
        // Every 8th: some 1,000 values, every kind the corpus has.
        values += fromFiles.enumerated().filter { $0.offset % 8 == 0 }.map(\.element)
        return values
    }

    /// Values made from the pattern itself, to make matches likely: its
    /// literal characters, in both cases.
    private static func valuesFor(_ pattern: String) -> [String] {
        let literal = String(pattern.unicodeScalars.filter { !"^$()[]{}|*+?\\.".unicodeScalars.contains($0) }.map(Character.init))
        return [literal, literal.uppercased(), literal + "\n", "x" + literal + "y"]
    }
}
