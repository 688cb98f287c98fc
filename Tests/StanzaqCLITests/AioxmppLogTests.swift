import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `aioxmpp`: aioxmpp's `SENT b'…'` and `RECV b"…"` lines,
/// the bytes of the stream as Python bytes literals. The lines here are as
/// aioxmpp 0.13.3 wrote them in the recorded session (RealLogTests reads all of
/// it against the capture).
final class AioxmppLogTests: CLITestCase {
    /// Lines 130, 133, 138, 140 and 145 of the recorded log: `\n` in a body,
    /// `\'` in a `b'…'` literal, `b"…"` around Prosody's single quotes, and UTF-8
    /// as `\xHH` bytes.
    private let recorded = #"""
        2026-11-28 03:58:49,311 DEBUG:aioxmpp.node.Client.XMLStream:SENT b'<message to="leo@localhost" id="kim-multiline" type="chat"><body>line one\nline two\n\nline four after an empty line</body></message>'
        2026-11-28 03:58:49,326 DEBUG:aioxmpp.node.Client.XMLStream:RECV b"<message type='chat' to='kim@localhost/aioxmpp' xml:lang='en' from='leo@localhost/slixmpp-echoer' id='echo-kim-multiline'><body>line one\nline two\n\nline four after an empty line</body><stanza-id by='kim@localhost' xmlns='urn:xmpp:sid:0' id='04gOrJj7fkN5EA963g8MR8zY'/></message>"
        2026-11-28 03:58:49,328 DEBUG:aioxmpp.node.Client.XMLStream:SENT b'<message to="leo@localhost" id="kim-specials" type="chat"><body>less &lt; than, amp &amp; amp, \'single\' and "double" quotes, greater &gt; than</body></message>'
        2026-11-28 03:58:49,342 DEBUG:aioxmpp.node.Client.XMLStream:RECV b"<message type='chat' to='kim@localhost/aioxmpp' xml:lang='en' from='leo@localhost/slixmpp-echoer' id='echo-kim-specials'><body>less &lt; than, amp &amp; amp, &apos;single&apos; and &quot;double&quot; quotes, greater &gt; than</body><stanza-id by='kim@localhost' xmlns='urn:xmpp:sid:0' id='JD9ScZWO02KbhCixrM-dJsBm'/></message>"
        2026-11-28 03:58:49,343 DEBUG:aioxmpp.node.Client.XMLStream:SENT b'<message to="leo@localhost" id="kim-unicode" type="chat"><body>non-ASCII: \xc3\xa9 \xc3\xbc \xe6\x97\xa5\xe6\x9c\xac and an emoji \xf0\x9f\x98\x80 done</body></message>'

        """#

    func testTheRecordedLinesAreDecoded() throws {
        let expected = """
            {"line":1,"time":"2026-11-28 03:58:49,311","direction":"out","value":["kim-multiline","line one\\nline two\\n\\nline four after an empty line"]}
            {"line":2,"time":"2026-11-28 03:58:49,326","direction":"in","value":["echo-kim-multiline","line one\\nline two\\n\\nline four after an empty line"]}
            {"line":3,"time":"2026-11-28 03:58:49,328","direction":"out","value":["kim-specials","less < than, amp & amp, 'single' and \\"double\\" quotes, greater > than"]}
            {"line":4,"time":"2026-11-28 03:58:49,342","direction":"in","value":["echo-kim-specials","less < than, amp & amp, 'single' and \\"double\\" quotes, greater > than"]}
            {"line":5,"time":"2026-11-28 03:58:49,343","direction":"out","value":["kim-unicode","non-ASCII: é ü 日本 and an emoji 😀 done"]}

            """
        for format in [[], ["--log"], ["--log=aioxmpp"]] {
            try assertStanzaq(format + ["--json", "--fields", "line,time,direction", "-e", "/@id", "-e", "body#"], stdin: recorded,
                              stdout: expected, status: 0)
        }
        // Stanzas without a namespace of their own are in the client's stream's.
        try assertStanzaq(["-c", "/{jabber:client}message<type=chat>"], stdin: recorded, stdout: "5\n", status: 0)
    }

    /// A read of the socket that ends inside a stanza goes on in the next record
    /// of its direction, past a record of the other direction and aioxmpp's
    /// other lines (which show stanzas in their own notation); the comment
    /// written in place of what SASL sends, and an empty write, are no stanza.
    func testAStanzaOverTwoReadsIsJoined() throws {
        let log = #"""
            2026-11-28 03:58:49,217 DEBUG:aioxmpp.node.Client.XMLStream:SENT b'<!-- some bytes omitted -->'
            2026-11-28 03:58:49,220 DEBUG:aioxmpp.node.Client.XMLStream:RECV b"<message id='m1' type='chat'><body>first half, "
            2026-11-28 03:58:49,221 DEBUG:aioxmpp.node.Client.XMLStream:SENT b'<presence id="p1"/>'
            2026-11-28 03:58:49,222 DEBUG:aioxmpp.StanzaStream:incoming message: <message from='x@y' id='m0' type=<MessageType.CHAT: 'chat'>>
            2026-11-28 03:58:49,223 DEBUG:aioxmpp.node.Client.XMLStream:RECV b'second half</body></message><iq id="i1" type="result"/>'
            2026-11-28 03:58:49,234 DEBUG:aioxmpp.node.Client.XMLStream:SENT b''

            """#
        try assertStanzaq(["--fields", "line,time,direction", "-e", "/$", "-e", "/@id", "-e", "body#"], stdin: log, stdout: """
            3\t2026-11-28 03:58:49,221\tout\tpresence\tp1\t
            2\t2026-11-28 03:58:49,220\tin\tmessage\tm1\tfirst half, second half
            5\t2026-11-28 03:58:49,223\tin\tiq\ti1\t

            """, status: 0)
    }

    /// `logging.basicConfig(level=logging.DEBUG)`'s prefix, without a time;
    /// `\\` is a backslash, and an escape Python does not know is kept as written.
    func testTheDefaultPrefixAndBackslashes() throws {
        let log = #"""
            DEBUG:aioxmpp.XMLStream:SENT b'<iq id="a1" type="get"><query xmlns="jabber:iq:roster"/></iq>'
            DEBUG:aioxmpp.XMLStream:RECV b"<iq type='result' id='a1'><query xmlns='jabber:iq:roster'><item jid='x@y' name='back\\slash \q'/></query></iq>"

            """#
        try assertStanzaq(["--json", "--fields", "direction", "-e", "/@id", "-e", "{jabber:iq:roster}query/item@name"], stdin: log,
                          stdout: #"""
                          {"direction":"out","value":["a1",null]}
                          {"direction":"in","value":["a1","back\\slash \\q"]}

                          """#, status: 0)
    }

    /// A quote lost in a record costs that stanza, reported at the column where
    /// the record's bytes start (they are decoded): the next record is read.
    func testADamagedRecordCostsItsStanza() throws {
        let log = #"""
            2026-11-28 03:58:49,252 DEBUG:aioxmpp.node.Client.XMLStream:SENT b'<iq to="localhost id="kim-disco" type="get"><query xmlns="http://jabber.org/protocol/disco#info"/></iq>'
            2026-11-28 03:58:49,275 DEBUG:aioxmpp.node.Client.XMLStream:SENT b'<iq to="localhost" id="kim-ping" type="get"><ping xmlns="urn:xmpp:ping"/></iq>'

            """#
        try assertStanzaq(["/@id"], stdin: log, stdout: "kim-ping\n",
                          stderr: "(standard input):1:68: attributes construct error\n", status: 2)
    }
}
