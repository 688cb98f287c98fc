import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `tigase`: Tigase XMPP Server's log at `FINEST`, as
/// tigase/tigase-server's LogFormatter (`format()`) writes XMPPIOService's lines:
/// `READ:` (one read of the socket, in), `SENT: ` (a stanza written, out) and
/// `Sending data: ` (the stream's header, out), the service between brackets
/// at the end of the message, its `UniqueId` the session.
final class TigaseLogTests: CLITestCase {
    private static let service = "[jid: juliet@capulet.lit/balcony, XMPPIOService, UniqueId: 127.0.0.1_5222_127.0.0.1_48122, "
        + "type: <- incoming (accept), SocketIO, ID: c2s@capulet.lit/127.0.0.1_5222_127.0.0.1_48122, "
        + "connected Socket[addr=/127.0.0.1,port=48122,localport=5222]]"

    /// The sample: both directions, the time and the connection; `Sending
    /// packet:` and `Read packet:`, which log the same stanzas again, are text.
    func testTheSampleInBothDirections() throws {
        let expected = """
            4\t2026-11-28 05:11:02:120\tout\t127.0.0.1_5222_127.0.0.1_48122\tfeatures\t
            5\t2026-11-28 05:11:02:131\tin\t127.0.0.1_5222_127.0.0.1_48122\tauth\t
            7\t2026-11-28 05:11:02:152\tout\t127.0.0.1_5222_127.0.0.1_48122\tsuccess\t
            10\t2026-11-28 05:11:02:170\tout\t127.0.0.1_5222_127.0.0.1_48122\tfeatures\t
            11\t2026-11-28 05:11:02:181\tin\t127.0.0.1_5222_127.0.0.1_48122\tiq\tbind_1
            12\t2026-11-28 05:11:02:190\tout\t127.0.0.1_5222_127.0.0.1_48122\tiq\tbind_1
            13\t2026-11-28 05:11:02:204\tin\t127.0.0.1_5222_127.0.0.1_48122\tiq\troster_1
            13\t2026-11-28 05:11:02:204\tin\t127.0.0.1_5222_127.0.0.1_48122\tpresence\t
            14\t2026-11-28 05:11:02:211\tout\t127.0.0.1_5222_127.0.0.1_48122\tiq\troster_1
            15\t2026-11-28 05:11:03:502\tout\t127.0.0.1_5222_127.0.0.1_48122\tpresence\t
            16\t2026-11-28 05:11:04:017\tout\t127.0.0.1_5222_127.0.0.1_48122\tmessage\t5a55dac8
            18\t2026-11-28 05:11:04:733\tin\t127.0.0.1_5222_127.0.0.1_48122\tmessage\tm2

            """
        for format in [[], ["--log"], ["--log=tigase"]] {
            try assertStanzaq(format + ["--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/tigase.log"],
                              stdout: expected, status: 0)
        }
        try assertStanzaq(["--fields", "line", "-e", "/@id", "-e", "body#", "logs/tigase.log"], stdout: """
            11\tbind_1\t
            12\tbind_1\t
            13\troster_1\t
            14\troster_1\t
            16\t5a55dac8\tLady, by yonder <b>blessed</b> moon I swear\\nThat tips with silver all these fruit-tree tops & the wall.
            18\tm2\tO, swear not by the moon,\\nthe inconstant moon <3

            """, status: 0)
    }

    /// A read that ends inside a stanza goes on in the next read; a body with a
    /// newline goes on in a line without the prefix, the service after its
    /// last line; the stream's end is data, the words after it are not.
    func testAStanzaOverTwoReadsAndOverLines() throws {
        let prefix = "[2026-11-28 05:11:04:733] [FINEST  ] [       pool-2-thread-5 ] XMPPIOService.processSocketData(): "
        let log = """
            \(prefix)READ:<message id='m1'><body>two  \(Self.service)
            \(prefix)READ:halves</body></message> \(Self.service)
            [2026-11-28 05:11:04:017] [FINEST  ] [              in_0-c2s ] XMPPIOService.processWaitingPackets(): SENT: <message id="m2"><body>line one
            line two [jid: ] not yet</body></message> \(Self.service)
            [2026-11-28 05:11:05:882] [FINEST  ] [       pool-2-thread-5 ] XMPPIOService.xmppStreamClosed() : Sending data: </stream:stream>, as socket is still connected \(Self.service)

            """
        try assertStanzaq(["--fields", "line,direction,session", "-e", "/@id", "-e", "body#"], stdin: log, stdout: """
            1\tin\t127.0.0.1_5222_127.0.0.1_48122\tm1\ttwo halves
            3\tout\t127.0.0.1_5222_127.0.0.1_48122\tm2\tline one\\nline two [jid: ] not yet

            """, status: 0)
    }
}
