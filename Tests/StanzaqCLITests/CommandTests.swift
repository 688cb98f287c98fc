import Foundation
import XCTest
import StanzaqTestSupport

/// The command itself: `--help`, `--version`, `--explain`, `-i`, `--color`, usage errors,
/// pipes and streaming (stanzaq(1), OPTIONS).
final class CommandTests: CLITestCase {
    // MARK: help, version, explain, REPL

    func testVersion() throws {
        let result = try assertStanzaq(["--version"], stdout: try Runner.stanzaq(["--version"]).output, status: 0)
        // stanzaq's version, then libxml2's (2.9.14, or 2.9.14 (built with 2.9.13)) and the system ICU's (72.1, or 72.1 (built with 72.2)).
        XCTAssertTrue(fullyMatches(result.output, #"stanzaq [0-9]+\.[0-9]+\.[0-9]+\nlibxml2 [0-9]+\.[0-9]+\.[0-9]+( \(built with [0-9.]+\))?\nICU [0-9]+\.[0-9]+(\.[0-9]+)*( \(built with [0-9.]+\))?\n"#),
                      result.output)
        XCTAssertEqual(result.stderr, "")
    }

    func testHelpListsEveryOption() throws {
        for flag in ["--help", "-h"] {
            let result = try Runner.stanzaq([flag])
            XCTAssertEqual(result.status, 0, "\(flag): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", flag)
            let help = result.output
            XCTAssertTrue(help.contains("stanzaq [OPTIONS] QUERY [FILE...]"), help)
            for option in ["-a, --arg", "-e, --query", "--first", "-q, --quiet", "-c, --count", "-s, --select",
                           "-v, --invert", "-o, --output", "--json", "-0, --null", "-j, --join",
                           "-H, --with-filename", "-n, --stanza-number", "-N, --default-namespace", "--strict",
                           "--epoch", "--pretty", "--color", "--line-buffered", "-i, --interactive", "--explain",
                           "--version", "-h, --help", "-l, --files-with-matches", "-L, --files-without-match",
                           "-m, --max-count", "-A, --after-context", "-B, --before-context", "-C, --context", "--pair",
                           "-r, --recursive", "-g, --glob", "--threads"] {
                XCTAssertTrue(help.contains(option), "\(flag) does not list \(option)")
            }
        }
    }

    func testExplain() throws {
        try assertStanzaq(["--explain", "body#"], stdout: """
            query: body#
            start: the children of the context node
            1. select: elements named 'body' in the parent's namespace
            extract: the text

            """, status: 0)
    }

    func testExplainEvaluatesNothingAndTakesEveryArgumentAsAQuery() throws {
        // Standard input is never read, and no argument is taken for a file.
        try assertStanzaq(["--explain", "{urn:x}item<node=a>/@x|int", "/@id"], stdout: """
            query: {urn:x}item<node=a>/@x|int
            start: the children of the context node
            1. select: elements named 'item' in namespace 'urn:x'
               where 'node' equals 'a', ignoring case
            extract: attribute 'x'
            convert: int (leading integer, saturating; 0 if none)
            query: /@id
            start: the context node itself
            extract: attribute 'id'

            """, status: 0)
    }

    func testExplainOfEveryQuery() throws {
        try assertStanzaq(["--explain", "-e", "/@id", "-e", "body#"], stdout: """
            query: /@id
            start: the context node itself
            extract: attribute 'id'
            query: body#
            start: the children of the context node
            1. select: elements named 'body' in the parent's namespace
            extract: the text

            """, status: 0)
    }

    func testExplainSyntaxError() throws {
        try assertStanzaq(["--explain", "{urn:x}item<node=a"], stdout: "", stderr: """
            stanzaq: error: query: expected '>' to close the attribute filter at column 19
              {urn:x}item<node=a
                                ^

            """, status: 2)
    }

    /// `-i` starts the REPL; without a terminal it reads queries line by line from standard
    /// input and exits 0 at its end (the REPL itself is tested in REPLTests).
    func testInteractiveWithoutATerminal() throws {
        try assertStanzaq(["-i", "capture.xml"], stdout: "", status: 0)
        try assertStanzaq(["--interactive", "capture.xml"], stdin: "body#\n",
                          stdout: "I'll send thee word from Mantua.\n", status: 0)
    }

    // MARK: usage errors

    func testUsageErrorsExitTwo() throws {
        let cases: [[String]] = [
            [],                                         // no query (standard input is not a terminal)
            ["--no-such-option", "body", "capture.xml"],
            ["-o", "xml", "body", "capture.xml"],
            ["--color", "sometimes", "body", "capture.xml"],
            ["-0", "-j", "body", "capture.xml"],
            ["--json", "-o", "tsv", "body", "capture.xml"],
            ["-e"],
            ["-a"],
            ["-N"],
        ]
        for arguments in cases {
            try assertStanzaq(arguments, stdout: "", stderr: nil, stderrContains: ["stanzaq: error: "], status: 2)
        }
        try assertStanzaq([], stdout: "", stderr: nil, stderrContains: ["QUERY"], status: 2)
    }

    // MARK: colour

    static let colouredPrefix = "\u{1B}[35mmessage-delay.xml\u{1B}[0m\u{1B}[36m:\u{1B}[0m\u{1B}[32m1\u{1B}[0m\u{1B}[36m:\u{1B}[0m"

    func testColorAlways() throws {
        let result = try assertStanzaq(["--color", "always", "-H", "-n", "body#", "message-delay.xml"],
                                       stdout: Self.colouredPrefix + "O blessed, blessed night! I am afeard.\n", status: 0)
        XCTAssertEqual(result.stderr, "")
        // XML is coloured too; without the escapes it is the plain serialisation.
        let xml = try InProcess.stanzaq(["--color", "always", "body", "message-delay.xml"])
        XCTAssertTrue(xml.output.contains("\u{1B}["), xml.output.debugDescription)
        XCTAssertEqual(stripEscapes(xml.output), "<body xmlns='jabber:client'>O blessed, blessed night! I am afeard.</body>\n")
        // NO_COLOR only affects auto.
        try assertStanzaq(["--color", "always", "-H", "-n", "body#", "message-delay.xml"], environment: ["NO_COLOR": "1"],
                          stdout: Self.colouredPrefix + "O blessed, blessed night! I am afeard.\n", status: 0)
    }

    func testColorNeverAndAutoOnAPipe() throws {
        let plain = "message-delay.xml:1:O blessed, blessed night! I am afeard.\n"
        try assertStanzaq(["--color", "never", "-H", "-n", "body#", "message-delay.xml"], stdout: plain, status: 0)
        try assertStanzaq(["--color", "auto", "-H", "-n", "body#", "message-delay.xml"], stdout: plain, status: 0)
        try assertStanzaq(["-H", "-n", "body#", "message-delay.xml"], stdout: plain, status: 0)
        try assertStanzaq(["--color", "auto", "-s", "body", "message-delay.xml"], environment: ["NO_COLOR": "1"],
                          stdout: try InProcess.stanzaq(["--color", "never", "-s", "body", "message-delay.xml"]).output, status: 0)
    }

    func testColorIsNeverUsedForJSON() throws {
        try assertStanzaq(["--color", "always", "--json", "-H", "body#", "message-delay.xml"],
                          stdout: "{\"file\":\"message-delay.xml\",\"value\":\"O blessed, blessed night! I am afeard.\"}\n",
                          status: 0)
    }

    /// `--color auto` on a terminal colours, unless `NO_COLOR` is set. Uses script(1) for the terminal.
    func testColorAutoOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("script(1) is not available to provide a terminal")
        }
        let command = "script -qec \"stanzaq -H -n 'body#' message-delay.xml\" /dev/null"
        let coloured = try Runner.shell(command)
        XCTAssertEqual(coloured.status, 0, coloured.stderr)
        XCTAssertTrue(coloured.output.contains(Self.colouredPrefix), coloured.output.debugDescription)
        let plain = try Runner.shell(command, environment: ["NO_COLOR": "1"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertFalse(plain.output.contains("\u{1B}["), plain.output.debugDescription)
        XCTAssertTrue(plain.output.contains("message-delay.xml:1:O blessed"), plain.output.debugDescription)
        let never = try Runner.shell("script -qec \"stanzaq --color never -n 'body#' message-delay.xml\" /dev/null")
        XCTAssertFalse(never.output.contains("\u{1B}["), never.output.debugDescription)
    }

    func stripEscapes(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    // MARK: pipes and streaming

    /// Required case: `stanzaq … | head -1` ends quietly: no message on stderr.
    func testBrokenPipeIsQuiet() throws {
        let scratch = try ScratchDirectory()
        // A stream of many stanzas (far more output than the pipe and stanzaq's buffer hold)…
        var big = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
        for index in 0..<200_000 {
            big += "<message id='m\(index)'><body>hello \(index)</body></message>\n"
        }
        try scratch.write("big", big)
        // …and a sequence of top-level stanzas, with longer bodies.
        let filler = String(repeating: "lorem ipsum ", count: 10)
        var sequence = ""
        for index in 0..<3_000 {
            sequence += "<message id='m\(index)'><body>\(index) \(filler)</body></message>\n"
        }
        try scratch.write("sequence", sequence)

        for (file, first) in [("big", "hello 0"), ("sequence", "0 \(filler)")] {
            let result = try Runner.shell("stanzaq 'body#' \(file) | head -1", in: scratch.url)
            XCTAssertEqual(result.output, first + "\n", file)
            XCTAssertEqual(result.stderr, "", file)
            XCTAssertEqual(result.status, 0, file)
            // stanzaq itself ends quietly: no message, no crash (a signal would give 128 + n; 141 is SIGPIPE).
            let status = try Runner.shell("{ stanzaq 'body#' \(file); echo $? >status; } | head -1 >/dev/null; cat status",
                                          in: scratch.url)
            XCTAssertEqual(status.stderr, "", file)
            let code = Int(status.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            XCTAssertTrue([0, 141].contains(code), "\(file): stanzaq ended with status \(status.output.debugDescription)")
        }
    }

    /// Results for a stanza come out before the input ends (`tail -f capture.xml | stanzaq …`).
    func testLineBufferedStreaming() throws {
        let run = try streaming(["--line-buffered", "body#"],
                                first: "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n<message><body>first</body></message>\n<message><body>sec",
                                rest: "ond</body></message>\n")
        XCTAssertEqual(run.firstLine, "first\n", "the first stanza's output while the input is still open")
        XCTAssertEqual(run.rest, "second\n")
        XCTAssertEqual(run.status, 0)
    }
}

/// A value handed from a reader thread to the test.
final class LineBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
