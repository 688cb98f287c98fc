import XCTest
import Foundation
import StanzaqTestSupport

/// stanzaq(1), INPUT: damaged input costs only the damaged stanza; reconnects begin
/// new streams; input may start anywhere; gzip is read; what is not XML is named.
final class DamagedInputTests: CLITestCase {
    private let header = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>"

    // MARK: Reconnects

    func testReconnectWithXMLDeclarations() throws {
        let declaration = "<?xml version='1.0'?>"
        try assertStanzaq(["-n", "/@id"], stdin: """
            \(declaration)\(header)<message id='a'><body>1</body></message>
            \(declaration)\(header)<message id='b'><body>2</body></message>

            """, stdout: "1:a\n2:b\n", status: 0)
    }

    func testReconnectWithoutDeclarationsUnclosedAndClosed() throws {
        try assertStanzaq(["-n", "/@id"], stdin: "\(header)<message id='a'/>\n\(header)<message id='b'/>\n",
                          stdout: "1:a\n2:b\n", status: 0)
        try assertStanzaq(["-n", "/@id"], stdin: "\(header)<message id='a'/></stream:stream>\n\(header)<message id='b'/></stream:stream>\n",
                          stdout: "1:a\n2:b\n", status: 0)
        // The second stream's namespace applies to its stanzas.
        try assertStanzaq(["/{jabber:server}message@id"],
                          stdin: "\(header)<message id='a'/>\n<stream:stream xmlns='jabber:server' xmlns:stream='http://etherx.jabber.org/streams'><message id='b'/>",
                          stdout: "b\n", status: 0)
    }

    func testReconnectInsideACutStanza() throws {
        try assertStanzaq(["-n", "/@id"], stdin: "\(header)<message id='a'><body>cut\n\(header)<message id='b'/>\n",
                          stdout: "1:b\n", stderr: "(standard input):1:86: <message> is not closed (a new stream starts at 2:1)\n",
                          status: 2)
    }

    /// Found by the reader fuzzer: a malformed declaration where a stanza could start
    /// was taken for a reconnect at the start of its own document, forever.
    func testMalformedDeclarationAfterAStanzaIsDamageNotAReconnect() throws {
        try assertStanzaq(["-n", "/$"], stdin: "<n/><?xml\"1.0\"?>`o/>\n<m/>\n",
                          stdout: "1:n\n2:m\n",
                          stderr: "(standard input):1:10: XML declaration allowed only at the start of the document\n",
                          status: 2)
    }

    /// A stanza's name ends the start phase, where elements are held back in
    /// case an end tag shows them to be the end of a stanza cut off before the
    /// input: stanzas before a stray end tag are kept, and it is damage. (The
    /// check compared a pointer to a string's bridged copy, so it never held and
    /// the two messages were dropped, with exit status 0.)
    func testStanzasBeforeAStrayEndTagAreKept() throws {
        let input = "<message id='1'/>\n<message id='2'/>\n</foo>\n<message id='3'/>\n"
        try assertStanzaq(["/@id"], stdin: input, stdout: "1\n2\n3\n",
                          stderr: "(standard input):3:1: end tag </foo> where no element is open\n", status: 2)
        // Elements that are not stanzas are the end of a stanza cut off: dropped, as before.
        try assertStanzaq(["/$"], stdin: "<b>x</b>\n<c/>\n</foo>\n<message id='3'/>\n", stdout: "message\n", status: 0)
    }

    // MARK: Resynchronisation

    func testStrayAmpersand() throws {
        try assertStanzaq(["body#"], stdin: "<message><body>one</body></message>\n<message><body>two & three</body></message>\n<message><body>four</body></message>\n",
                          stdout: "one\nfour\n", stderr: "(standard input):2:21: xmlParseEntityRef: no name\n", status: 2)
        // Between stanzas of a stream.
        try assertStanzaq(["/@id"], stdin: "\(header)<message id='1'/>&<message id='2'/><message id='3'/>",
                          stdout: "1\n2\n3\n", stderr: "(standard input):1:104: xmlParseEntityRef: no name\n", status: 2)
    }

    func testLessThanInAnAttribute() throws {
        try assertStanzaq(["/@id"], stdin: "<iq id='1'/>\n<iq id='x<y' type='get'><ping xmlns='urn:xmpp:ping'/></iq>\n<iq id='3'/>\n",
                          stdout: "1\n3\n", stderr: "(standard input):2:10: Unescaped '<' not allowed in attributes values\n", status: 2)
    }

    func testMismatchedEndTagDoesNotMakeChildrenStanzas() throws {
        try assertStanzaq(["/$"], stdin: "<message id='1'><body>x</bdy><x xmlns='urn:x'/></message>\n<message id='2'/>\n",
                          stdout: "message\n",
                          stderr: "(standard input):1:30: Opening and ending tag mismatch: body line 1 and bdy\n", status: 2)
        // The stanza's own end tag misspelt, last on its line: it ends the stanza, and the
        // next top-level element (not a message, presence or iq) is no child of it.
        let features = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
            + "<stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></stream:feature>\n"
            + "<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>\n<iq id='2'/>\n"
        try assertStanzaq(["/$"], stdin: features, stdout: "starttls\niq\n",
                          stderr: "(standard input):2:83: Opening and ending tag mismatch: features line 2 and feature\n",
                          status: 2)
        // Not last on its line, it is a stray tag inside the stanza.
        try assertStanzaq(["/$"], stdin: "<message id='1'></x><body>b</body></message>\n<message id='2'/>\n", stdout: "message\n",
                          stderr: "(standard input):1:21: Opening and ending tag mismatch: message line 1 and x\n", status: 2)
    }

    func testStanzaCutInsideAStartTag() throws {
        try assertStanzaq(["/@id"], stdin: "<message id='1' ty\n<message id='2'><body>b</body></message>\n<message id='3'/>\n",
                          stdout: "2\n3\n", stderr: "(standard input):2:1: Specification mandates value for attribute ty\n", status: 2)
        try assertStanzaq(["/@id"], stdin: "<message id='1' to='ju\n<message id='2'><body>b</body></message>\n",
                          stdout: "2\n", stderr: "(standard input):2:1: Unescaped '<' not allowed in attributes values\n", status: 2)
    }

    func testStanzaCutBetweenTags() throws {
        try assertStanzaq(["/@id"], stdin: "<message id='1'><body>hello</body>\n<message id='2'><body>b</body></message>\n<message id='3'/>\n",
                          stdout: "2\n3\n", stderr: "(standard input):1:1: <message> is not closed (a new <message> starts at 2:1)\n",
                          status: 2)
        try assertStanzaq(["/@id"], stdin: "\(header)\n<message id='1'><body>hel\n<iq id='2'/>\n<presence id='3'/>\n",
                          stdout: "2\n3\n", stderr: "(standard input):2:1: <message> is not closed (a new <iq> starts at 3:1)\n",
                          status: 2)
        // A stanza that is not message, presence or iq: found when the damage shows.
        try assertStanzaq(["/@id"], stdin: "<features><starttls xmlns='x'>\n<message id='2'/>\n<message id='3'><body>a&b</body></message>\n<iq id='4'/>",
                          stdout: "2\n4\n", stderr: """
                            (standard input):1:1: <features> is not closed (a new <message> starts at 2:1)
                            (standard input):3:26: EntityRef: expecting ';'

                            """, status: 2)
    }

    func testForwardedAndIndentedMessagesAreNotCuts() throws {
        try assertStanzaq(["-c", "/"], stdin: """
            <message id='1'>
              <forwarded xmlns='urn:xmpp:forward:0'>
            <message xmlns='jabber:client' id='inner'/>
              </forwarded>
            </message>
            <message id='2'>
              <signed>
                <message id='inner'/>
              </signed>
            </message>

            """, stdout: "2\n", status: 0)
    }

    func testInputEndsInsideAStanza() throws {
        try assertStanzaq(["body#"], stdin: "<message><body>one</body></message>\n<message><body>cut",
                          stdout: "one\n", stderr: "(standard input):2:1: <message> is not closed (the input ends at 2:19, inside <body>)\n",
                          status: 2)
    }

    // MARK: Starting anywhere

    func testTailStartsInTheMiddleOfAStanza() throws {
        try assertStanzaq(["/@id"], stdin: "ody>hello</body><x xmlns='urn:x'/></message>\n<message id='2'><body>b</body></message>\n",
                          stdout: "2\n", status: 0)
        try assertStanzaq(["/@id"], stdin: "ssage id='q'><body>hello</body></message>\n<message id='2'/>\n", stdout: "2\n", status: 0)
        try assertStanzaq(["/@id"], stdin: "  <body>x</body>\n  <thread>t</thread>\n</message>\n<message id='2'/>\n", stdout: "2\n", status: 0)
        let run = try Runner.shell("tail -n 10 capture.xml | stanzaq --line-buffered -e /@from -e 'body#'")
        XCTAssertEqual(run.output, "romeo@montague.lit/orchard\t\nromeo@montague.lit/mantua\tI'll send thee word from Mantua.\n")
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.status, 0)
    }

    // MARK: What the input is

    func testGzipFileAndStandardInput() throws {
        let scratch = try ScratchDirectory()
        let plain = try Data(contentsOf: Runner.examples.appendingPathComponent("capture.xml"))
        let expected = try InProcess.stanzaq(["-c", "/"], stdin: plain).output
        XCTAssertEqual(expected, "18\n")
        let zipped = try Runner.shell("gzip -c capture.xml > \(shellQuote(scratch.url.path))/capture.xml.gz")
        XCTAssertEqual(zipped.status, 0)
        try assertStanzaq(["-c", "/", "capture.xml.gz"], in: scratch.url, stdout: expected, status: 0)
        let piped = try Runner.shell("gzip -c capture.xml | stanzaq -c / && gzip -c capture.xml | cat - capture.xml.gz 2>/dev/null | stanzaq -c /")
        XCTAssertEqual(piped.output, expected + expected)
        let cut = try Runner.shell("printf '<message><body>one</body></message>' | gzip | head -c 20 | stanzaq 'body#'")
        XCTAssertEqual(cut.stderr, """
            (standard input):1:10: the gzip data is cut off (its end is missing)
            (standard input):1:1: <message> is not closed (the input ends at 1:10)

            """)
        XCTAssertEqual(cut.status, 2)
    }

    func testUTF16BinaryAndLogInputSayWhatTheyAre() throws {
        let utf16 = try InProcess.stanzaq(["/"], stdin: Data([0xFF, 0xFE] + Array("<a/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
        XCTAssertEqual(utf16.stderr, "(standard input):1:1: the input is UTF-16, but XMPP is UTF-8 only (convert it: iconv -f UTF-16 -t UTF-8)\n")
        XCTAssertEqual(utf16.status, 2)
        let noMark = try InProcess.stanzaq(["/"], stdin: Data(Array("<a/>".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }))
        XCTAssertEqual(noMark.stderr, utf16.stderr)
        let binary = try InProcess.stanzaq(["/"], stdin: Data([0x89] + Array("PNG\r\n".utf8) + [0x1A, 0x0A, 0, 0]))
        XCTAssertEqual(binary.stderr, "(standard input):1:1: the input is binary data, not XML (byte 0x1A at offset 6)\n")
        XCTAssertEqual(binary.status, 2)
        // Text lines are read as a log (stanzaq(1), LOGS): text around stanzas is no error, and here there are none.
        let text = "Jan 01 12:00:00 SEND: hello\nJan 01 12:00:01 RECV: bye\n"
        try assertStanzaq(["/"], stdin: text, stdout: "", stderr: "", status: 1)
        // Forced to XML, the same text is not XML, and says so.
        try assertStanzaq(["--xml", "/"], stdin: text, stdout: "",
                          stderr: "(standard input):1:1: the input is not XML: it starts with text, as a log does ('Jan 01 12:00:00 SEND: hello')\n",
                          status: 2)
    }

    func testLongValuesInMessagesAreShortened() throws {
        let name = String(repeating: "n", count: 100)
        try assertStanzaq(["/@id"], stdin: "<m><\(name)></m>\n<m id='2'/>", stdout: "2\n",
                          stderr: "(standard input):1:110: Opening and ending tag mismatch: \(String(repeating: "n", count: 50))… line 1 and m\n",
                          status: 2)
    }
}
