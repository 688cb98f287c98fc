import Foundation
import XCTest
import StanzaqTestSupport

/// Queries and output forms: positional and `-e` queries, `-a`, `--first`, `-o`, `--json`,
/// `-0`, `-j`, `-H`, `-n`, `-N`, `--epoch`, `--pretty` (stanzaq(1), OUTPUT and OPTIONS).
final class OutputFormTests: CLITestCase {
    static let bodies = """
        Lady, by yonder blessed moon I swear
        O, swear not by the moon, the inconstant moon
        A plague o' both your houses!
        Romeo is banished; he waits for you at Friar Laurence's cell.
        Where is Tybalt?
        I'll send thee word from Mantua.

        """

    // MARK: queries

    func testPositionalQuery() throws {
        try assertStanzaq(["body#", "capture.xml"], stdout: Self.bodies, status: 0)
    }

    func testQueryOption() throws {
        try assertStanzaq(["-e", "body#", "capture.xml"], stdout: Self.bodies, status: 0)
        try assertStanzaq(["--query", "body#", "capture.xml"], stdout: Self.bodies, status: 0)
    }

    func testNoResultExitsOne() throws {
        try assertStanzaq(["nothing#", "capture.xml"], stdout: "", status: 1)
    }

    func testStandardInputWhenNoFileOrDash() throws {
        let xml = "<message xmlns='jabber:client'><body>hi</body></message>"
        try assertStanzaq(["body#"], stdin: xml, stdout: "hi\n", status: 0)
        try assertStanzaq(["body#", "-"], stdin: xml, stdout: "hi\n", status: 0)
        try assertStanzaq(["-H", "body#", "-"], stdin: xml, stdout: "(standard input):hi\n", status: 0)
    }

    func testEveryResultOfEveryStanza() throws {
        try assertStanzaq(["{jabber:iq:roster}query/item@jid", "capture.xml"], stdout: """
            romeo@montague.lit
            nurse@capulet.lit
            benvolio@montague.lit
            tybalt@capulet.lit

            """, status: 0)
    }

    func testFirst() throws {
        try assertStanzaq(["--first", "{jabber:iq:roster}query/item@jid", "capture.xml"],
                          stdout: "romeo@montague.lit\n", status: 0)
        try assertStanzaq(["--first", "/@type", "mam-page.xml"], stdout: "result\n", status: 0)
        try assertStanzaq(["--first", "{jabber:iq:roster}query/item/group#", "capture.xml"],
                          stdout: "Friends\n", status: 0)
    }

    /// Required case: several queries give one TSV row per stanza, an absent value is an
    /// empty field, a stanza with no result at all prints no line.
    func testMultiQueryTSVWithAbsentFields() throws {
        try assertStanzaq(["-e", "/@from", "-e", "/@id", "-e", "body#", "capture.xml"], stdout: """
            \tbind_1\t
            juliet@capulet.lit/balcony\troster_1\t
            \troster_1\t
            romeo@montague.lit/orchard\t\t
            nurse@capulet.lit/chamber\t\t
            romeo@montague.lit/orchard\t5a55dac8-d3a4-4d0c-8811-24bdae92b8cb\tLady, by yonder blessed moon I swear
            juliet@capulet.lit/balcony\t53e73e70-c34d-4f31-9f60-b0e7d08fe27f\tO, swear not by the moon, the inconstant moon
            coffee@chat.shakespeare.lit/Mercutio\td253c72e-c72e-4972-8a44-28972f821339\tA plague o' both your houses!
            benvolio@montague.lit/street\t5ba2db81-63d3-4a32-87c8-b1e9868362fc\tRomeo is banished; he waits for you at Friar Laurence's cell.
            capulet.lit\tping-7c21\t
            juliet@capulet.lit/balcony\tping-7c21\t
            tybalt@capulet.lit\tb7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f\tWhere is Tybalt?
            nurse@capulet.lit/chamber\tdisco-3e9f\t
            romeo@montague.lit/orchard\t\t
            romeo@montague.lit/mantua\tddc7cfae-1e73-490f-ae60-d082c2cfde8e\tI'll send thee word from Mantua.

            """, status: 0)
    }

    func testTSVEscapesTabsAndNewlines() throws {
        let xml = "<m a='x'><b>line1\nline2\tz</b></m>"
        try assertStanzaq(["-e", "b#", "-e", "/@a"], stdin: xml, stdout: "line1\\nline2\\tz\tx\n", status: 0)
        try assertStanzaq(["-o", "tsv", "b#"], stdin: xml, stdout: "line1\\nline2\\tz\n", status: 0)
        // Text mode writes values raw.
        try assertStanzaq(["b#"], stdin: xml, stdout: "line1\nline2\tz\n", status: 0)
    }

    /// Every escape at a field's start, middle and end, beside multi-byte text,
    /// a number, base64 bytes, a plain field and an absent one, behind a prefix.
    func testTSVEscapesEveryFieldKind() throws {
        let xml = "<m a='\\x' n='42'><b>\\\tstart&#13;\nend\\</b><c>é\t✓</c><d>aGk=</d><e>plain</e></m>"
        try assertStanzaq(["-n", "-e", "b#", "-e", "/@a", "-e", "c#", "-e", "/@n|int", "-e", "d#|base64", "-e", "e#", "-e", "f#"],
                          stdin: xml, stdout: "1:\\\\\\tstart\\r\\nend\\\\\t\\\\x\té\\t✓\t42\taGk=\tplain\t\n", status: 0)
    }

    func testTSVWithOneQueryIsOneRowPerStanza() throws {
        try assertStanzaq(["-o", "tsv", "{jabber:iq:roster}query/item@jid", "capture.xml"],
                          stdout: "romeo@montague.lit\n", status: 0)
    }

    func testTextOutputWithSeveralQueriesIsStillRows() throws {
        try assertStanzaq(["-o", "text", "-e", "/@id", "-e", "/@type", "mam-fin.xml"],
                          stdout: "juliet1\tresult\n", status: 0)
    }

    func testSeveralQueriesAsJSONArrays() throws {
        try assertStanzaq(["-o", "json", "-e", "/@id", "-e", "/@type", "-e", "/@from", "mam-fin.xml"],
                          stdout: "[\"juliet1\",\"result\",null]\n", status: 0)
        try assertStanzaq(["--json", "-n", "-e", "/@id", "-e", "/@from", "mam-fin.xml"],
                          stdout: "{\"stanza\":1,\"value\":[\"juliet1\",null]}\n", status: 0)
    }

    // MARK: format arguments

    func testFormatArguments() throws {
        try assertStanzaq(["-a", "juliet@capulet.lit", "/<from=%@>@id", "mam-page.xml"],
                          stdout: "aeb213\naeb214\naeb215\n", status: 0)
        try assertStanzaq(["--arg", "JULIET@capulet.lit", "--arg", "aeb214", "/<from=%s><id=%@>@id", "mam-page.xml"],
                          stdout: "aeb214\n", status: 0)
        try assertStanzaq(["-a", "0", "{urn:xmpp:mam:2}fin/{http://jabber.org/protocol/rsm}set/first<index=%d>#", "mam-fin.xml"],
                          stdout: "28482-98726-73623\n", status: 0)
        try assertStanzaq(["/<id=100%%>@id"], stdin: "<m id='100%'/><m id='100'/>", stdout: "100%\n", status: 0)
    }

    func testFormatArgumentErrorsComeBeforeAnyInput() throws {
        // The file does not exist: the error must be about the arguments, found before reading.
        try assertStanzaq(["-a", "x", "/@id", "no-such-file.xml"], stdout: "",
                          stderr: "stanzaq: error: query: 1 format argument given, but the query has 0 format specifiers\n",
                          status: 2)
        try assertStanzaq(["-a", "x", "-a", "y", "/<id=%@>@id", "no-such-file.xml"], stdout: "",
                          stderr: "stanzaq: error: query: 2 format arguments given, but the query has 1 format specifier\n",
                          status: 2)
        try assertStanzaq(["/<id=%@>@id", "no-such-file.xml"], stdout: "", stderr: nil,
                          stderrContains: ["stanzaq: error: query: "], status: 2)
        let result = try assertStanzaq(["-a", "x", "/<id=%d>@id", "no-such-file.xml"], stdout: "", stderr: nil,
                                       stderrContains: ["stanzaq: error: query: ", "%d", "'x'"], status: 2)
        XCTAssertFalse(result.stderr.contains("no-such-file"))
    }

    // MARK: output formats

    func testJSONOutput() throws {
        let expected = Self.bodies.split(separator: "\n").map { "\"\($0)\"\n" }.joined()
        try assertStanzaq(["-o", "json", "body#", "capture.xml"], stdout: expected, status: 0)
        try assertStanzaq(["--output", "json", "body#", "capture.xml"], stdout: expected, status: 0)
        try assertStanzaq(["--json", "body#", "capture.xml"], stdout: expected, status: 0)
        try assertStanzaq(["--json", "-o", "json", "body#", "capture.xml"], stdout: expected, status: 0)
    }

    func testJSONValues() throws {
        try assertStanzaq(["--json", "b#"], stdin: #"<m><b>q"uo\te</b></m>"#, stdout: #""q\"uo\\te""# + "\n", status: 0)
        try assertStanzaq(["--json", "{urn:xmpp:mam:2}fin@complete|bool", "mam-fin.xml"], stdout: "true\n", status: 0)
        try assertStanzaq(["--json", "{http://jabber.org/protocol/rsm}set/first@index|int"],
                          stdin: "<fin xmlns='urn:xmpp:mam:2'><set xmlns='http://jabber.org/protocol/rsm'><first index='-3'/></set></fin>",
                          stdout: "-3\n", status: 0)
        try assertStanzaq(["--json", "{urn:xmpp:sid:0}origin-id@id|uuid", "message-delay.xml"],
                          stdout: "\"DE305D54-75B4-431B-ADB2-EB6B9E546013\"\n", status: 0)
        try assertStanzaq(["--json", "{urn:xmpp:delay}delay@stamp|datetime", "message-delay.xml"],
                          stdout: "\"2002-09-10T23:08:25Z\"\n", status: 0)
        try assertStanzaq(["--json", "/@@", "mam-fin.xml"],
                          stdout: "{\"xmlns\":\"jabber:client\",\"type\":\"result\",\"id\":\"juliet1\"}\n", status: 0)
        try assertStanzaq(["--json", "{urn:xmpp:mam:2}fin/{http://jabber.org/protocol/rsm}set/last", "mam-fin.xml"],
                          stdout: "\"<last xmlns='http://jabber.org/protocol/rsm'>09af3-cc343-b409f</last>\"\n", status: 0)
    }

    func testTextValues() throws {
        try assertStanzaq(["{urn:xmpp:mam:2}fin@complete|bool", "mam-fin.xml"], stdout: "true\n", status: 0)
        try assertStanzaq(["{urn:xmpp:sid:0}origin-id@id|uuid", "message-delay.xml"],
                          stdout: "DE305D54-75B4-431B-ADB2-EB6B9E546013\n", status: 0)
        try assertStanzaq(["/@@", "mam-fin.xml"],
                          stdout: "{\"xmlns\":\"jabber:client\",\"type\":\"result\",\"id\":\"juliet1\"}\n", status: 0)
        try assertStanzaq(["/@id|uuidcast"], stdin: "<m id='hello'/>", stdout: "2CF24DBA-5FB0-A34E-26E8-3B2AC5B9E29E\n", status: 0)
        try assertStanzaq(["v#|double"], stdin: "<m><v>1.50</v></m><m><v>3.0</v></m>", stdout: "1.5\n3\n", status: 0)
        try assertStanzaq(["v#|uint"], stdin: "<m><v>-1</v></m>", stdout: "18446744073709551615\n", status: 0)
        // A bare extraction is on the context node: the stanza's own name.
        try assertStanzaq(["$", "reconnect-log.xml"], stdout: "message\npresence\niq\nmessage\n", status: 0)
        // A name without a namespace is in the parent's namespace; {*} is any.
        try assertStanzaq(["*$", "reconnect-log.xml"], stdout: "body\nshow\nstatus\nbody\n", status: 0)
        try assertStanzaq(["{*}*$", "reconnect-log.xml"], stdout: "body\nshow\nstatus\nbind\nbody\ndelay\n", status: 0)
        try assertStanzaq(["/$", "reconnect-log.xml"], stdout: "message\npresence\niq\nmessage\n", status: 0)
    }

    func testElementsAreSerialisedStandalone() throws {
        try assertStanzaq(["body", "message-delay.xml"],
                          stdout: "<body xmlns='jabber:client'>O blessed, blessed night! I am afeard.</body>\n", status: 0)
        try assertStanzaq(["{urn:xmpp:mam:2}fin", "mam-fin.xml"], stdout: """
            <fin xmlns='urn:xmpp:mam:2' complete='true'>
                <set xmlns='http://jabber.org/protocol/rsm'>
                  <first index='0'>28482-98726-73623</first>
                  <last>09af3-cc343-b409f</last>
                </set>
              </fin>

            """, status: 0)
    }

    func testPretty() throws {
        try assertStanzaq(["--pretty", "{urn:xmpp:mam:2}fin", "mam-fin.xml"], stdout: """
            <fin xmlns='urn:xmpp:mam:2' complete='true'>
              <set xmlns='http://jabber.org/protocol/rsm'>
                <first index='0'>28482-98726-73623</first>
                <last>09af3-cc343-b409f</last>
              </set>
            </fin>

            """, status: 0)
        try assertStanzaq(["--pretty", "-s", "c"], stdin: "<m xmlns='jabber:client'><b>x</b><c><d/></c></m>", stdout: """
            <m xmlns='jabber:client'>
              <b>x</b>
              <c>
                <d/>
              </c>
            </m>

            """, status: 0)
    }

    // MARK: separators

    /// Required case: `-0` ends records with NUL.
    func testNullSeparator() throws {
        for flag in ["-0", "--null"] {
            let result = try assertStanzaq([flag, "/@id", "mam-page.xml"],
                                           stdout: "aeb213\0aeb214\0aeb215\0juliet1\0", status: 0)
            XCTAssertEqual(result.stdout, Data("aeb213\0aeb214\0aeb215\0juliet1\0".utf8))
        }
        try assertStanzaq(["-0", "-e", "/@id", "-e", "/@type", "mam-fin.xml"], stdout: "juliet1\tresult\0", status: 0)
        try assertStanzaq(["-0", "-c", "/@id", "mam-page.xml"], stdout: "4\0", status: 0)
    }

    func testJoinSeparator() throws {
        try assertStanzaq(["-j", "/@id", "mam-page.xml"], stdout: "aeb213aeb214aeb215juliet1", status: 0)
        try assertStanzaq(["--join", "/@id", "mam-page.xml"], stdout: "aeb213aeb214aeb215juliet1", status: 0)
    }

    static let avatarQuery = "{http://jabber.org/protocol/pubsub#event}event/items/item/{urn:xmpp:avatar:data}data#|base64"

    /// The PNG in examples/avatar-data.xml, decoded here independently of stanzaq.
    func avatarPNG() throws -> Data {
        let xml = try String(contentsOf: Runner.examples.appendingPathComponent("avatar-data.xml"), encoding: .utf8)
        let open = try XCTUnwrap(xml.range(of: "<data xmlns='urn:xmpp:avatar:data'>"))
        let close = try XCTUnwrap(xml.range(of: "</data>", range: open.upperBound..<xml.endIndex))
        let encoded = String(xml[open.upperBound..<close.lowerBound])
        let png = try XCTUnwrap(Data(base64Encoded: encoded, options: .ignoreUnknownCharacters))
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        return png
    }

    /// Required case: `-j` writes the decoded bytes, byte for byte.
    func testJoinWritesBase64BytesExactly() throws {
        let png = try avatarPNG()
        let result = try InProcess.stanzaq(["-j", Self.avatarQuery, "avatar-data.xml"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdout.count, png.count)
        XCTAssertEqual(result.stdout, png)
    }

    func testBase64InOtherForms() throws {
        let png = try avatarPNG()
        let text = try InProcess.stanzaq([Self.avatarQuery, "avatar-data.xml"])
        XCTAssertEqual(text.stdout, png + Data([0x0A]), "text mode: raw bytes and a newline")
        XCTAssertEqual(text.status, 0)
        let canonical = png.base64EncodedString()
        try assertStanzaq(["--json", Self.avatarQuery, "avatar-data.xml"], stdout: "\"\(canonical)\"\n", status: 0)
        try assertStanzaq(["-e", Self.avatarQuery, "-e", "/@id", "avatar-data.xml"],
                          stdout: "\(canonical)\tavatar-data-7f3a91\n", status: 0)
    }

    // MARK: prefixes

    func testStanzaNumbers() throws {
        try assertStanzaq(["-n", "body#", "capture.xml"], stdout: """
            7:Lady, by yonder blessed moon I swear
            8:O, swear not by the moon, the inconstant moon
            11:A plague o' both your houses!
            12:Romeo is banished; he waits for you at Friar Laurence's cell.
            15:Where is Tybalt?
            18:I'll send thee word from Mantua.

            """, status: 0)
        // Numbered per input; every stream child counts, across reconnects.
        try assertStanzaq(["--stanza-number", "/@type", "mam-fin.xml", "reconnect-log.xml"], stdout: """
            1:result
            1:chat
            3:result
            4:chat

            """, status: 0)
    }

    func testFileNames() throws {
        try assertStanzaq(["-H", "body#", "reconnect-log.xml", "message-delay.xml"], stdout: """
            reconnect-log.xml:It is my lady, O, it is my love!
            reconnect-log.xml:Did my heart love till now? forswear it, sight!
            message-delay.xml:O blessed, blessed night! I am afeard.

            """, status: 0)
        try assertStanzaq(["--with-filename", "-n", "body#", "reconnect-log.xml"], stdout: """
            reconnect-log.xml:1:It is my lady, O, it is my love!
            reconnect-log.xml:4:Did my heart love till now? forswear it, sight!

            """, status: 0)
    }

    func testFileNamesAreNeverImplied() throws {
        try assertStanzaq(["body#", "reconnect-log.xml", "message-delay.xml"], stdout: """
            It is my lady, O, it is my love!
            Did my heart love till now? forswear it, sight!
            O blessed, blessed night! I am afeard.

            """, status: 0)
    }

    func testPrefixesWithTSVRows() throws {
        try assertStanzaq(["-H", "-n", "-e", "/@id", "-e", "/@type", "mam-fin.xml"],
                          stdout: "mam-fin.xml:1:juliet1\tresult\n", status: 0)
    }

    /// Required case: JSON objects with `-n` (and `-H`).
    func testJSONObjectsWithPrefixes() throws {
        try assertStanzaq(["--json", "-n", "body#", "capture.xml"], stdout: """
            {"stanza":7,"value":"Lady, by yonder blessed moon I swear"}
            {"stanza":8,"value":"O, swear not by the moon, the inconstant moon"}
            {"stanza":11,"value":"A plague o' both your houses!"}
            {"stanza":12,"value":"Romeo is banished; he waits for you at Friar Laurence's cell."}
            {"stanza":15,"value":"Where is Tybalt?"}
            {"stanza":18,"value":"I'll send thee word from Mantua."}

            """, status: 0)
        try assertStanzaq(["-o", "json", "-H", "body#", "reconnect-log.xml"], stdout: """
            {"file":"reconnect-log.xml","value":"It is my lady, O, it is my love!"}
            {"file":"reconnect-log.xml","value":"Did my heart love till now? forswear it, sight!"}

            """, status: 0)
        try assertStanzaq(["--json", "-H", "-n", "{urn:xmpp:delay}delay@stamp|datetime", "reconnect-log.xml"],
                          stdout: "{\"file\":\"reconnect-log.xml\",\"stanza\":4,\"value\":\"2024-09-18T21:14:03.512Z\"}\n",
                          status: 0)
        try assertStanzaq(["--json", "-H", "body#", "-"], stdin: "<m><body>x</body></m>",
                          stdout: "{\"file\":\"(standard input)\",\"value\":\"x\"}\n", status: 0)
    }

    // MARK: namespaces and datetimes

    func testDefaultNamespace() throws {
        try assertStanzaq(["/{jabber:client}iq@id", "http-upload-disco.xml"], stdout: "", status: 1)
        try assertStanzaq(["-N", "jabber:client", "/{jabber:client}iq@id", "http-upload-disco.xml"],
                          stdout: "step_02\n", status: 0)
        try assertStanzaq(["--default-namespace", "jabber:client", "/{jabber:client}iq@id", "http-upload-disco.xml"],
                          stdout: "step_02\n", status: 0)
        // A stanza with its own namespace keeps it.
        try assertStanzaq(["-N", "jabber:server", "/{jabber:client}iq@id", "mam-fin.xml"], stdout: "juliet1\n", status: 0)
        try assertStanzaq(["-N", "jabber:client", "body"], stdin: "<message><body>hi</body></message>",
                          stdout: "<body xmlns='jabber:client'>hi</body>\n", status: 0)
    }

    static let stampQuery = "{urn:xmpp:mam:2}result/{urn:xmpp:forward:0}forwarded/{urn:xmpp:delay}delay@stamp|datetime"

    func testDatetimeAndEpoch() throws {
        try assertStanzaq([Self.stampQuery, "mam-page.xml"], stdout: """
            2010-07-10T23:08:25Z
            2010-07-10T23:09:32.123Z
            2010-07-10T23:11:04Z

            """, status: 0)
        try assertStanzaq(["--epoch", Self.stampQuery, "mam-page.xml"], stdout: """
            1278803305
            1278803372.123
            1278803464

            """, status: 0)
        try assertStanzaq(["--epoch", "--json", Self.stampQuery, "mam-page.xml"], stdout: """
            1278803305
            1278803372.123
            1278803464

            """, status: 0)
        try assertStanzaq(["--epoch", "/@s|datetime"], stdin: "<m s='1970-01-01T01:00:00+01:00'/>", stdout: "0\n", status: 0)
    }
}
