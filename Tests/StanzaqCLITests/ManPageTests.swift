import Foundation
import XCTest
import StanzaqTestSupport

/// Checks the man pages themselves (their examples are run by DocumentationTests):
/// they pass `mandoc -T lint -W warning`, `stanzaq.1` documents every long option the
/// binary accepts, and `stanzaq-query.7` documents every conversion.
final class ManPageTests: XCTestCase {
    private static let manPackageRoot = PackagePaths.root

    private static let toolPage = manPackageRoot.appendingPathComponent("man/stanzaq.1")
    private static let languagePage = manPackageRoot.appendingPathComponent("man/stanzaq-query.7")

    /// The conversion names of the query language (stanzaq-query(7), CONVERSIONS).
    private static let conversions = ["bool", "int", "uint", "double", "datetime", "base64", "uuid", "uuidcast"]

    // mandoc is a test dependency (make test-deps): without it this test failed to
    // run at all, and said so only as a skip.
    func testManPagesPassMandocLint() throws {
        let mandoc = try XCTUnwrap(Self.findManTool("mandoc"), "mandoc is not installed (make test-deps)")
        let result = try Self.runManTool(mandoc, ["-T", "lint", "-W", "warning", Self.toolPage.path, Self.languagePage.path])
        XCTAssertEqual(result.output + result.errors, "", "mandoc -T lint -W warning reports problems")
        XCTAssertEqual(result.status, 0, "mandoc -T lint exit status\n\(result.output)\(result.errors)")
    }

    /// What lint cannot see: `.Fl` makes every word after it a flag until the next
    /// macro, so `.It Fl \-pair : 10,000 stanzas` rendered as `--pair: -10,000 -stanzas`
    /// (valid mdoc, broken text). The rendered pages say what their sources mean.
    func testRenderedPagesHaveNoWordsTurnedIntoFlags() throws {
        let mandoc = try XCTUnwrap(Self.findManTool("mandoc"), "mandoc is not installed (make test-deps)")
        var text = ""
        for page in [Self.toolPage, Self.languagePage] {
            let result = try Self.runManTool(mandoc, ["-T", "utf8", "-O", "width=200", page.path])
            XCTAssertEqual(result.status, 0, result.errors)
            // Bold and underline are overstrikes (c BS c, _ BS c): the characters alone.
            text += result.output.replacingOccurrences(of: #".\x{08}"#, with: "", options: .regularExpression)
        }
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for rendered in ["--pair: 10,000 stanzas, about 32 MB of requests", "with --line-buffered or --follow — is searched",
                         "(stanzaq -e ... -e ...)"] {
            XCTAssertTrue(words.contains(rendered), "the man pages do not render \(rendered.debugDescription)")
        }
        for broken in [" -10,000", " -stanzas", " -about", " -MB", " -—", " -e -..."] {
            XCTAssertFalse(words.contains(broken), "the man pages render \(broken.debugDescription)")
        }
    }

    func testToolPageDocumentsEveryLongOption() throws {
        let binary = try Runner.requireBinary()
        let help = try Self.runManTool(binary, ["--help"])
        XCTAssertEqual(help.status, 0, "stanzaq --help failed:\n\(help.errors)")
        let options = Self.longOptions(in: help.output)
        XCTAssertFalse(options.isEmpty, "no long option found in stanzaq --help:\n\(help.output)")
        for expected in ["--arg", "--query", "--output", "--default-namespace", "--help", "--version"] {
            XCTAssertTrue(options.contains(expected), "stanzaq --help does not list \(expected)")
        }

        let page = Self.normalisedDashes(try String(contentsOf: Self.toolPage, encoding: .utf8))
        for option in options.sorted() {
            let name = String(option.dropFirst(2))
            XCTAssertTrue(Self.page(page, documentsLongOption: name),
                          "man/stanzaq.1 does not document \(option) (printed by stanzaq --help)")
        }
    }

    /// The formats `--log=` lists in the page are those `--help` lists, in its
    /// order (the page once left out `libstrophe`).
    func testToolPageListsEveryLogFormat() throws {
        let help = try Self.runManTool(try Runner.requireBinary(), ["--help"]).output
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let listed = try XCTUnwrap(help.range(of: #"--log=FORMAT \(([a-z0-9, -]+)\)"#, options: .regularExpression).map { String(help[$0]) })
        let formats = listed.dropFirst("--log=FORMAT (".count).dropLast().components(separatedBy: ", ")
        let page = try String(contentsOf: Self.toolPage, encoding: .utf8)
        let entry = try XCTUnwrap(page.range(of: ".It Fl \\-log , Fl \\-log Ns = Ns Ar format\n"))
        let end = try XCTUnwrap(page.range(of: "A format is named with", range: entry.upperBound..<page.endIndex))
        let names = page[entry.upperBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix(".Cm ") }
            .flatMap { $0.dropFirst(4).split(separator: " ").filter { $0 != "," && $0 != "." }.map { $0.replacingOccurrences(of: "\\-", with: "-") } }
        XCTAssertEqual(names, formats)
    }

    func testLanguagePageDocumentsEveryConversion() throws {
        let page = try String(contentsOf: Self.languagePage, encoding: .utf8)
        let lines = page.components(separatedBy: "\n")
        for conversion in Self.conversions {
            XCTAssertTrue(Self.containsWord(conversion, in: page),
                          "man/stanzaq-query.7 never names the conversion \(conversion)")
            // Each conversion has an entry of its own (the table and the detailed list).
            let entry = lines.contains { line in
                let words = line.split(separator: " ").map(String.init)
                return words.count >= 3 && words[0] == ".It" && words[1] == "Cm" && words[2] == conversion
            }
            XCTAssertTrue(entry, "man/stanzaq-query.7 has no `.It Cm \(conversion)` entry")
        }
    }

    func testLongOptionParsing() {
        let help = """
              -e, --query <QUERY>     A query; repeat for several.
              --first                 Per stanza, only the first result.
              -N, --default-namespace <NS>
              -h, --help              Show help information.
            """
        XCTAssertEqual(Self.longOptions(in: help), ["--query", "--first", "--default-namespace", "--help"])
        let page = Self.normalisedDashes(".It Fl e Ar query , Fl \\-query Ns = Ns Ar query\nuse \\-\\-first here\n")
        XCTAssertTrue(Self.page(page, documentsLongOption: "query"))
        XCTAssertTrue(Self.page(page, documentsLongOption: "first"))
        XCTAssertFalse(Self.page(page, documentsLongOption: "fir"))
        XCTAssertFalse(Self.page(page, documentsLongOption: "help"))
    }

    // MARK: Helpers (private to this file: other CLI test files have their own)

    /// The long options (`--name`) in `--help` output, in order of appearance, without duplicates.
    private static func longOptions(in help: String) -> [String] {
        var found: [String] = []
        let scalars = Array(help.unicodeScalars)
        var index = 0
        while index + 2 < scalars.count {
            let startsOption = scalars[index] == "-" && scalars[index + 1] == "-"
                && (index == 0 || isOptionBoundary(scalars[index - 1]))
                && isOptionCharacter(scalars[index + 2]) && scalars[index + 2] != "-"
            guard startsOption else { index += 1; continue }
            var end = index + 2
            while end < scalars.count && isOptionCharacter(scalars[end]) { end += 1 }
            let option = String(String.UnicodeScalarView(scalars[index..<end]))
            if !found.contains(option) { found.append(option) }
            index = end
        }
        return found
    }

    private static func isOptionCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    private static func isOptionBoundary(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "," || scalar == "(" || scalar == "["
    }

    /// The page source with roff's `\-` written as `-`.
    private static func normalisedDashes(_ source: String) -> String {
        source.replacingOccurrences(of: "\\-", with: "-")
    }

    /// Whether the (dash-normalised) mdoc source names `--name`: as `.Fl -name` or as `--name`.
    private static func page(_ page: String, documentsLongOption name: String) -> Bool {
        for spelling in ["Fl -" + name, "--" + name] {
            var searchRange = page.startIndex..<page.endIndex
            while let found = page.range(of: spelling, range: searchRange) {
                let next = found.upperBound < page.endIndex ? page[found.upperBound].unicodeScalars.first : nil
                if next.map({ !isOptionCharacter($0) }) ?? true { return true }
                searchRange = found.upperBound..<page.endIndex
            }
        }
        return false
    }

    private static func containsWord(_ word: String, in text: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: word, range: searchRange) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : " "
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : " "
            if !before.isLetter && !before.isNumber && !after.isLetter && !after.isNumber { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }

    /// A program on `PATH`, or `nil`.
    private static func findManTool(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }


    private struct ManToolResult {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs a program in the package root, standard input from `/dev/null`; kills it
    /// after `timeout` seconds.
    private static func runManTool(_ executable: URL, _ arguments: [String], timeout: TimeInterval = 60) throws -> ManToolResult {
        let result = try Runner.run(executable, arguments, in: manPackageRoot, environment: Runner.environment(),
                                    timeout: timeout)
        return ManToolResult(status: result.status, output: result.output, errors: result.stderr)
    }
}
