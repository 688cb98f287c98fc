import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `profanity`: Profanity's log, whose `conn: DBG: SENT:` and
/// `xmpp: DBG: RECV:` lines are libstrophe's under Profanity's prefix. The
/// issue's report: it was taken for slixmpp's (whose `RECV: <` its received
/// lines hold) and only the received stanzas were read; `--log=libstrophe`
/// read none. The recorded log is in RealLogTests.
final class ProfanityLogTests: CLITestCase {
    /// The issue's lines.
    private let issue = """
        2024-01-05T12:00:00.123456+01: xmpp: DBG: RECV: <iq id="r1" type="result" from="localhost"/>
        2024-01-05T12:00:00.223456+01: conn: DBG: SENT: <iq id="s1" type="get" to="localhost"><ping xmlns="urn:xmpp:ping"/></iq>

        """

    func testTheIssuesLinesAreReadInBothDirections() throws {
        let expected = """
            1\t2024-01-05T12:00:00.123456+01\tin\tiq\tr1
            2\t2024-01-05T12:00:00.223456+01\tout\tiq\ts1

            """
        for format in [[], ["--log"], ["--log=profanity"]] {
            try assertStanzaq(format + ["--fields", "line,time,direction", "-e", "/$", "-e", "/@id"], stdin: issue,
                              stdout: expected, status: 0)
        }
        // Stanzas without a namespace of their own are in the client's stream's.
        try assertStanzaq(["--direction", "out", "-c", "/{jabber:client}iq/{urn:xmpp:ping}ping"], stdin: issue,
                          stdout: "1\n", status: 0)
    }

    /// A time in UTC ends in `Z`, as `g_date_time_format_iso8601` writes it.
    func testATimeInUTC() throws {
        try assertStanzaq(["--json", "--fields", "time,direction", "/@id"],
                          stdin: "2026-11-27T20:23:27.669070Z: conn: DBG: SENT: <presence id=\"p1\"/>\n",
                          stdout: "{\"time\":\"2026-11-27T20:23:27.669070Z\",\"direction\":\"out\",\"value\":\"p1\"}\n", status: 0)
    }

    func testTheSample() throws {
        try assertStanzaq(["--json", "--fields", "line,time,direction", "-e", "/$", "-e", "/@id", "logs/profanity.log"], stdout: """
            {"line":5,"time":"2026-11-23T09:30:12.213005+01","direction":"in","value":["features",null]}
            {"line":6,"time":"2026-11-23T09:30:12.301377+01","direction":"out","value":["iq","_xmpp_bind1"]}
            {"line":7,"time":"2026-11-23T09:30:12.402618+01","direction":"in","value":["iq","_xmpp_bind1"]}
            {"line":9,"time":"2026-11-23T09:30:12.510220+01","direction":"in","value":["message","msg1"]}
            {"line":13,"time":"2026-11-23T09:30:13.001554+01","direction":"out","value":["message","msg2"]}
            """ + "\n", status: 0)
        try assertStanzaq(["--direction", "in", "body#", "logs/profanity.log"],
                          stdout: "Shall I hear more,\nor shall I speak at this?\n", status: 0)
    }

    /// Profanity logs each line typed (`Input received:`): a pasted log in a
    /// chat message goes on in lines without the prefix, after a line of
    /// Profanity's own, and none of them is a record, however like one it looks.
    func testTypedTextIsNoRecord() throws {
        let log = """
            2026-11-27T21:25:53.120000+01: conn: DBG: SENT: <message id="m1" type="chat"><body>x</body></message>
            2026-11-27T21:25:53.121000+01: prof: DBG: Input received: pasted log lines follow:
            DEBUG    SEND: <message id='fake'/>
            conn DEBUG SENT: <presence id='fake3'/>
            end of paste
            2026-11-27T21:25:53.130000+01: xmpp: DBG: RECV: <message id="echo-m1" type="chat"><body>x</body></message>

            """
        try assertStanzaq(["--fields", "line,direction", "/@id"], stdin: log, stdout: "1:out\tm1\n6:in\techo-m1\n", status: 0)
    }

    /// A byte of a record damaged (a quote lost) costs that stanza, reported at
    /// its column in the line: the next record is read.
    func testADamagedRecordCostsItsStanza() throws {
        let log = """
            2026-11-27T21:25:53.120000+01: conn: DBG: SENT: <message id="m1 type="chat"><body>x</body></message>
            2026-11-27T21:25:53.130000+01: xmpp: DBG: RECV: <message id="m2" type="chat"><body>y</body></message>

            """
        try assertStanzaq(["/@id"], stdin: log, stdout: "m2\n",
                          stderr: "(standard input):1:71: attributes construct error\n", status: 2)
    }
}
