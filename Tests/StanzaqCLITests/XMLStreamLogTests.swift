import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `xmlstream`: the debug output of Perl's XML::Stream under
/// Net::XMPP (`sendxmpp -d`), whose `Send: (…)` and `Read: buff(…)` are the
/// bytes written and read, among Net::XMPP's parsed copies of the same stanzas
/// (`XMPP::Conn: SendXML: sent(…)`), which the generic format took for
/// stanzas too, without a direction. The recorded log is in RealLogTests.
final class XMLStreamLogTests: CLITestCase {
    /// Lines as sendxmpp 1.24 wrote them (Tests/Fixtures/real-logs/logs/sendxmpp-quinn.log,
    /// the stream id and the SASL payload shortened).
    private let sendxmpp = """
        XMPP::Conn: Connect: timeout(10)
        XML::Stream: Connect: type(tcpip)
        XML::Stream: Connect: Got a connection
        XML::Stream: Send: (<?xml version='1.0'?><stream:stream version='1.0' xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client' to='localhost' from='localhost' xml:lang='en' >)
        XML::Stream: Read: buff(<?xml version='1.0'?><stream:stream xml:lang='en' to='localhost' id='c34a' version='1.0' from='localhost' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>)
        XMPP::Conn: Connect: connection made
        sendxmpp: Connect: 1
        XML::Stream: Send: (<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>cXVp</auth>)
        XMPP::Conn: Process: timeout(1)
        XML::Stream: Read: buff(<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>)
        XMPP::Conn: SendWithID: out(<iq id='netjabber-0' type='set'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>sendxmpp</resource></bind></iq>)
        XMPP::Conn: SendXML: sent(<iq id='netjabber-0' type='set'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>sendxmpp</resource></bind></iq>)
        XML::Stream: Send: (<iq id='netjabber-0' type='set'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>sendxmpp</resource></bind></iq>)
        XML::Stream: Read: buff(<iq type='result' id='netjabber-0'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>quinn@localhost/sendxmpp</jid></bind></iq>)
        XMPP::Conn: CallBack: sid(897094d3) received(<iq id='netjabber-0' type='result'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>quinn@localhost/sendxmpp</jid></bind></iq>)
        sendxmpp: AuthSend: ok
        XMPP::Conn: SendXML: sent(<message to='rita@localhost' type='chat'><body>line one
        line two

        line four after an empty line</body><subject></subject></message>)
        XML::Stream: Send: (<message to='rita@localhost' type='chat'><body>line one
        line two

        line four after an empty line</body><subject></subject></message>)
        sendxmpp: MessageSend
        XML::Stream: Send: (</stream:stream>)
        XMPP::Conn: Disconnect: bye bye
        sendxmpp: Disconnect

        """

    func testSendxmppsLinesAreReadInBothDirectionsOnce() throws {
        let expected = """
            5\tin\tfeatures\t
            8\tout\tauth\t
            10\tin\tsuccess\t
            13\tout\tiq\tnetjabber-0
            14\tin\tiq\tnetjabber-0
            21\tout\tmessage\t

            """
        for format in [[], ["--log"], ["--log=xmlstream"]] {
            try assertStanzaq(format + ["--fields", "line,direction", "-e", "/$", "-e", "/@id"], stdin: sendxmpp,
                              stdout: expected, status: 0)
        }
        try assertStanzaq(["--json", "body#"], stdin: sendxmpp,
                          stdout: "\"line one\\nline two\\n\\nline four after an empty line\"\n", status: 0)
        // The stream declares jabber:client; the features are in the streams' namespace.
        try assertStanzaq(["-c", "/{http://etherx.jabber.org/streams}features"], stdin: sendxmpp, stdout: "1\n", status: 0)
        try assertStanzaq(["--direction", "out", "-c", "/{jabber:client}iq"], stdin: sendxmpp, stdout: "1\n", status: 0)
    }

    /// A `)` that ends a line is the end of the message only on the record's
    /// last line; on another it is data, and a read may end inside a stanza,
    /// which the next read of the same direction goes on with.
    func testAParenthesisEndsTheRecordOnlyOnItsLastLine() throws {
        let log = """
            XML::Stream: Read: buff(<message type="chat" id="m1"><body>one)
            two)</bo)
            XMPP::Conn: Process: timeout(1)
            XML::Stream: Read: buff(dy></message>)

            """
        try assertStanzaq(["--json", "--fields", "line,direction", "-e", "/@id", "-e", "body#"], stdin: log,
                          stdout: "{\"line\":1,\"direction\":\"in\",\"value\":[\"m1\",\"one)\\ntwo)\"]}\n", status: 0)
    }

    /// XML::Stream's `debugtime` puts `[HH:MM:SS] ` before each message.
    func testDebugTime() throws {
        let log = """
            [12:00:00] XML::Stream: Send: (<presence id="p1"/>)
            [12:00:01] XMPP::Conn: SendXML: sent(<presence id="p1"/>)
            [12:00:02] XML::Stream: Read: buff(<presence id="p2"/>)

            """
        try assertStanzaq(["--fields", "line,time,direction", "/@id"], stdin: log,
                          stdout: "1:12:00:00\tout\tp1\n3:12:00:02\tin\tp2\n", status: 0)
    }
}
