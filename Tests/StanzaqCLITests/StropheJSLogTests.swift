import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `strophejs`: `SENT: DATA` and `RECV: DATA`, a BOSH body
/// or a WebSocket frame a line, as Strophe.js's examples log its `rawOutput`
/// and `rawInput`. The lines below are the recorded client's
/// (Tests/Fixtures/real-logs/logs/bosh-amy.log and websocket-ben.log, checked
/// whole in RealLogTests and RealWebTransportTests), some attributes left out.
/// Such a log was taken for slixmpp's, whose `RECV: <` its received lines are:
/// only the received stanzas were read.
final class StropheJSLogTests: CLITestCase {
    private let bosh = """
        SENT: <body rid='4242000' xmlns='http://jabber.org/protocol/httpbind' to='localhost' xml:lang='en' wait='10' hold='1' content='text/xml; charset=utf-8' ver='1.6' xmpp:version='1.0' xmlns:xmpp='urn:xmpp:xbosh'/>
        RECV: <body sid='c809f565' xmlns='http://jabber.org/protocol/httpbind' xmlns:stream='http://etherx.jabber.org/streams' wait='10' from='localhost'><stream:features xmlns='jabber:client'><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features></body>
        SENT: <body rid='4242001' sid='c809f565' xmlns='http://jabber.org/protocol/httpbind'><auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>AGFteQBmaXh0dXJlLXB3</auth></body>
        RECV: <body xmlns:stream='http://etherx.jabber.org/streams' xmlns='http://jabber.org/protocol/httpbind' sid='c809f565'><success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/></body>
        SENT: <body rid='4242005' sid='c809f565' xmlns='http://jabber.org/protocol/httpbind'><message xmlns='jabber:client' to='cleo@localhost' type='chat' id='amy-multiline'><body>line one
        line two</body></message></body>
        RECV: <body xmlns:stream='http://etherx.jabber.org/streams' xmlns='http://jabber.org/protocol/httpbind' sid='c809f565'></body>
        SENT: <body rid='4242006' sid='c809f565' xmlns='http://jabber.org/protocol/httpbind' type='terminate'><presence xmlns='jabber:client' type='unavailable'/></body>

        """

    private let websocket = """
        SENT: <open xmlns='urn:ietf:params:xml:ns:xmpp-framing' to='localhost' version='1.0'/>
        RECV: <open version='1.0' id='cb2b116b' xmlns='urn:ietf:params:xml:ns:xmpp-framing' xml:lang='en' from='localhost'/>
        RECV: <stream:features xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>
        SENT: <iq xmlns='jabber:client' type='get' id='ben-ping' to='localhost'><ping xmlns='urn:xmpp:ping'/></iq>
        RECV: <iq type='result' id='ben-ping' from='localhost' to='ben@localhost/websocket' xmlns='jabber:client'/>
        SENT: <close xmlns='urn:ietf:params:xml:ns:xmpp-framing'/>
        RECV: <close xmlns='urn:ietf:params:xml:ns:xmpp-framing'/>

        """

    func testTheStanzasInsideTheBodiesInBothDirections() throws {
        // (No session, no time: the columns are empty.)
        let expected = """
            2\tin\t\t\tfeatures\thttp://etherx.jabber.org/streams\t
            3\tout\t\t\tauth\turn:ietf:params:xml:ns:xmpp-sasl\t
            4\tin\t\t\tsuccess\turn:ietf:params:xml:ns:xmpp-sasl\t
            5\tout\t\t\tmessage\tjabber:client\tamy-multiline
            8\tout\t\t\tpresence\tjabber:client\t

            """
        for format in [[], ["--log"], ["--log=strophejs"]] {
            try assertStanzaq(format + ["--fields", "line,direction,session,time", "-e", "/$", "-e", "/@xmlns", "-e", "/@id"],
                              stdin: bosh, stdout: expected, status: 0)
        }
        try assertStanzaq(["--log", "body#"], stdin: bosh, stdout: "line one\nline two\n", status: 0)
    }

    func testTheStanzasBetweenTheWebSocketFraming() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id"], stdin: websocket, stdout: """
            3\tin\tfeatures\t
            4\tout\tiq\tben-ping
            5\tin\tiq\tben-ping

            """, status: 0)
        try assertStanzaq(["-c", "/{jabber:client}iq"], stdin: websocket, stdout: "2\n", status: 0)
    }

    /// A log that starts with received lines (`RECV: <`, slixmpp's marker too)
    /// is decided by the lines after: Strophe.js's `SENT: <` lines make it its.
    func testReceivedLinesFirstAreStropheJSsAllTheSame() throws {
        let log = "RECV: <iq id=\"a\" type=\"result\"/>\nRECV: <iq id=\"b\" type=\"result\"/>\nSENT: <iq id=\"c\" type=\"get\"/>\n"
        try assertStanzaq(["--fields", "direction", "/@id"], stdin: log, stdout: "in\ta\nin\tb\nout\tc\n", status: 0)
    }
}
