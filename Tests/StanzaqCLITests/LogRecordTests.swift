import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, "Records": a line starts a record only with the prefix the
/// log's records have; where the prefix has no time stamp, a record-looking line
/// inside an open stanza is text if the stanza closes within 64 lines; a start
/// tag and its whole stanza are one stanza whatever the order of attributes;
/// libstrophe's log.
final class LogRecordTests: CLITestCase {
    /// The real-logs issue's second example: a chat body holding a pasted log line.
    private func pasted(time: String) -> String {
        """
        \(time)DEBUG    SEND: <message id="m1"><body>pasted:
        DEBUG    SEND: &lt;message id='fake'/&gt;
        end</body></message>
        \(time)DEBUG    RECV: <iq id="i1"/>

        """
    }

    func testALineWithoutTheRecordsTimeStampStartsNoRecord() throws {
        try assertStanzaq(["-e", "/@id", "-e", "body#"], stdin: pasted(time: "2026-11-25 19:05:22,991 "),
                          stdout: "m1\tpasted:\\nDEBUG    SEND: <message id='fake'/>\\nend\ni1\t\n", status: 0)
    }

    func testWithoutATimeStampARecordLookingLineThatLetsTheStanzaCloseIsItsText() throws {
        try assertStanzaq(["-e", "/@id", "-e", "body#"], stdin: pasted(time: ""),
                          stdout: "m1\tpasted:\\nDEBUG    SEND: <message id='fake'/>\\nend\ni1\t\n", status: 0)
    }

    /// A stanza cut off, then real records: the stanza is damaged, the records read.
    func testAStanzaARealRecordCutsOffIsDamagedAndTheRecordRead() throws {
        try assertStanzaq(["-e", "/@id"], stdin: """
            DEBUG    SEND: <message id="m1"><body>cut off
            DEBUG    RECV: <iq id="i1"/>
            DEBUG    RECV: <iq id="i2"/>

            """, stdout: "i1\ni2\n",
            stderr: "(standard input):1:16: <message> is not closed (the log record ends at 1:46, inside <body>)\n", status: 2)
    }

    /// The look-ahead: the record-looking line and the 63 lines after it. A stanza
    /// that closes later is damaged, and the line was a record.
    func testTheLookAheadIsSixtyFourLines() throws {
        func log(_ lines: Int) -> String {
            "DEBUG    SEND: <message id=\"m1\"><body>pasted:\nDEBUG    SEND: <message id='fake'/>\n"
                + (1...lines).map { "line \($0)\n" }.joined() + "end</body></message>\nDEBUG    RECV: <iq id=\"i1\"/>\n"
        }
        try assertStanzaq(["-e", "/@id"], stdin: log(62), stdout: "m1\ni1\n", status: 0)
        try assertStanzaq(["-e", "/@id"], stdin: log(63), stdout: "fake\ni1\n",
                          stderr: "(standard input):1:16: <message> is not closed (the log record ends at 1:46, inside <body>)\n", status: 2)
    }

    func testLibstrophesLog() throws {
        let log = """
            xmpp DEBUG connection successful
            conn DEBUG SENT: <?xml version="1.0"?><stream:stream to="localhost" xml:lang="en" version="1.0" xmlns="jabber:client" xmlns:stream="http://etherx.jabber.org/streams">
            xmpp DEBUG RECV: <stream:stream version="1.0" lang="en" from="localhost" id="s1">
            conn DEBUG SENT: <iq id="dave-ping" to="localhost" type="get"><ping xmlns="urn:xmpp:ping"/></iq>
            xmpp DEBUG RECV: <iq id="dave-ping" type="result" from="localhost"/>
            xmpp DEBUG RECV: <message id="m2" type="chat"><body>two
            lines</body></message>

            """
        try assertStanzaq(["--fields", "direction", "-e", "/{jabber:client}*@id", "-e", "/$"], stdin: log,
                          stdout: "out\tdave-ping\tiq\nin\tdave-ping\tiq\nin\tm2\tmessage\n", status: 0)
        try assertStanzaq(["--log=libstrophe", "body#"], stdin: log, stdout: "two\nlines\n", status: 0)
    }

    private let prosody = """
        Nov 25 19:05:14 c2s1\tdebug\tRECV: <presence xml:lang='en' id='p1'/>
        Nov 25 19:05:14 c2s1\tdebug\tReceived[c2s]: <presence id='p1' xml:lang='en'>
        Nov 25 19:05:14 c2s1\tdebug\tSending[c2s]: <iq type='result' to='a@localhost/r' from='localhost' id='i1'>
        Nov 25 19:05:14 c2s1\tdebug\tSEND: <iq type='result' from='localhost' to='a@localhost/r' id='i1'/>
        Nov 25 19:05:20 c2s1\tdebug\tReceived[c2s]: <presence type='unavailable'>

        """

    /// Prosody's start tags and whole stanzas order attributes differently; a
    /// start tag alone where whole stanzas are logged was never on the wire.
    func testProsodysStartTagsAndWholeStanzasInAnyAttributeOrderAreOne() throws {
        try assertStanzaq(["--fields", "direction", "-e", "/$", "-e", "/@id", "-e", "/@type"], stdin: prosody,
                          stdout: "in\tpresence\tp1\t\nout\tiq\ti1\tresult\n", status: 0)
        // Without mod_stanza_debug, the start tags are the stanzas.
        let startTagsOnly = prosody.split(separator: "\n").filter { !$0.contains("SEND:") && !$0.contains("RECV:") }
            .joined(separator: "\n") + "\n"
        try assertStanzaq(["--fields", "direction", "-e", "/$", "-e", "/@id", "-e", "/@type"], stdin: startTagsOnly,
                          stdout: "in\tpresence\tp1\t\nout\tiq\ti1\tresult\nin\tpresence\t\tunavailable\n", status: 0)
    }
}
