import Foundation
import XCTest
import StanzaqTestSupport

/// Errors: query syntax, input files, malformed XML, per-stanza errors, `--strict` (stanzaq(1), INPUT, DIAGNOSTICS, EXIT STATUS; stanzaq-query(7), QUERY ERRORS, CONVERSIONS).
final class ErrorTests: CLITestCase {
    /// Required case: a syntax error names the column and shows a caret (the example in stanzaq-query(7), QUERY ERRORS).
    func testSyntaxErrorWithCaret() throws {
        try assertStanzaq(["{urn:x}item<node=a", "capture.xml"], stdout: "", stderr: """
            stanzaq: error: query: expected '>' to close the attribute filter at column 19
              {urn:x}item<node=a
                                ^

            """, status: 2)
    }

    func testSyntaxErrorIsFoundBeforeReadingInput() throws {
        // No input is read: standard input would be /dev/null anyway, and the file does not exist.
        let result = try assertStanzaq(["-e", "body#", "-e", "@a|nonsense", "no-such-file.xml"], stdout: "", stderr: nil,
                                       stderrContains: ["stanzaq: error: query: ", "\n  @a|nonsense\n", "^"], status: 2)
        XCTAssertFalse(result.stderr.contains("no-such-file"))
    }

    func testSemanticErrorsAtCompileTime() throws {
        for query in ["body|int", "body#/x", "/@@|int", "{urn:x}item<node~(>"] {
            try assertStanzaq([query, "capture.xml"], stdout: "", stderr: nil,
                              stderrContains: ["stanzaq: error: query: ", "\n  \(query)\n"], status: 2)
        }
    }

    /// Required case: malformed XML after two good stanzas: both results, then `FILE:LINE:COL: …`, exit 2.
    func testMalformedXMLAfterTwoGoodStanzas() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("bad.xml", """
            <message id='a'><body>one</body></message>
            <message id='b'><body>two</body></message>
            <message id='c'><body>three</bdy></message>
            <message id='d'><body>four</body></message>

            """)
        try scratch.write("good.xml", "<message><body>five</body></message>\n")
        // The damaged stanza costs only itself: "four" is read.
        let result = try assertStanzaq(["body#", "bad.xml"], in: scratch.url, stdout: "one\ntwo\nfour\n", stderr: nil, status: 2)
        XCTAssertTrue(fullyMatches(result.stderr, #"bad\.xml:3:[0-9]+: [^\n]+\n"#), result.stderr)
        // The next file is still read.
        let both = try assertStanzaq(["body#", "bad.xml", "good.xml"], in: scratch.url,
                                     stdout: "one\ntwo\nfour\nfive\n", stderr: nil, status: 2)
        XCTAssertTrue(fullyMatches(both.stderr, #"bad\.xml:3:[0-9]+: [^\n]+\n"#), both.stderr)
        // Standard input is named as grep names it.
        let piped = try assertStanzaq(["body#"], stdin: "<m><body>one</body></m>\n<m><body>two</b></m>",
                                      stdout: "one\n", stderr: nil, status: 2)
        XCTAssertTrue(fullyMatches(piped.stderr, #"\(standard input\):2:[0-9]+: [^\n]+\n"#), piped.stderr)
    }

    func testStanzaCutOff() throws {
        let result = try assertStanzaq(["body#"], stdin: "<m><body>one</body></m>\n<message><body>cut",
                                       stdout: "one\n", stderr: nil, status: 2)
        XCTAssertTrue(fullyMatches(result.stderr, #"\(standard input\):2:1: <message> is not closed \(the input ends at 2:19, inside <body>\)\n"#),
                      result.stderr)
    }

    func testUnclosedStreamIsFine() throws {
        try assertStanzaq(["body#"], stdin: """
            <?xml version='1.0'?>
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>
            <message><body>hi</body></message>
            """, stdout: "hi\n", status: 0)
    }

    func testDoctypeIsRefused() throws {
        let result = try assertStanzaq(["$"], stdin: "<!DOCTYPE m><m><x/></m>", stdout: "", stderr: nil, status: 2)
        XCTAssertTrue(fullyMatches(result.stderr, #"\(standard input\):1:[0-9]+: [^\n]+\n"#), result.stderr)
    }

    /// Required case: a missing file among good ones: their results, a message, exit 2.
    func testMissingFileAmongGoodOnes() throws {
        try assertStanzaq(["body#", "message-delay.xml", "no-such-file.xml", "reconnect-log.xml"], stdout: """
            O blessed, blessed night! I am afeard.
            It is my lady, O, it is my love!
            Did my heart love till now? forswear it, sight!

            """, stderr: "stanzaq: error: no-such-file.xml: No such file or directory\n", status: 2)
    }

    func testMissingFileWithCount() throws {
        try assertStanzaq(["-c", "-H", "body", "message-delay.xml", "no-such-file.xml"],
                          stdout: "message-delay.xml:1\n", stderr: nil, stderrContains: ["no-such-file.xml"], status: 2)
    }

    func testDirectoryAsInput() throws {
        try assertStanzaq(["body#", "."], stdout: "", stderr: nil, stderrContains: ["stanzaq: error: "], status: 2)
    }

    /// `--strict`: a conversion failure is an error for that stanza, `FILE:stanza N: query '…': …`,
    /// the others go on, exit 2.
    func testStrict() throws {
        let scratch = try ScratchDirectory()
        // int skips leading whitespace itself: " 7" is valid, "7 " would not be.
        try scratch.write("values.xml", "<m><v>12</v></m>\n<m><v>x</v></m>\n<m><v> 7</v></m>\n")
        try assertStanzaq(["v#|int", "values.xml"], in: scratch.url, stdout: "12\n0\n7\n", status: 0)
        let result = try assertStanzaq(["--strict", "v#|int", "values.xml"], in: scratch.url,
                                       stdout: "12\n7\n", stderr: nil, status: 2)
        XCTAssertTrue(result.stderr.hasPrefix("values.xml:stanza 2: query 'v#|int': "), result.stderr)
        XCTAssertTrue(result.stderr.contains("'x'"), result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("\n"))
    }

    func testStrictRowsMarkedNoResult() throws {
        let xml = "<m><v>2002-09-10T23:08:25Z</v></m><m><v>yesterday</v></m>"
        try assertStanzaq(["v#|datetime"], stdin: xml, stdout: "2002-09-10T23:08:25Z\n", status: 0)
        let result = try assertStanzaq(["--strict", "v#|datetime"], stdin: xml, stdout: "2002-09-10T23:08:25Z\n",
                                       stderr: nil, status: 2)
        XCTAssertTrue(result.stderr.hasPrefix("(standard input):stanza 2: query 'v#|datetime': "), result.stderr)
    }

    func testStrictBoolAndUint() throws {
        try assertStanzaq(["--strict", "v#|bool"], stdin: "<m><v>0</v></m><m><v>true</v></m>",
                          stdout: "false\ntrue\n", status: 0)
        try assertStanzaq(["--strict", "v#|uint"], stdin: "<m><v>9223372036854775807</v></m>",
                          stdout: "9223372036854775807\n", status: 0)
        // Without --strict this is 9223372036854775807 (saturated): strict says so.
        try assertStanzaq(["--strict", "v#|uint"], stdin: "<m><v>18446744073709551615</v></m>", stdout: "",
                          stderr: "(standard input):stanza 1: query 'v#|uint': '18446744073709551615' is not an integer from 0 to 9223372036854775807 (|uint)\n",
                          status: 2)
        let result = try assertStanzaq(["--strict", "v#|uint"], stdin: "<m><v>-1</v></m>", stdout: "", stderr: nil, status: 2)
        XCTAssertTrue(result.stderr.hasPrefix("(standard input):stanza 1: query 'v#|uint': "), result.stderr)
    }

    func testStrictWithSeveralQueries() throws {
        let result = try assertStanzaq(["--strict", "-e", "/@id", "-e", "v#|int"],
                                       stdin: "<m id='a'><v>1</v></m><m id='b'><v>x</v></m>",
                                       stdout: "a\t1\nb\t\n", stderr: nil, status: 2)
        XCTAssertTrue(result.stderr.hasPrefix("(standard input):stanza 2: query 'v#|int': "), result.stderr)
    }

    func testClimbingAboveTheStanzaIsAPerStanzaError() throws {
        try assertStanzaq(["-n", "/../@id"], stdin: "<a id='1'/><b id='2'/>", stdout: "", stderr: nil,
                          stderrContains: ["(standard input):stanza 1: query '/../@id': ",
                                           "(standard input):stanza 2: query '/../@id': "], status: 2)
        // The reference's example climbs one level too many; the corrected form works.
        let xml = """
            <iq xmlns='jabber:client' type='result'><pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='n'/></pubsub></iq>
            """
        let pubsub = "/{jabber:client}iq/{http://jabber.org/protocol/pubsub}pubsub/items"
        try assertStanzaq([pubsub + "/../../@type"], stdin: xml, stdout: "result\n", status: 0)
        try assertStanzaq([pubsub + "/../../../@type"], stdin: xml, stdout: "", stderr: nil,
                          stderrContains: ["(standard input):stanza 1: query '\(pubsub)/../../../@type': "], status: 2)
    }

    func testDataFormSubqueryOnANonFormIsAPerStanzaError() throws {
        let xml = """
            <m><v/></m>
            <m><x xmlns='jabber:x:data'><field var='f'><value>ok</value></field></x></m>
            """
        let result = try assertStanzaq([#"{*}*\@f\"#], stdin: xml, stdout: "ok\n", stderr: nil, status: 2)
        XCTAssertTrue(result.stderr.hasPrefix(#"(standard input):stanza 1: query '{*}*\@f\': "#), result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
    }
}
