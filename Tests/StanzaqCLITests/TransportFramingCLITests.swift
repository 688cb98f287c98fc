import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), INPUT: BOSH bodies and the WebSocket binding's `<open/>` and
/// `<close/>` are transport, not stanzas (issue 41): what a user searching a
/// BOSH capture, a WebSocket capture or a client's log of either sees.
final class TransportFramingCLITests: CLITestCase {
    /// The samples (``FramingSamples``), shared with the library's tests.
    static let bosh = FramingSamples.bosh
    static let webSocket = FramingSamples.webSocket

    func testABOSHCaptureListsTheStanzasInsideItsBodies() throws {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("bosh.xml", Self.bosh)
        try assertStanzaq(["/$", "bosh.xml"], in: scratch.url, stdout: "iq\nmessage\npresence\npresence\n", status: 0)
        try assertStanzaq(["-c", "/{jabber:client}iq", "bosh.xml"], in: scratch.url, stdout: "1\n", status: 0)
        try assertStanzaq(["-c", "/{http://jabber.org/protocol/httpbind}body", "bosh.xml"], in: scratch.url, stdout: "0\n", status: 1)
        try assertStanzaq(["-n", "--line-number", "-e", "/$", "-e", "/@type", "bosh.xml"], in: scratch.url,
                          stdout: "1:3\tiq\tset\n2:8\tmessage\t\n3:9\tpresence\t\n4:12\tpresence\tunavailable\n", status: 0)
        try assertStanzaq(["-s", "/message", "bosh.xml"], in: scratch.url,
                          stdout: "<message xmlns='jabber:client' to='contact@example.com'><body>I said \"Hi!\"</body></message>\n",
                          status: 0)
        // Each stanza is the root of its tree: the body is no parent.
        try assertStanzaq(["-c", "{http://jabber.org/protocol/httpbind}body", "bosh.xml"], in: scratch.url, stdout: "0\n", stderr: nil,
                          status: 1)
    }

    func testAWebSocketCaptureHasNoOpenOrClose() throws {
        try assertStanzaq(["/$"], stdin: Self.webSocket, stdout: "iq\nmessage\n", status: 0)
        try assertStanzaq(["-c", "/{urn:ietf:params:xml:ns:xmpp-framing}*"], stdin: Self.webSocket, stdout: "0\n", status: 1)
    }

    /// A damaged stanza inside a body costs that stanza, as in a stream.
    func testDamageInsideABody() throws {
        let text = "<body xmlns='http://jabber.org/protocol/httpbind' sid='s'>\n"
            + "<message xmlns='jabber:client' id='m1'><body>Tom & Jerry</body></message>\n"
            + "<message xmlns='jabber:client' id='m2'><body>fine</body></message>\n"
            + "</body>\n"
            + "<body xmlns='http://jabber.org/protocol/httpbind' sid='s'><iq xmlns='jabber:client' id='i1'/></body>\n"
        let scratch = try ScratchDirectory()
        _ = try scratch.write("damaged.xml", text)
        try assertStanzaq(["--line-number", "/@id", "damaged.xml"], in: scratch.url, stdout: "3:m2\n5:i1\n",
                          stderr: "damaged.xml:2:51: xmlParseEntityRef: no name\n", status: 2)
    }

    /// Client logs that show the bodies they send and receive (slixmpp's
    /// `SEND:`/`RECV:` lines of a BOSH session, and a generic log of a
    /// WebSocket session): the stanzas are the bodies' children.
    func testLogsThatShowBodies() throws {
        let slixmpp = """
            2026-11-23 09:30:12,104 DEBUG    SEND: <body xmlns="http://jabber.org/protocol/httpbind" rid="1573741822" sid="SomeSID"><iq xmlns="jabber:client" type="set" id="bind_1"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"><resource>balcony</resource></bind></iq></body>
            2026-11-23 09:30:12,212 DEBUG    RECV: <body xmlns="http://jabber.org/protocol/httpbind" sid="SomeSID"><iq xmlns="jabber:client" type="result" id="bind_1"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"><jid>juliet@capulet.lit/balcony</jid></bind></iq></body>
            2026-11-23 09:30:12,301 DEBUG    SEND: <body xmlns="http://jabber.org/protocol/httpbind" rid="1573741823" sid="SomeSID"/>
            2026-11-23 09:30:12,401 DEBUG    RECV: <body xmlns="http://jabber.org/protocol/httpbind" sid="SomeSID"><message xmlns="jabber:client" from="romeo@montague.lit/orchard" type="chat"><body>Hi</body></message><presence xmlns="jabber:client" from="romeo@montague.lit/orchard"/></body>

            """
        try assertStanzaq(["--log=slixmpp", "--fields", "line,direction", "-e", "/$", "-e", "/@id"], stdin: slixmpp,
                          stdout: "1\tout\tiq\tbind_1\n2\tin\tiq\tbind_1\n4\tin\tmessage\t\n4\tin\tpresence\t\n", status: 0)
        try assertStanzaq(["-c", "/{jabber:client}iq"], stdin: slixmpp, stdout: "2\n", status: 0)
        // A body logged over several lines: each stanza has the line where it starts.
        let pretty = """
            2026-11-23 09:30:12,104 DEBUG    SEND: <body xmlns="http://jabber.org/protocol/httpbind" rid="1573741822" sid="SomeSID">
              <iq xmlns="jabber:client" type="set" id="bind_1"/>
              <message xmlns="jabber:client" id="m1"><body>x</body></message>
            </body>
            2026-11-23 09:30:12,212 DEBUG    RECV: <body xmlns="http://jabber.org/protocol/httpbind" sid="SomeSID"><iq xmlns="jabber:client" type="result" id="bind_1"/></body>

            """
        try assertStanzaq(["--log=slixmpp", "--fields", "line,direction", "-e", "/$", "-e", "/@id"], stdin: pretty,
                          stdout: "2\tout\tiq\tbind_1\n3\tout\tmessage\tm1\n5\tin\tiq\tbind_1\n", status: 0)
        let generic = """
            12:00:01 xmpp: <open xmlns="urn:ietf:params:xml:ns:xmpp-framing" to="example.com" version="1.0"/>
            12:00:02 xmpp: <iq xmlns='jabber:client' id='i1' type='get'/>
            12:00:03 xmpp: <body xmlns='http://jabber.org/protocol/httpbind' sid='s'><message xmlns='jabber:client' id='m1'/></body>
            12:00:04 xmpp: <close xmlns="urn:ietf:params:xml:ns:xmpp-framing"/>

            """
        try assertStanzaq(["--fields", "line", "-e", "/$", "-e", "/@id"], stdin: generic, stdout: "2\tiq\ti1\n3\tmessage\tm1\n", status: 0)
    }
}
