import Foundation
import StanzaqTestSupport
import XCTest

/// Small files with one job, short functions (the developers' brief, "Shape of
/// the code"): no source file over 400 lines, no function over 80. Comments
/// say what and why; measurements go to benchmarks/HISTORY.md (issue 40).
final class CodeHealthTests: XCTestCase {
    static let longestFile = 400
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
}
