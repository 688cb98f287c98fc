import Foundation
import StanzaqTestSupport
import XCTest

/// Small files with one job, short functions (the developers' brief, "Shape of
/// the code"): no source file over 400 lines, no function over 80.
final class CodeHealthTests: XCTestCase {
    static let longestFile = 400
    static let longestFunction = 80

    /// Every Swift file under Sources/, relative to the package.
    private func sourceFiles() throws -> [String] {
        let sources = PackagePaths.file("Sources")
        guard let walk = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { "Sources/" + $0 }
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
