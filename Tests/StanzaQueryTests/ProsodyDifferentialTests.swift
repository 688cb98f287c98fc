import Foundation
import StanzaqTestSupport
import XCTest
import StanzaQuery

/// stanzaq-query(7), COMPATIBILITY, Prosody: "every query Prosody's
/// stanza:find() accepts gives Prosody's answer as the first result".
///
/// Checked against Prosody's own util.stanza (Debian's `prosody` package,
/// run by `lua5.4` through Tests/Prosody/find.lua) on every stanza of the
/// shared XEP corpus, with queries generated from each stanza in the shapes
/// `@attr`, `@xmlns`, `{ns}child`, `{ns}child#`, `{ns}child@attr`,
/// `{ns}child@xmlns`, `{ns}child/grandchild#`, `{ns}child/#` and
/// `{ns}child//#`.
///
/// A query agrees when `--first` (``Query/findFirst(in:strict:)``) gives
/// Prosody's answer. The documented differences are allowed, and each is
/// checked for what it claims:
/// - **`#`**: of an element with child elements Prosody gives nothing, of an
///   element without text the empty string; stanzaq gives the element's
///   direct text, or no result;
/// - **first-child walk**: Prosody follows only the first child that matches
///   each segment; stanzaq searches every match.
/// For that, stanzaq also walks the path the way Prosody does, taking the
/// first match of each segment with its own queries: that walk must reach
/// the very element Prosody's reached, and read the same answer from it but
/// for the `#` rules; and the first result of the whole query must be the
/// walk's answer, or — where the walk found nothing — a later match.
/// (The third documented difference, a leading `/`, is not in these shapes.)
final class ProsodyDifferentialTests: XCTestCase {
    static let corpus = PackagePaths.shared.appendingPathComponent("corpus/xep-stanzas.xml")
    static let script = PackagePaths.file("Tests/Prosody/find.lua")

    /// A generated query and how to walk it as Prosody does.
    struct Case {
        var stanza: Int
        /// The query, the same text for Prosody and stanzaq.
        var text: String
        /// The Prosody path of the element the query reads its answer from ("." the stanza).
        var elementPath: String
        /// The segments of the path, each a stanzaq query taking the first match.
        var steps: [String]
        var extraction: Extraction
        var shape: String
    }

    enum Extraction: Equatable {
        case element, text, attribute(String)
    }

    /// An answer, comparable across the two implementations.
    enum Answer: Equatable, CustomStringConvertible {
        case none
        case string(String)
        /// An element, by where it is in the stanza ("2.1").
        case element(String)

        var description: String {
            switch self {
            case .none: return "nothing"
            case .string(let s): return s.debugDescription
            case .element(let place): return "<element at \(place.isEmpty ? "the root" : place)>"
            }
        }
    }

    func testFirstResultsAreProsodys() throws {
        guard FileManager.default.fileExists(atPath: Self.corpus.path) else {
            throw XCTSkip("the shared corpus is absent (\(Self.corpus.path)): the Prosody differential test needs it")
        }
        guard let lua = which("lua5.4"), FileManager.default.fileExists(atPath: "/usr/lib/prosody/util/stanza.lua") else {
            throw XCTSkip("lua5.4 or Prosody's util.stanza (/usr/lib/prosody) is absent: install the prosody and lua5.4 packages (make test-deps)")
        }
        let stanzas = try StanzaReader.stanzas(in: String(decoding: try Data(contentsOf: Self.corpus), as: UTF8.self))
        var cases: [Case] = []
        var skipped: [String: Int] = [:]
        for (index, stanza) in stanzas.enumerated() {
            generate(for: stanza, number: index + 1, into: &cases, skipped: &skipped)
        }
        let prosody = try prosodyAnswers(cases, lua: lua)
        XCTAssertEqual(prosody.count, cases.count, "one Prosody answer per query")
        guard prosody.count == cases.count else { return }

        var compiled: [String: Query] = [:]
        func query(_ text: String) throws -> Query {
            if let query = compiled[text] { return query }
            let query = try Query(text)
            compiled[text] = query
            return query
        }
        var counts: [String: Int] = [:]
        var shapes: [String: (total: Int, agree: Int)] = [:]
        var failures: [String] = []
        for (test, (prosodyAnswer, reached)) in zip(cases, prosody) {
            let stanza = stanzas[test.stanza - 1]
            let first = try answer(of: query(test.text).findFirst(in: stanza))
            // Prosody's walk, with stanzaq's own queries: the first match of each segment.
            var element: Element? = stanza
            for step in test.steps {
                guard let current = element else { break }
                if case .element(let next)? = try query(step).findFirst(in: current) { element = next } else { element = nil }
            }
            let walked: Answer
            switch test.extraction {
            case .element: walked = element.map { .element(place($0)) } ?? .none
            case .text: walked = try element.map { try answer(of: query("/#").findFirst(in: $0)) } ?? .none
            case .attribute(let name): walked = try element.map { try answer(of: query("/@" + name).findFirst(in: $0)) } ?? .none
            }
            func fail(_ why: String) {
                failures.append("stanza \(test.stanza), \(test.text): \(why) (Prosody: \(prosodyAnswer), stanzaq --first: \(first), walked: \(walked))")
            }
            shapes[test.shape, default: (0, 0)].total += 1
            if first == prosodyAnswer {
                counts["the same answer", default: 0] += 1
                shapes[test.shape]!.agree += 1
                continue
            }
            // The walk reaches Prosody's element…
            let walkedPlace = element.map(place) ?? "-"
            guard walkedPlace == reached else { fail("the first matches lead to \(walkedPlace), Prosody's to \(reached)"); continue }
            // …and reads Prosody's answer there, but for the documented '#' rules…
            var hashRule = false
            if walked != prosodyAnswer {
                guard test.extraction == .text, let element else { fail("a different answer on the same element"); continue }
                let hasChildren = !element.childElements.isEmpty
                if hasChildren && prosodyAnswer == .none {
                    hashRule = true        // Prosody: no text for an element with children
                } else if !hasChildren && prosodyAnswer == .string("") && walked == .none {
                    hashRule = true        // Prosody: "" for an element without text
                } else {
                    fail("a different text on the same element"); continue
                }
            }
            // …and --first gives the walk's answer, or a later match where the walk found nothing.
            if first == walked {
                counts[hashRule ? "documented: '#' of an element with children or without text" : "?", default: 0] += 1
            } else if walked == .none && first != .none {
                counts[hashRule ? "documented: '#' of the first match has no text, a later match has"
                                : "documented: Prosody's first-child walk leads nowhere, a later match has an answer", default: 0] += 1
            } else {
                fail("--first is not the first match's answer")
            }
        }
        var report = "Prosody differential: \(cases.count) queries on \(stanzas.count) stanzas\n"
        for (name, count) in counts.sorted(by: { $0.value > $1.value }) { report += "  \(count)\t\(name)\n" }
        for (shape, count) in shapes.sorted(by: { $0.key < $1.key }) { report += "  shape \(shape): \(count.agree) of \(count.total) the same\n" }
        for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) { report += "  not generated: \(count) \(reason)\n" }
        print(report, terminator: "")
        XCTAssertEqual(stanzas.count, ReaderTests.corpusStanzaCount, "the corpus has 4,764 stanzas")
        XCTAssertGreaterThan(cases.count, 20_000)
        XCTAssertNil(counts["?"], "an answer equal to the walk's but not to Prosody's, without a documented reason")
        XCTAssertEqual(failures.count, 0, "\(failures.count) queries differ from Prosody without a documented reason:\n"
                       + failures.prefix(25).joined(separator: "\n"))
    }

    // MARK: Generating queries

    private func generate(for stanza: Element, number: Int, into cases: inout [Case], skipped: inout [String: Int]) {
        func add(_ text: String, _ elementPath: String, _ steps: [String], _ extraction: Extraction, _ shape: String) {
            cases.append(Case(stanza: number, text: text, elementPath: elementPath, steps: steps, extraction: extraction, shape: shape))
        }
        for name in attributeNames(of: [stanza], skipped: &skipped) {
            add("@" + name, ".", [], .attribute(name), "@attr")
        }
        add("@xmlns", ".", [], .attribute("xmlns"), "@xmlns")
        var seen: Set<String> = []
        for child in stanza.childElements {
            guard !child.namespace.isEmpty else {
                skipped["children in the empty namespace ({} cannot be written)", default: 0] += 1
                continue
            }
            let base = "{" + child.namespace + "}" + child.name
            guard seen.insert(base).inserted else { continue }
            let same = stanza.childElements.filter { $0.namespace == child.namespace && $0.name == child.name }
            add(base, base, [base], .element, "{ns}child")
            add(base + "#", base, [base], .text, "{ns}child#")
            add(base + "@xmlns", base, [base], .attribute("xmlns"), "{ns}child@xmlns")
            for name in attributeNames(of: same, skipped: &skipped) {
                add(base + "@" + name, base, [base], .attribute(name), "{ns}child@attr")
            }
            var grandchildren: [String] = []
            for element in same {
                for grandchild in element.childElements where !grandchildren.contains(grandchild.name) {
                    grandchildren.append(grandchild.name)
                }
            }
            for name in grandchildren {
                add(base + "/" + name + "#", base + "/" + name, [base, name], .text, "{ns}child/grandchild#")
            }
            add(base + "/#", base + "//", [base, "*"], .text, "{ns}child/#")
            add(base + "//#", base + "///", [base, "*", "*"], .text, "{ns}child//#")
        }
    }

    /// The attribute names `@name` reads alike in both: unprefixed, or `xml:`
    /// (Prosody's util.xml keys other namespaced attributes by their URI).
    private func attributeNames(of elements: [Element], skipped: inout [String: Int]) -> [String] {
        var names: [String] = []
        for element in elements {
            for attribute in element.attributes {
                if attribute.prefix != nil && attribute.prefix != "xml" {
                    skipped["attributes with a prefix other than xml: (util.xml keys them by namespace URI)", default: 0] += 1
                    continue
                }
                if !names.contains(attribute.qualifiedName) { names.append(attribute.qualifiedName) }
            }
        }
        return names
    }

    // MARK: Answers

    private func answer(of value: QueryValue?) throws -> Answer {
        switch value {
        case nil: return .none
        case .string(let string)?: return .string(string)
        case .element(let element)?: return .element(place(element))
        case let other?: throw XCTSkip("unexpected result \(other)")
        }
    }

    /// Where `element` is in its stanza: 1-based indexes among child elements, "" for the root.
    private func place(_ element: Element) -> String {
        var indexes: [String] = []
        var node = element
        while let parent = node.parent {
            let index = parent.childElements.firstIndex { $0 === node }!
            indexes.append(String(index + 1))
            node = parent
        }
        return indexes.reversed().joined(separator: ".")
    }

    /// Runs find.lua on the cases: (Prosody's answer, where the element it read from is).
    private func prosodyAnswers(_ cases: [Case], lua: URL) throws -> [(Answer, String)] {
        let scratch = try ScratchDirectory()
        let input = try scratch.write("queries.tsv", cases.map { "\($0.stanza)\t\($0.text)\t\($0.elementPath)\n" }.joined())
        let result = try Runner.run(lua, [Self.script.path, Self.corpus.path, input.path], in: scratch.url,
                                    environment: Runner.environment())
        XCTAssertEqual(result.status, 0, "find.lua failed: \(result.stderr)")
        let text = result.output
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let reached = fields.last ?? "?"
            switch fields.first {
            case "str": return (.string(unescape(fields[1])), reached)
            case "elem": return (.element(fields[1]), reached)
            default: return (.none, reached)
            }
        }
    }

    private func unescape(_ field: String) -> String {
        var out = ""
        var escaped = false
        for character in field {
            if escaped {
                switch character {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    private func which(_ program: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(program)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
