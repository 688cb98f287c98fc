import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `qxmpp`: QXmppLogger's lines (`TIME SENT DATA`,
/// `TIME RECEIVED DATA`, Qt's `TextDate` time), the lines below as QXmpp 1.4
/// wrote them in the recorded session (Tests/Fixtures/real-logs/logs/qxmpp-dan.log,
/// checked whole in RealLogTests), the SCRAM data shortened.
final class QXmppLogTests: CLITestCase {
    private let recorded = """
        Sat Nov 28 04:06:17 2026 INFO Connecting to 127.0.0.1:16320
        Sat Nov 28 04:06:17 2026 SENT <?xml version='1.0'?><stream:stream to='localhost' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>
        Sat Nov 28 04:06:17 2026 RECEIVED <?xml version='1.0'?><stream:stream xml:lang='en' xmlns='jabber:client' version='1.0' xmlns:stream='http://etherx.jabber.org/streams' id='69d44838' from='localhost'><stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>
        Sat Nov 28 04:06:17 2026 SENT <auth xmlns="urn:ietf:params:xml:ns:xmpp-sasl" mechanism="SCRAM-SHA-256">biws</auth>
        Sat Nov 28 04:06:17 2026 DEBUG Authenticated
        Sat Nov 28 04:06:17 2026 SENT <iq id="qxmpp7" from="dan@localhost/qxmpp" type="get"><query xmlns="jabber:iq:roster"><annotate xmlns="urn:xmpp:mix:roster:0"/></query></iq>
        Sat Nov 28 04:06:17 2026 RECEIVED <iq to='dan@localhost/qxmpp' type='result' id='qxmpp7'><query xmlns='jabber:iq:roster' ver='1'/></iq><iq to='dan@localhost/qxmpp' type='result' id='dan-roster'><query xmlns='jabber:iq:roster' ver='1'/></iq><presence xml:lang='en' from='dan@localhost/qxmpp'/>
        Sat Nov 28 04:06:18 2026 SENT <message id="dan-pasted-log" to="cleo@localhost" type="chat"><body>pasted log lines follow:
        DEBUG    SEND: &lt;message id='fake'/&gt;
        conn DEBUG SENT: &lt;presence id='fake3'/&gt;
        end of paste</body></message>
        Sat Nov 28 04:06:18 2026 SENT </stream:stream>
        Sat Nov 28 04:06:18 2026 DEBUG Socket disconnected

        """

    func testTheRecordedLinesAreReadInBothDirections() throws {
        let expected = """
            3\tSat Nov 28 04:06:17 2026\tin\tfeatures\thttp://etherx.jabber.org/streams\t
            4\tSat Nov 28 04:06:17 2026\tout\tauth\turn:ietf:params:xml:ns:xmpp-sasl\t
            6\tSat Nov 28 04:06:17 2026\tout\tiq\tjabber:client\tqxmpp7
            7\tSat Nov 28 04:06:17 2026\tin\tiq\tjabber:client\tqxmpp7
            7\tSat Nov 28 04:06:17 2026\tin\tiq\tjabber:client\tdan-roster
            7\tSat Nov 28 04:06:17 2026\tin\tpresence\tjabber:client\t
            8\tSat Nov 28 04:06:18 2026\tout\tmessage\tjabber:client\tdan-pasted-log

            """
        for format in [[], ["--log"], ["--log=qxmpp"]] {
            try assertStanzaq(format + ["--fields", "line,time,direction", "-e", "/$", "-e", "/@xmlns", "-e", "/@id"], stdin: recorded,
                              stdout: expected, status: 0)
        }
    }

    /// The data of a write with newlines goes on in lines without the prefix,
    /// however like another program's records they look (the pasted-log body).
    func testAStanzaGoesOnOverLines() throws {
        try assertStanzaq(["--log", "body#"], stdin: recorded, stdout: """
            pasted log lines follow:
            DEBUG    SEND: <message id='fake'/>
            conn DEBUG SENT: <presence id='fake3'/>
            end of paste

            """, status: 0)
    }

    /// Qt's `TextDate` does not pad the day: the time is read as a date all the same.
    func testADayOfOneDigit() throws {
        let line = "Sun Nov 1 09:30:12 2026 SENT <presence id=\"p1\"/>\n"
        try assertStanzaq(["--fields", "time,direction", "/@id"], stdin: line,
                          stdout: "Sun Nov 1 09:30:12 2026\tout\tp1\n", status: 0)
        try assertStanzaq(["--fields", "time", "--time-format=iso", "--tz=UTC", "/@id"], stdin: line,
                          stdout: "2026-11-01T09:30:12Z\tp1\n", status: 0)
    }
}
