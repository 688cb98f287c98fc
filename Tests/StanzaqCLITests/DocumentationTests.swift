import Foundation
import XCTest
import StanzaqTestSupport

/// One example command shown in a document, with the output the document shows for it.
struct DocumentedExample: Equatable {
    /// The 1-based line of the `$ ` line in the document.
    var line: Int
    /// The command, without `$ `.
    var command: String
    /// The expected standard output, byte for byte.
    var expected: String
}

/// Finds the example commands in the documentation.
///
/// - Markdown: fenced blocks opened with ```` ```console ````. In them a line starting with
///   `$ ` is a command; the lines after it, up to the next `$ ` line or the end of the block,
///   are its standard output (a final newline is added if there is at least one line; no
///   lines means no output). Lines before the first `$ ` are ignored.
/// - Man pages (mdoc): the same inside `.Bd -literal` … `.Ed`, after unescaping roff; lines
///   that are roff requests (starting with `.`) are skipped.
enum DocumentedExamples {
    /// The examples in a Markdown document.
    static func markdown(_ text: String) -> [DocumentedExample] {
        var examples: [DocumentedExample] = []
        var collector = Collector()
        // The open fence: its character, length and indentation, and whether it is a console block.
        var fence: (marker: Character, length: Int, indent: Int, console: Bool)?
        for (index, rawLine) in lines(of: text).enumerated() {
            let number = index + 1
            let indent = rawLine.prefix { $0 == " " }.count
            let trimmed = rawLine.dropFirst(indent)
            if let open = fence {
                let run = trimmed.prefix { $0 == open.marker }.count
                if run >= open.length && trimmed.dropFirst(run).allSatisfy({ $0 == " " || $0 == "\t" }) {
                    if open.console { examples += collector.finish() }
                    fence = nil
                    continue
                }
                guard open.console else { continue }
                // Content lines lose at most the fence's indentation.
                let contentIndent = min(open.indent, indent)
                collector.add(String(rawLine.dropFirst(contentIndent)), line: number)
            } else if indent <= 3, let marker = trimmed.first, marker == "`" || marker == "~" {
                let run = trimmed.prefix { $0 == marker }.count
                guard run >= 3 else { continue }
                let info = trimmed.dropFirst(run).trimmingCharacters(in: .whitespaces)
                if marker == "`" && info.contains("`") { continue } // inline code, not a fence
                let language = info.split(separator: " ").first.map(String.init) ?? ""
                fence = (marker, run, indent, language == "console")
                collector = Collector()
            }
        }
        if let open = fence, open.console { examples += collector.finish() } // unclosed block: up to the end
        return examples
    }

    /// The examples in an mdoc man page.
    static func manPage(_ text: String) -> [DocumentedExample] {
        var examples: [DocumentedExample] = []
        var collector: Collector?
        for (index, rawLine) in lines(of: text).enumerated() {
            let number = index + 1
            if var open = collector {
                if rawLine.hasPrefix(".Ed") {
                    examples += open.finish()
                    collector = nil
                } else if !rawLine.hasPrefix(".") {
                    open.add(unescapeRoff(rawLine), line: number)
                    collector = open
                }
            } else if rawLine.hasPrefix(".Bd"),
                      rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" }).contains("-literal") {
                collector = Collector()
            }
        }
        if var open = collector { examples += open.finish() }
        return examples
    }

    /// Replaces the roff escapes the man pages use by the characters they stand for:
    /// `\e` `\(rs` → `\`, `\(aq` → `'`, `\(dq` → `"`, `\-` → `-`, `\&` → nothing,
    /// `\(ti` → `~`, `\(ha` → `^`. Anything else is kept as written.
    static func unescapeRoff(_ line: String) -> String {
        let named: [String: String] = ["aq": "'", "dq": "\"", "ti": "~", "ha": "^", "rs": "\\"]
        var out = ""
        var rest = Substring(line)
        while let backslash = rest.firstIndex(of: "\\") {
            out += rest[..<backslash]
            let after = rest[rest.index(after: backslash)...]
            if after.hasPrefix("e") {
                out += "\\"
                rest = after.dropFirst()
            } else if after.hasPrefix("-") {
                out += "-"
                rest = after.dropFirst()
            } else if after.hasPrefix("&") {
                rest = after.dropFirst()
            } else if after.hasPrefix("("), after.count >= 3,
                      let replacement = named[String(after.dropFirst().prefix(2))] {
                out += replacement
                rest = after.dropFirst(3)
            } else if after.hasPrefix("[u"), let close = after.firstIndex(of: "]"),
                      let scalar = UInt32(after[after.index(after.startIndex, offsetBy: 2)..<close], radix: 16).flatMap(Unicode.Scalar.init) {
                out += String(Character(scalar))        // \[u00E9]: a character by its code point
                rest = after[after.index(after: close)...]
            } else if let escaped = after.first {
                out += "\\" + String(escaped) // not one of ours: kept as written
                rest = after.dropFirst()
            } else {
                out += "\\"
                rest = after
            }
        }
        out += rest
        return out
    }

    private static func lines(of text: String) -> [String] {
        var lines = text.components(separatedBy: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Commands and their output lines within one block.
    private struct Collector {
        var examples: [DocumentedExample] = []
        var current: (line: Int, command: String, output: [String])?

        mutating func add(_ line: String, line number: Int) {
            if line.hasPrefix("$ ") {
                flush()
                current = (number, String(line.dropFirst(2)), [])
            } else if current != nil {
                current!.output.append(line)
            }
        }

        mutating func flush() {
            if let current {
                let expected = current.output.isEmpty ? "" : current.output.joined(separator: "\n") + "\n"
                examples.append(DocumentedExample(line: current.line, command: current.command, expected: expected))
            }
            current = nil
        }

        mutating func finish() -> [DocumentedExample] {
            flush()
            defer { examples = [] }
            return examples
        }
    }
}

/// Runs every example command of README.md, examples/README.md and the man pages and
/// compares its standard output with what the document shows.
final class DocumentationTests: XCTestCase {
    enum Kind { case markdown, manPage }

    /// Runs the examples of `path` (relative to the package root). Returns how many there were.
    @discardableResult
    func checkExamples(of path: String, kind: Kind, runIn directory: URL? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let url = PackagePaths.root.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        let examples = kind == .markdown ? DocumentedExamples.markdown(text) : DocumentedExamples.manPage(text)
        let workingDirectory = directory ?? url.deletingLastPathComponent()
        for example in examples {
            let result = try Runner.shell(example.command, in: workingDirectory, timeout: 60)
            if result.stdout != Data(example.expected.utf8) {
                XCTFail("""
                    \(path):\(example.line): the output of this example differs
                    $ \(example.command)
                    --- expected (\(path):\(example.line)):
                    \(example.expected)--- actual (exit status \(result.status)):
                    \(result.output)--- stderr:
                    \(result.stderr)---
                    """, file: file, line: line)
            }
        }
        return examples.count
    }

    func testReadmeExamples() throws {
        let path = "README.md"
        guard FileManager.default.fileExists(atPath: PackagePaths.root.appendingPathComponent(path).path) else {
            XCTFail("README.md does not exist at \(PackagePaths.root.path)")
            return
        }
        let count = try checkExamples(of: path, kind: .markdown)
        XCTAssertGreaterThan(count, 0, "README.md has no example (no `$ ` line in a ```console block)")
    }

    func testExamplesReadmeExamples() throws {
        let count = try checkExamples(of: "examples/README.md", kind: .markdown)
        XCTAssertGreaterThan(count, 0, "examples/README.md has no example (no `$ ` line in a ```console block)")
    }

    func testStanzaqManPageExamples() throws {
        try checkManPage("man/stanzaq.1")
    }

    func testQueryLanguageManPageExamples() throws {
        try checkManPage("man/stanzaq-query.7")
    }

    private func checkManPage(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.fileExists(atPath: PackagePaths.root.appendingPathComponent(path).path) else {
            throw XCTSkip("\(path) does not exist (yet)")
        }
        try checkExamples(of: path, kind: .manPage, runIn: PackagePaths.root, file: file, line: line)
    }

    // MARK: the harness itself

    func testMarkdownExtraction() {
        let document = """
            # Title

            ```console
            $ echo one
            one
            $ true
            $ printf 'a\\n\\nb\\n'
            a

            b
            ```

            ```sh
            $ not an example
            ```

            Text with ```console inline``` code.

              ```console
              Lines before the first command are ignored.
              $ echo indented
              indented
              ```

            ````console
            ```
            $ echo in a longer fence
            ```
            ````
            """
        XCTAssertEqual(DocumentedExamples.markdown(document), [
            DocumentedExample(line: 4, command: "echo one", expected: "one\n"),
            DocumentedExample(line: 6, command: "true", expected: ""),
            DocumentedExample(line: 7, command: "printf 'a\\n\\nb\\n'", expected: "a\n\nb\n"),
            DocumentedExample(line: 21, command: "echo indented", expected: "indented\n"),
            DocumentedExample(line: 27, command: "echo in a longer fence", expected: "```\n"),
        ])
    }

    func testManPageExtraction() {
        let document = #"""
            .Sh EXAMPLES
            .Bd -literal -offset indent
            $ stanzaq \-n \(aqbody#\(aq capture.xml
            \&.hidden and \e and \(dqq\(dq \(ti \(ha \(rs
            .\" a comment
            $ stanzaq \-q x
            .Ed
            .Bd -literal
            no command here
            .Ed
            .Bd -filled
            $ not literal
            .Ed
            """#
        XCTAssertEqual(DocumentedExamples.manPage(document), [
            DocumentedExample(line: 3, command: "stanzaq -n 'body#' capture.xml", expected: #".hidden and \ and "q" ~ ^ \"# + "\n"),
            DocumentedExample(line: 6, command: "stanzaq -q x", expected: ""),
        ])
    }

    func testRoffUnescaping() {
        XCTAssertEqual(DocumentedExamples.unescapeRoff(#"a\e(aq b"#), #"a\(aq b"#)
        XCTAssertEqual(DocumentedExamples.unescapeRoff(#"\(aq\\(dq"#), #"'\\(dq"#)
        XCTAssertEqual(DocumentedExamples.unescapeRoff(#"caf\[u00E9]\[u1F600]"#), "caf\u{E9}\u{1F600}")
        XCTAssertEqual(DocumentedExamples.unescapeRoff(#"{urn:x}x/\e[1]@first\e"#), #"{urn:x}x/\[1]@first\"#)
        XCTAssertEqual(DocumentedExamples.unescapeRoff(#"\fBbold\fR \(xx"#), #"\fBbold\fR \(xx"#)
        XCTAssertEqual(DocumentedExamples.unescapeRoff(#"trailing\"#), #"trailing\"#)
    }

    /// The harness runs commands like the documents say: in the document's directory, with
    /// the built stanzaq first in PATH, LC_ALL=C.UTF-8, no NO_COLOR, stdin from /dev/null.
    func testCommandEnvironment() throws {
        let result = try Runner.shell(#"command -v stanzaq; echo "$LC_ALL"; echo "${NO_COLOR-unset}"; cat; pwd"#,
                                      in: Runner.examples, environment: ["NO_COLOR": nil])
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.count, 5, result.output)
        XCTAssertEqual(lines.first, try Runner.requireBinary().path)
        XCTAssertEqual(Array(lines.dropFirst().prefix(2)), ["C.UTF-8", "unset"])
        XCTAssertEqual(URL(fileURLWithPath: lines[3]).resolvingSymlinksInPath().standardizedFileURL.path,
                       Runner.examples.resolvingSymlinksInPath().standardizedFileURL.path)
    }
}
