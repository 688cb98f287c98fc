import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `mcabber`: mcabber's trace log, whose loudmouth `LM-NET:`
/// blocks (`SEND:` and `RECV [N]:`, the data between two lines of `-`) are the
/// bytes written and read, a read quoted. The generic format read them without
/// a direction and took each read's quotes for data. The recorded log is in
/// RealLogTests.
final class McabberLogTests: CLITestCase {
    /// Lines as mcabber 1.1.2 wrote them (Tests/Fixtures/real-logs/logs/mcabber-quinn.log, shortened).
    private let log = """
        New trace log started.  MCabber version 1.1.2
        ----------------------
        [2026-11-28 04:18:19] LM-NET: SEND:
        [2026-11-28 04:18:19] LM-NET: -----------------------------------
        [2026-11-28 04:18:19] LM-NET: <stream:stream version="1.0" xmlns="jabber:client" xmlns:stream="http://etherx.jabber.org/streams" to="localhost">
        [2026-11-28 04:18:19] LM-NET: -----------------------------------
        [2026-11-28 04:18:19] LM-NET: RECV [51]:
        [2026-11-28 04:18:19] LM-NET: -----------------------------------
        [2026-11-28 04:18:19] LM-NET: '<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>'
        [2026-11-28 04:18:19] LM-NET: -----------------------------------
        [2026-11-28 04:18:19] LM-VERBOSE: Read: 51 chars
        [2026-11-28 04:18:19] Unhandled IQ result? <iq id="151565454991" to="quinn@localhost/mcabber" type="result"></iq>
        [2026-11-28 04:18:19] LM-NET: SEND:
        [2026-11-28 04:18:19] LM-NET: -----------------------------------
        [2026-11-28 04:18:19] LM-NET: <message type="chat" to="rita@localhost" id="545297643901"><body>line one
        line two'

        line four after an empty line</body></message>
        [2026-11-28 04:18:19] LM-NET: -----------------------------------
        [2026-11-28 04:18:19] LM-NET: RECV [94]:
        [2026-11-28 04:18:19] LM-NET: -----------------------------------
        [2026-11-28 04:18:19] LM-NET: '<message from='rita@localhost' type='chat' id='echo-545297643901'><body>one'
        two</bo'
        [2026-11-28 04:18:19] LM-NET: -----------------------------------
        [2026-11-28 04:18:20] LM-NET: RECV [17]:
        [2026-11-28 04:18:20] LM-NET: -----------------------------------
        [2026-11-28 04:18:20] LM-NET: 'dy></message>'
        [2026-11-28 04:18:20] LM-NET: -----------------------------------

        """

    func testTheBlocksAreReadInBothDirections() throws {
        let expected = """
            9\t2026-11-28 04:18:19\tin\tsuccess\t
            15\t2026-11-28 04:18:19\tout\tmessage\t545297643901
            22\t2026-11-28 04:18:19\tin\tmessage\techo-545297643901

            """
        for format in [[], ["--log"], ["--log=mcabber"]] {
            try assertStanzaq(format + ["--fields", "line,time,direction", "-e", "/$", "-e", "/@id"], stdin: log,
                              stdout: expected, status: 0)
        }
    }

    /// A read's closing quote is not data, a quote that ends another line of
    /// it is, and a read that ended inside a stanza goes on in the next read.
    func testAQuoteEndsAReadOnlyOnItsLastLine() throws {
        try assertStanzaq(["--json", "body#"], stdin: log, stdout: """
            "line one\\nline two'\\n\\nline four after an empty line"
            "one'\\ntwo"

            """, status: 0)
    }
}
