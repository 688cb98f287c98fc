import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `goxmpp`: go-xmpp's debug output (go-sendxmpp `--debug`),
/// every read of the socket and a line feed after it: what the client
/// received, in; the line feed is the stanza's own only inside a stanza and
/// before a read's 4096th byte. The recorded logs are in RealLogTests.
final class GoXMPPLogTests: CLITestCase {
    /// go-sendxmpp 0.5.6's standard error (Tests/Fixtures/real-logs/logs/go-sendxmpp-ulf.log,
    /// the stream ids shortened), then a chat message with newlines as the
    /// go-xmpp client's log has it.
    private let log = """
        <?xml version='1.0'?><stream:stream from='localhost' id='798b' xmlns='jabber:client' xml:lang='en' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'><stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>
        <success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>
        <?xml version='1.0'?><stream:stream from='localhost' id='fbf6' xmlns='jabber:client' xml:lang='en' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'><stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><required/></bind></stream:features>
        <iq id='1e89f7515bc4d6a5' type='result'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>ulf@localhost/go-sendxmpp</jid></bind></iq>
        <presence from='ulf@localhost/go-sendxmpp' xml:lang='en'><show/><status/></presence>
        <message id='echo-sven-multiline' to='sven@localhost/goxmpp' from='tara@localhost/slixmpp-echoer' type='chat' xml:lang='en'><body>line one
        line two

        line four after an empty line</body><stanza-id id='2BpG' xmlns='urn:xmpp:sid:0' by='sven@localhost'/></message>
        2026/11/28 04:08:55 failed to read from stdin

        """

    func testEveryReadIsReceived() throws {
        let expected = """
            1\tin\tfeatures\t
            2\tin\tsuccess\t
            3\tin\tfeatures\t
            4\tin\tiq\t1e89f7515bc4d6a5
            5\tin\tpresence\t
            6\tin\tmessage\techo-sven-multiline

            """
        for format in [["--log"], ["--log=goxmpp"]] {
            try assertStanzaq(format + ["--fields", "line,direction", "-e", "/$", "-e", "/@id"], stdin: log,
                              stdout: expected, status: 0)
        }
        try assertStanzaq(["--log", "--json", "body#"], stdin: log,
                          stdout: "\"line one\\nline two\\n\\nline four after an empty line\"\n", status: 0)
        try assertStanzaq(["--log", "--direction", "out", "-c", "/"], stdin: log, stdout: "0\n", status: 1)
    }

    /// A read of 4096 bytes that ends inside a stanza goes on in the next line:
    /// the line feed between them is the tee's. Shorter, it is the text's.
    func testTheLineFeedAfterAFullReadIsNotData() throws {
        let start = "<message id='m1' type='chat'><body>"
        let full = start + String(repeating: "x", count: 4096 - start.utf8.count)
        let stream = "<?xml version='1.0'?><stream:stream id='s1' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
        try assertStanzaq(["--log", "--json", "body#"], stdin: stream + full + "\nyy</body></message>\n",
                          stdout: "\"\(String(repeating: "x", count: 4096 - start.utf8.count))yy\"\n", status: 0)
        try assertStanzaq(["--log", "--json", "body#"], stdin: stream + start + "xx\nyy</body></message>\n",
                          stdout: "\"xx\\nyy\"\n", status: 0)
    }

    /// End tags of nothing open (damaged data) do not make the parser take the
    /// next stanza's inside for the space between stanzas: its newline stays text.
    func testStrayEndTagsLeaveTheNextStanzaWhole() throws {
        let stream = "<?xml version='1.0'?><stream:stream id='s1' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
        try assertStanzaq(["--log", "--json", "body#"], stdin: stream + "</x></y>\n<message id='m1'><body>a\nb</body></message>\n",
                          stdout: "\"a\\nb\"\n",
                          stderr: "(standard input):2:5: Opening and ending tag mismatch: stream line 3 and x\n", status: 2)
    }
}
