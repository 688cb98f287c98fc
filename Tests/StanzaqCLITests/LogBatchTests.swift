import Foundation
import StanzaqTestSupport
import XCTest

/// Records of whole stanzas (Prosody's `SEND:`/`RECV:`) are read together, by a
/// reader shared by the channels of a stream, unless a record is not read there
/// as its own channel reads it (stanzaq(1), LOGS): what is read is the same
/// either way — stanzas, their fields, damage and where it is told.
final class LogBatchTests: CLITestCase {
    /// Damage in one record among clean ones: reported where it is, in log order with the stanzas, and the records after it read.
    func testDamageAmongRecordsReadTogether() throws {
        let log = """
            Nov 23 00:00:01 c2s1\tdebug\tRECV: <iq id="a"/>
            Nov 23 00:00:02 c2s2\tdebug\tRECV: <iq id="b"><x></iq>
            Nov 23 00:00:03 c2s1\tdebug\tSEND: <iq id="c"/>
            Nov 23 00:00:04 c2s2\tdebug\tRECV: <iq id="d"/>
            Nov 23 00:00:05 c2s3\tdebug\tRECV: <iq id="e"/><iq id="f">
            Nov 23 00:00:06 c2s3\tdebug\tRECV: <iq id="g"/>
            """ + "\n"
        try assertStanzaq(["--fields", "line,direction,session", "-e", "/$", "-e", "/@id"], stdin: log, stdout: """
            1\tin\tc2s1\tiq\ta
            3\tout\tc2s1\tiq\tc
            4\tin\tc2s2\tiq\td
            5\tin\tc2s3\tiq\te
            6\tin\tc2s3\tiq\tg
            """ + "\n",
                          stderr: "(standard input):2:53: Opening and ending tag mismatch: x line 2 and iq\n(standard input):5:46: <iq> is not closed (the log record ends at 5:57)\n", status: 2)
    }

    /// A stanza over two lines, between one-line records of other sessions: read by its channel, the others together; each stanza on its own line, with its fields.
    func testMultiLineStanzaAmongOtherSessions() throws {
        let log = """
            Nov 23 00:00:01 c2s1\tdebug\tRECV: <message id="m1"><body>a
            \tb</body></message>
            Nov 23 00:00:02 c2s2\tdebug\tSEND: <iq id="i1"/>
            Nov 23 00:00:03 c2s1\tdebug\tSEND: <iq id="i2"/><iq id="i3"/>
            Nov 23 00:00:04 c2s3\tdebug\tRECV: <message id="m2"><body>x</body></message>
            """ + "\n"
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id"], stdin: log, stdout: """
            {"line":1,"time":"Nov 23 00:00:01","direction":"in","session":"c2s1","value":["message","m1"]}
            {"line":3,"time":"Nov 23 00:00:02","direction":"out","session":"c2s2","value":["iq","i1"]}
            {"line":4,"time":"Nov 23 00:00:03","direction":"out","session":"c2s1","value":["iq","i2"]}
            {"line":4,"time":"Nov 23 00:00:03","direction":"out","session":"c2s1","value":["iq","i3"]}
            {"line":5,"time":"Nov 23 00:00:04","direction":"in","session":"c2s3","value":["message","m2"]}
            """ + "\n",
                          stderr: "", status: 0)
    }

    /// Text after a record's stanza that libxml2 holds back (an entity reference not yet ended) stays with its channel: its next record reads on from it.
    func testTextHeldBackByAChannel() throws {
        let log = """
            Nov 23 00:00:01 c2s1\tdebug\tRECV: <iq id="a"/>foo &bar
            Nov 23 00:00:02 c2s2\tdebug\tRECV: <iq id="b"/>
            Nov 23 00:00:03 c2s1\tdebug\tRECV: <iq id="c"/>
            Nov 23 00:00:04 c2s1\tdebug\tRECV: <iq id="d"/>
            """ + "\n"
        try assertStanzaq(["--fields", "line,session", "-e", "/@id"], stdin: log, stdout: """
            1:c2s1\ta
            2:c2s2\tb
            3:c2s1\tc
            4:c2s1\td
            """ + "\n",
                          stderr: "(standard input):3:34: EntityRef: expecting ';'\n", status: 2)
    }

    /// A record that ends inside its stanza is cut off there, even when the next record of its channel would close it.
    func testStanzaLeftOpenByARecord() throws {
        let log = """
            Nov 23 00:00:01 c2s1\tdebug\tRECV: <message id="a"><body>
            Nov 23 00:00:02 c2s2\tdebug\tRECV: <iq id="b"/>
            Nov 23 00:00:03 c2s1\tdebug\tRECV: </body></message>
            Nov 23 00:00:04 c2s1\tdebug\tRECV: <iq id="d"/>
            """ + "\n"
        try assertStanzaq(["--fields", "line,session", "-e", "/@id"], stdin: log, stdout: """
            2:c2s2\tb
            4:c2s1\td
            """ + "\n",
                          stderr: "(standard input):1:34: <message> is not closed (the log record ends at 1:56, inside <body>)\n(standard input):3:41: Opening and ending tag mismatch: stream line 3 and body\n", status: 2)
    }

    /// A stanza that stops the reading (-m) among records read together: nothing after it is read, not even damage.
    func testStopAmongRecordsReadTogether() throws {
        let log = """
            Nov 23 00:00:01 c2s1\tdebug\tRECV: <iq id="a"/>
            Nov 23 00:00:02 c2s2\tdebug\tRECV: <iq id="b"><x></iq>
            Nov 23 00:00:03 c2s1\tdebug\tSEND: <iq id="c"/>
            """ + "\n"
        try assertStanzaq(["-m", "1", "--fields", "line", "-e", "/@id"], stdin: log, stdout: "1:a\n", status: 0)
    }
}
