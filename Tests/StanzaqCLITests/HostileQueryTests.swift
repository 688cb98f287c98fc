import Foundation
import XCTest
import StanzaqTestSupport

/// Hostile queries on the command line (stanzaq-query(7), QUERY ERRORS, FORMAT ARGUMENTS): every kind of syntax error
/// shows its column; regular expressions that backtrack catastrophically end in an
/// error for the stanza; huge queries compile and run in bounded time; format
/// specifiers never reach a real printf.
final class HostileQueryTests: CLITestCase {
    /// What stanzaq prints for a query error at `column`.
    private func rendered(_ message: String, _ query: String, column: Int) -> String {
        "stanzaq: error: query: \(message) at column \(column)\n  \(query)\n  " + String(repeating: " ", count: column - 1) + "^\n"
    }

    // MARK: Syntax errors

    /// One query per class of error the parser and the compiler raise, each with its
    /// message and caret, before any input is read (the file does not exist).
    func testEverySyntaxErrorClassShowsItsColumn() throws {
        let conversions = "(bool, int, uint, double, datetime, base64, uuid, uuidcast)"
        let cases: [(query: String, message: String, column: Int)] = [
            ("a b", "unexpected ' ': expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end", 2),
            ("..x", "'..' stands alone: it takes no name, namespace or filter", 1),
            ("!", "expected an element name after '!'", 2),
            ("{urn:a", "expected '}' to close the namespace opened at column 1", 7),
            ("{}a", "expected a namespace between '{' and '}' ('*' for any)", 2),
            ("{urn:x}item<node=a", "expected '>' to close the attribute filter", 19),
            ("a<b", "expected '=' or '~' after the attribute name in the filter, found the end of the query", 4),
            ("a<b~>", "expected a regular expression after '~'", 5),
            ("a<type=>", "expected a value after '=' (to match an empty value, use <type~^$>)", 8),
            ("a<>", "expected an attribute name after '<', found '>'", 3),
            ("@", "expected an attribute name after '@', found the end of the query", 2),
            ("@p:", "'p:' is not an attribute name: write prefix:name or {namespace}name", 2),
            ("@{urn:a}", "expected an attribute name after '{urn:a}'", 9),
            ("a<{}b=c>", "expected an attribute namespace between '{' and '}'", 4),
            ("a<b~(>", "invalid regular expression '('", 5),
            ("a@b/c", "an extraction (@, @@, #, $ or \\…\\) must end the query, found '/'", 4),
            ("@a|int/b", "expected the end of the query after the conversion, found '/'", 7),
            ("@a|", "expected a conversion after '|' \(conversions)", 4),
            ("@a|Int", "unknown conversion 'Int' (conversions: bool, int, uint, double, datetime, base64, uuid, uuidcast)", 4),
            ("a|int", "a conversion needs an extraction before it (@attr, # or $), as in @h|int", 2),
            ("@@|int", "'@@' gives all attributes at once and cannot be converted", 3),
            (#"\%f\|int"#, "a field description (%field, &field) cannot be converted", 5),
            (#"\result\|int"#, "a data-form subquery without @field gives the form and cannot be converted", 9),
            (#"\[x]@a\"#, "expected an item index (0, 1, …) after '['", 3),
            (#"\[0@a\"#, "expected ']' to close the item index", 4),
            (#"\@\"#, "expected a field name after '@'", 3),
            (#"\@a"#, #"expected '\' to close the data-form subquery opened at column 1, found the end of the query"#, 4),
            (#"\{urn:a"#, "expected '}' to close the FORM_TYPE opened at column 2", 8),
            ("stream:", "'stream:' is not an element name: write prefix:name or {namespace}name", 1),
            ("{urn:a}p:b", "'p:b' has a prefix and a {namespace}: write one of them", 8),
            ("!p:b", "a negated name takes no prefix: write {namespace}!name", 2),
            (#"y\@f\"#, "a data-form subquery reads {jabber:x:data}x forms, but this segment selects y", 1),
            ("{ü}a<b=%x>", "unsupported format specifier '%x' (supported: %@ %s %d %i %u %ld %li %lu %lld %lli %llu %zd %zu, and %% for '%')", 8),
            ("a<b=%d>", "format specifier %d has no argument (0 given; add -a VALUE)", 5),
        ]
        for (query, message, column) in cases {
            try assertStanzaq([query, "no-such-file.xml"], stdout: "", stderr: rendered(message, query, column: column), status: 2)
            try assertStanzaq(["-e", "body#", "-e", query], stdout: "", stderr: rendered(message, query, column: column), status: 2)
        }
        // Errors of arguments: a wrong one points at its specifier; a surplus has no column.
        try assertStanzaq(["-a", "x", "a<b=%d>"], stdout: "",
                          stderr: rendered("format specifier %d needs an integer, not 'x'", "a<b=%d>", column: 5), status: 2)
        try assertStanzaq(["-a", "1", "-a", "2", "a<b=%@>"], stdout: "",
                          stderr: "stanzaq: error: query: 2 format arguments given, but the query has 1 format specifier\n", status: 2)
        // Tabs and newlines in the query keep the caret under the right column.
        try assertStanzaq(["a\tb"], stdout: "", stderr: nil, stderrContains: ["at column 2\n  a b\n   ^\n"], status: 2)
    }

    // MARK: Format arguments

    /// Required case: printf specifiers other than the supported ones are errors; the
    /// arguments themselves, whatever they hold, are text.
    func testFormatSpecifiersNeverReachPrintf() throws {
        let supported = "(supported: %@ %s %d %i %u %ld %li %lu %lld %lli %llu %zd %zu, and %% for '%')"
        for (specifier, shown) in [("%n", "%n"), ("%x", "%x"), ("%99999d", "%9"), ("%p", "%p"), ("%*d", "%*"), ("%.1000f", "%."),
                                   ("%hhn", "%h"), ("%c", "%c"), ("%e", "%e"), ("%1$s", "%1"), ("%ls", "%l"), ("%", "%")] {
            let query = "/<id=\(specifier)>"
            try assertStanzaq(["-a", "1", query], stdin: "<m id='1'/>", stdout: "",
                              stderr: rendered("unsupported format specifier '\(shown)' \(supported)", query, column: 6), status: 2)
        }
        // Too few arguments for %s%s%s: an error before reading, not a read of the stack.
        try assertStanzaq(["-a", "x", "/<id=%s%s%s>"], stdin: "<m id='xxx'/>", stdout: "",
                          stderr: rendered("format specifier %s has no argument (1 given; add -a VALUE)", "/<id=%s%s%s>", column: 8),
                          status: 2)
        try assertStanzaq(["-a", "x", "-a", "y", "-a", "z", "/<id=%s%s%s>@id"], stdin: "<m id='xyz'/>", stdout: "xyz\n", status: 0)
        // Specifiers inside arguments are literal text.
        let hostile = "%n%n%s%x%99999d%@%%"
        try assertStanzaq(["-a", hostile, "/<id=%@>@id"], stdin: "<m id='\(hostile)'/>", stdout: hostile + "\n", status: 0)
        try assertStanzaq(["-a", hostile, "-a", "2", "/<id=%s><n=%d>@n"], stdin: "<m id='\(hostile)' n='2'/>", stdout: "2\n", status: 0)
        // `%%` is a literal percent; nothing outside `=` values is interpolated.
        try assertStanzaq(["/<id=100%%>@id"], stdin: "<m id='100%'/>", stdout: "100%\n", status: 0)
        try assertStanzaq(["{urn:%25s}x<id~%d>@id"], stdin: "<m><x xmlns='urn:%25s' id='%d'/></m>", stdout: "%d\n", status: 0)
        // Integers are checked and printed in decimal, whatever the width asked for.
        try assertStanzaq(["-a", "99999999999999999999", "/<n=%lld>"], stdin: "<m n='1'/>", stdout: "", stderr: nil,
                          stderrContains: ["format specifier %lld needs an integer, not '99999999999999999999'"], status: 2)
        try assertStanzaq(["-a", "007", "/<n=%d>@n"], stdin: "<m n='7'/>", stdout: "7\n", status: 0)
    }

    // MARK: Regular expressions

    /// Required case: `^(a+)+$` against a long attribute of `a`s ending in `b` — an
    /// error for that stanza (`FILE:stanza N: query '…': …`), the others go on, exit 2.
    /// The step limit is met (not the time limit, a backstop twenty times further), so
    /// the message is the same on any machine; each run takes half a second of
    /// processor time, hence a hang guard of a minute. (ICU counts the steps over the
    /// whole search, so the unanchored `(a|a)*$` meets the same limit: see stanzaq(1).)
    func testCatastrophicRegexIsAnErrorForTheStanza() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("input.xml", """
            <m id='1' a='aaaa'/>
            <m id='2' a='\(String(repeating: "a", count: 1000))b'/>
            <m id='3' a='aa'/>

            """)
        let expected = "input.xml:stanza 2: query '/<a~^(a+)+$>@id': the regular expression '^(a+)+$' "
            + "backtracked more than 20000000 times on attribute 'a' of <m> (matching abandoned)\n"
        try assertBounded(["/<a~^(a+)+$>@id", "input.xml"], in: scratch.url, stdout: "1\n3\n",
                          stderrMatches: NSRegularExpression.escapedPattern(for: expected), status: 2, timeLimit: 60)
        // In every mode.
        try assertBounded(["-c", "/<a~^(a+)+$>", "input.xml"], in: scratch.url, stdout: "2\n",
                          stderrContains: ["input.xml:stanza 2: "], status: 2, timeLimit: 60)
        try assertBounded(["-e", "/@id", "-e", "/<a~(a|a)*$>@id", "input.xml"], in: scratch.url, stdout: "1\t1\n2\t\n3\t3\n",
                          stderrContains: ["input.xml:stanza 2: query '/<a~(a|a)*$>@id': the regular expression '(a|a)*$' "
                                           + "backtracked more than 20000000 times"],
                          status: 2, timeLimit: 60)
        // A stanza with an error has no result (stanzaq(1), DIAGNOSTICS), so -v counts it.
        try assertBounded(["-c", "-v", "/<a~^(a+)+$>", "input.xml"], in: scratch.url, stdout: "1\n", stderrContains: ["stanza 2"],
                          status: 2, timeLimit: 60)
    }

    /// A `~` filter answers a value it met before as matching it answered: byte
    /// for byte (`é` precomposed is not `e` and a combining accent to the
    /// expression, though Swift's `==` takes them for equal), with the case
    /// rules of the run, each query its own answers.
    func testRepeatedValuesAnswerAsMatchingDoes() throws {
        let xml = "<m n='1' t='\u{E9}'/>\n<m n='2' t='e\u{301}'/>\n<m n='3' t='\u{E9}'/>\n"
            + "<m n='4' t='chat'/>\n<m n='5' t='CHAT'/>\n<m n='6' t='chat'/>\n"
        try assertStanzaq(["/<t~^\u{E9}$>@n"], stdin: xml, stdout: "1\n3\n", status: 0)
        try assertStanzaq(["/<t~^chat$>@n"], stdin: xml, stdout: "4\n5\n6\n", status: 0)
        try assertStanzaq(["--case-sensitive", "-e", "/<t~^chat$>@n", "-e", "/<t~^CHAT$>@n"], stdin: xml,
                          stdout: "4\t\n\t5\n6\t\n", status: 0)
    }

    /// Expressions ICU refuses to compile, however deep or large, are query errors.
    func testMonstrousRegexesAreQueryErrors() throws {
        for pattern in [String(repeating: "(", count: 5000) + "a" + String(repeating: ")", count: 5000),
                        String(repeating: "[", count: 10_000) + "a" + String(repeating: "]", count: 10_000),
                        "a{999999999}", "(?:a|b){2147483647}", "\\p{Nonsense}", "\\x{110000}"] {
            let run = try assertBounded(["/<a~\(pattern)>", "no-such-file.xml"], stdout: "",
                                        stderrContains: ["stanzaq: error: query: invalid regular expression '"], status: 2)
            XCTAssertTrue(run.stderr.hasSuffix("\n      ^\n"), String(run.stderr.suffix(100)))
        }
        // Large but valid: compiled and run.
        try assertBounded(["-c", "/<a~(a{1000}){1000}>"], stdin: .text("<m a='aaa'/>"), stdout: "0\n", status: 1)
    }

    // MARK: Huge queries

    /// Required case: 10,000 segments, 10,000 filters, 10,000 format arguments — in
    /// bounded time, with the right answers.
    func testHugeQueriesRunInBoundedTime() throws {
        let depth = 200
        let nested = "<r id='root'>" + String(repeating: "<a>", count: depth) + "<b>deep</b>" + String(repeating: "</a>", count: depth) + "</r>"
        // Down 200 levels: found; 10,000 levels: nothing.
        try assertBounded([Array(repeating: "a", count: depth).joined(separator: "/") + "/b#"], stdin: .text(nested),
                          stdout: "deep\n", status: 0)
        try assertBounded([Array(repeating: "a", count: 10_000).joined(separator: "/") + "/b#"], stdin: .text(nested),
                          stdout: "", status: 1)
        // 10,000 steps down and up again (`..` ascends from each node reached).
        try assertBounded([Array(repeating: "a/..", count: 5000).joined(separator: "/") + "@id"], stdin: .text(nested),
                          stdout: "root\n", status: 0)
        // (A command-line argument holds at most 128 KiB on Linux.)
        try assertBounded(["--explain", Array(repeating: "a<b=c>", count: 10_000).joined(separator: "/")],
                          stdout: try explanation(segments: 10_000), status: 0)
        // 10,000 filters of each kind, on the stanza itself.
        try assertBounded(["/" + String(repeating: "<id=root>", count: 10_000) + "@id"], stdin: .text(nested),
                          stdout: "root\n", status: 0)
        try assertBounded(["-c", "/" + String(repeating: "<id~^ro+t$>", count: 10_000)], stdin: .text(nested),
                          stdout: "1\n", status: 0)
        // 10,000 format specifiers; 1,000 arguments (ArgumentParser takes time quadratic in
        // the number of options: 10,000 take seconds, in a debug build minutes).
        try assertBounded(Array(repeating: ["-a", "root"], count: 1000).flatMap { $0 }
                          + ["/" + String(repeating: "<id=%@>", count: 1000) + String(repeating: "<id=%%>", count: 9000) + "@id"],
                          stdin: .text("<r id='%'/>"), stdout: "", status: 1)
        try assertBounded(Array(repeating: ["-a", "root"], count: 1000).flatMap { $0 } + ["/" + String(repeating: "<id=%@>", count: 1000) + "@id"],
                          stdin: .text(nested), stdout: "root\n", status: 0)
        // A namespace and a name of 49,000 characters each (libxml2 reads names of up to 50,000).
        let long = String(repeating: "n", count: 49_000)
        try assertBounded(["-c", "{urn:\(long)}\(long)"], stdin: .text("<m><\(long) xmlns='urn:\(long)'/></m>"), stdout: "1\n", status: 0)
    }

    /// `*/..` repeated: duplicates are kept, so each repetition multiplies what the path
    /// reaches by the number of children — bounded at 1,000,000 elements, as an error
    /// for the stanza.
    func testMultiplyingPathsAreBounded() throws {
        let input = "<m id='1'><c/></m>\n<m id='2'>" + String(repeating: "<c/>", count: 10) + "</m>\n"
        let climbing = Array(repeating: "*/..", count: 40).joined(separator: "/") + "@id"
        try assertBounded([climbing], stdin: .text(input), stdout: "1\n",
                          stderrMatches: NSRegularExpression.escapedPattern(
                            for: "(standard input):stanza 2: query '\(climbing)': the path reaches more than 1000000 elements "
                                + "at column 31, counting duplicates (evaluation abandoned)\n"),
                          status: 2)
    }

    /// What `--explain` prints for the query of `testHugeQueriesRunInBoundedTime`.
    private func explanation(segments: Int) throws -> String {
        let query = Array(repeating: "a<b=c>", count: segments).joined(separator: "/")
        let result = try InProcess.stanzaq(["--explain", query])
        XCTAssertEqual(result.status, 0)
        // The query, where it starts, two lines per segment, the result.
        XCTAssertEqual(result.output.split(separator: "\n").count, 2 + 2 * segments + 1, String(result.output.prefix(500)))
        return result.output
    }
}
