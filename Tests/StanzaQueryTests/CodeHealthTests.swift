import Foundation
import StanzaqTestSupport
import XCTest

/// Small files with one job, short functions (the developers' brief, "Shape of
/// the code"): files are split by concept, not by size. A file over 400 lines
/// is a warning (printed: is it two concepts?), over 500 a failure; no function
/// over 80. Comments
/// say what and why; measurements go to benchmarks/HISTORY.md (issue 40). The
/// README's map of the code ("How the code is laid out") names every target
/// and only files that exist.
final class CodeHealthTests: XCTestCase {
    /// Past this a file is worth a look (a warning); past `longestFile`, it fails.
    static let fileWorthALook = 400
    static let longestFile = 500
    static let longestFunction = 80
    /// How many comment lines of Sources/ may hold a performance figure.
    static let mostFigures = 5

    /// Every file under Sources/ whose name ends with one of `suffixes`, relative to the package.
    private func sourceFiles(endingIn suffixes: [String] = [".swift"]) throws -> [String] {
        let sources = PackagePaths.file("Sources")
        guard let walk = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        return walk.compactMap { $0 as? String }.filter { file in suffixes.contains { file.hasSuffix($0) } }
            .sorted().map { "Sources/" + $0 }
    }

    func testNoSourceFileIsLong() throws {
        let files = try sourceFiles()
        XCTAssertGreaterThan(files.count, 50)
        for file in files {
            let lines = try String(contentsOf: PackagePaths.file(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertLessThanOrEqual(lines.count - 1, Self.longestFile, "\(file) has \(lines.count - 1) lines")
            if lines.count - 1 > Self.fileWorthALook {
                print("warning: \(file) has \(lines.count - 1) lines: two concepts in one file?")
            }
        }
    }

    func testNoFunctionIsLong() throws {
        for file in try sourceFiles() {
            let text = try String(contentsOf: PackagePaths.file(file), encoding: .utf8)
            for (line, length, declaration) in Self.functions(in: text) where length > Self.longestFunction {
                XCTFail("\(file):\(line): \(length) lines: \(declaration)")
            }
        }
    }

    func testFewCommentsHoldPerformanceFigures() throws {
        var found: [String] = []
        for file in try sourceFiles(endingIn: [".swift", ".c", ".h"]) {
            let text = try String(contentsOf: PackagePaths.file(file), encoding: .utf8)
            found += Self.figureLines(in: text).map { "\(file):\($0)" }
        }
        XCTAssertLessThanOrEqual(found.count, Self.mostFigures,
                                 "performance figures in comments (move them to benchmarks/HISTORY.md):\n"
                                     + found.joined(separator: "\n"))
    }

    func testPerformanceFiguresAreFound() {
        let text = """
            // Cost 121,000 instructions (callgrind).
            /// about 5% of the CPU time (perf: swift_retain).
            let x = 1 // 40 MB/s, 3 ms a file.
             * took 100 seconds, a third of a search
            /* two thirds of a start-up; 11,000 reads (strace), seven times as many */
            /// processing instructions; a limit of 10 seconds; `%x %X`, `%20`; 4 kB.
            let text = "3 ms"
            """
        XCTAssertEqual(Self.figureLines(in: text), [1, 2, 3, 4, 5])
    }

    /// What marks a measurement: a profiler named, instructions or a time or
    /// speed counted, a percentage, a fraction of the work, a ratio.
    static let figure = try! NSRegularExpression(pattern: [
        #"callgrind|cachegrind|valgrind|\bstrace\b|\bperf\b[:,)]"#,
        #"\d[\d,.]*( million| thousand)? instructions\b"#,
        #"\d(\.\d+)?\s?%"#,
        #"\d\s?(ms|µs|ns|[KMG]i?B/s)\b"#,
        #"took \d[\d,.]* ?(s|seconds?|minutes?)\b"#,
        #"\b(a|one) (tenth|third|fifth|quarter) of\b"#,
        #"\b(two|three) (thirds|quarters) of\b"#,
        #"\bhalf (of )?the (instructions|time|work|cost)\b"#,
        #"\b(\d+(\.\d+)?|two|three|four|five|six|seven|eight|nine|ten) times (faster|slower|the|what|as (many|much|often))\b"#,
    ].joined(separator: "|"), options: [.caseInsensitive])

    /// The 1-based lines of Swift or C source whose comment (after `//` or
    /// `/*`, or a line of a block comment starting with `*`) holds a figure.
    static func figureLines(in text: String) -> [Int] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.indices.filter { index in
            let line = lines[index]
            let comment: Substring
            if let start = [line.range(of: "//"), line.range(of: "/*")].compactMap({ $0?.lowerBound }).min() {
                comment = line[start...]
            } else if line.trimmingCharacters(in: .whitespaces).hasPrefix("*") {
                comment = line[...]
            } else {
                return false
            }
            let text = String(comment)
            return figure.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }.map { $0 + 1 }
    }

    func testFunctionLengthsAreMeasured() {
        let text = """
            struct S {
                func short() { }
                /// A doc comment.
                @inline(__always)
                private mutating func three(
                    _ a: Int
                ) -> Int {
                    a
                }
                init() {
                }
            }
            """
        XCTAssertEqual(Self.functions(in: text).map { "\($0.line):\($0.length)" }, ["5:5", "10:2"])
    }

    /// The functions, initialisers and subscripts of Swift source that span
    /// several lines: where each starts, how many lines it takes from its
    /// declaration to its closing brace (on a line of its own, indented as the
    /// declaration is), and the declaration's first line.
    static func functions(in text: String) -> [(line: Int, length: Int, declaration: String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let declaration = try! NSRegularExpression(pattern: #"^(\s*)(?:(?:@\w+(?:\([^)]*\))?|public|private|fileprivate|internal|package|static|class|final|override|mutating|nonmutating|convenience|required)\s+)*(?:func|init|deinit|subscript)\b"#)
        var found: [(Int, Int, String)] = []
        for (index, line) in lines.enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            guard let match = declaration.firstMatch(in: line, range: range),
                  let indentRange = Range(match.range(at: 1), in: line) else { continue }
            let indent = String(line[indentRange])
            guard let open = lines[index...].firstIndex(where: { $0.contains("{") }) else { continue }
            let braces = lines[open]
            if braces.filter({ $0 == "{" }).count == braces.filter({ $0 == "}" }).count && open == index { continue }
            guard let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix(indent + "}") }) else { continue }
            found.append((index + 1, close - index + 1, line.trimmingCharacters(in: .whitespaces)))
        }
        return found
    }

    // MARK: - The README's map of the code

    /// README.md's section "How the code is laid out", up to the next section.
    private func layoutSection() throws -> String {
        let readme = try String(contentsOf: PackagePaths.file("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "\n## How the code is laid out\n") else {
            XCTFail("README.md has no section \"How the code is laid out\"")
            return ""
        }
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// A target added to Package.swift is placed on the map: the section names
    /// every target but the test targets, backquoted.
    func testLayoutSectionNamesEveryTarget() throws {
        let manifest = try String(contentsOf: PackagePaths.file("Package.swift"), encoding: .utf8)
        let targets = Self.targetNames(in: manifest)
        XCTAssertGreaterThan(targets.count, 10)
        let section = try layoutSection()
        for target in targets where !section.contains("`\(target)`") {
            XCTFail("README.md, \"How the code is laid out\", does not name the target `\(target)`")
        }
    }

    /// The map cannot go stale silently: every Swift file it names (a name, or
    /// the end of a path) is in Sources/, Tests/ or Fuzz/, and every path it
    /// gives from the package's root exists.
    func testLayoutSectionNamesOnlyFilesThatExist() throws {
        let section = try layoutSection()
        let files = Self.packageFiles(under: ["Sources", "Tests", "Fuzz"])
        XCTAssertGreaterThan(files.count, 50)
        let swiftFiles = Self.swiftFileNames(in: section)
        XCTAssertGreaterThan(swiftFiles.count, 10)
        for name in swiftFiles where !files.contains(where: { $0 == name || $0.hasSuffix("/" + name) }) {
            XCTFail("README.md, \"How the code is laid out\", names `\(name)`, which is no file of the package")
        }
        let paths = Self.paths(in: section)
        XCTAssertGreaterThan(paths.count, 5)
        for path in paths where !FileManager.default.fileExists(atPath: PackagePaths.file(path).path) {
            XCTFail("README.md, \"How the code is laid out\", names \(path), which does not exist")
        }
    }

    func testLayoutNamesAreFound() {
        let manifest = """
            products: [.library(name: "Product", targets: ["A"])],
            dependencies: [.package(url: "https://example.org/p", from: "1.0.0")],
            targets: [
                .systemLibrary(name: "CSystem", pkgConfig: "s"),
                .target(name: "A", dependencies: ["CSystem"]),
                .executableTarget(
                    name: "tool",
                    dependencies: [.product(name: "ArgumentParser", package: "p")]
                ),
                .target(name: "Support", path: "Tests/Support"),
                .testTarget(name: "ATests", dependencies: ["A"]),
            ]
            """
        XCTAssertEqual(Self.targetNames(in: manifest), ["CSystem", "A", "tool", "Support"])
        let text = """
            `StanzaReader` (`StanzaXML/StanzaReader.swift`, `StanzaReader+Tree.swift`…),
            `Sources/CByteSearch/CByteSearch.c`. Tests: `Tests/Fixtures`: `real-logs`
            (../shared/DESIGN.md), Fuzz/run.sh and `man/`; not human/ nor `Walk/`.
            """
        XCTAssertEqual(Self.swiftFileNames(in: text), ["StanzaXML/StanzaReader.swift", "StanzaReader+Tree.swift"])
        XCTAssertEqual(Self.paths(in: text), ["Sources/CByteSearch/CByteSearch.c", "Tests/Fixtures", "Fuzz/run.sh", "man/"])
    }

    /// The names of the targets of a package manifest, test targets left out.
    static func targetNames(in manifest: String) -> [String] {
        matches(of: #"\.(?:target|systemLibrary|executableTarget|binaryTarget|plugin|macro)\(\s*name:\s*"([^"]+)""#, in: manifest)
    }

    /// The backquoted names of Swift files in `text` (a name, or a path).
    static func swiftFileNames(in text: String) -> [String] {
        matches(of: #"`([^`\s]+\.swift)`"#, in: text)
    }

    /// The paths from the package's root in `text`: those starting with one of
    /// its directories.
    static func paths(in text: String) -> [String] {
        matches(of: #"(?<![\w./+-])((?:Sources|Tests|Fuzz|benchmarks|packaging|examples|man)/(?:[\w+./-]*[\w+/])?)"#, in: text)
    }

    /// The first group of each match of `pattern` in `text`.
    private static func matches(of pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// Every file under the package's directories `directories`, relative to the package.
    static func packageFiles(under directories: [String]) -> [String] {
        directories.flatMap { directory -> [String] in
            let walk = FileManager.default.enumerator(atPath: PackagePaths.file(directory).path)
            return (walk?.compactMap { $0 as? String } ?? []).map { directory + "/" + $0 }
        }
    }
}
