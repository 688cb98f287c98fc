import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `libpurple`: libpurple's debug output (Finch's and
/// Pidgin's `-d`): `jabber: Sending (ACCOUNT): DATA` (the data handed to the
/// socket, out) and `jabber: Recv (N): DATA` (one read of the socket, in; a
/// stanza may go on in the next read). The lines are Finch 2.14.12's, as it
/// wrote them in the recorded session (Tests/Fixtures/real-logs, RealLogTests).
final class LibpurpleLogTests: CLITestCase {
    /// The start of the recorded session: Finch's own lines between.
    private let start = """
        (03:57:35) proxy: Connected to 127.0.0.1:16210.
        (03:57:35) jabber: Sending (wanda@localhost/finch): <?xml version='1.0' ?>
        (03:57:35) jabber: Sending (wanda@localhost/finch): <stream:stream to='localhost' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>
        (03:57:35) jabber: Recv (249): <?xml version='1.0'?><stream:stream xml:lang='en' from='localhost' version='1.0' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' id='0757d14f'><stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>
        (03:57:35) sasl: Mechs found: PLAIN SCRAM-SHA-1 SCRAM-SHA-256
        (03:57:35) jabber: Sending (wanda@localhost/finch): <auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='SCRAM-SHA-256' xmlns:ga='http://www.google.com/talk/protocol/auth' ga:client-uses-full-bind-result='true'>password removed</auth>
        (03:57:35) jabber: Recv (66): <iq type='result' to='wanda@localhost/finch' id='purple1f10a260'/>

        """

    func testBothDirectionsWithTheAccountAndTheTime() throws {
        let expected = """
            4\t03:57:35\tin\twanda@localhost/finch\tfeatures\t
            6\t03:57:35\tout\twanda@localhost/finch\tauth\t
            7\t03:57:35\tin\twanda@localhost/finch\tiq\tpurple1f10a260

            """
        for format in [[], ["--log"], ["--log=libpurple"]] {
            try assertStanzaq(format + ["--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id"], stdin: start,
                              stdout: expected, status: 0)
        }
        // The stream header declares jabber:client; the read after it is in it.
        try assertStanzaq(["--direction", "in", "-c", "/{jabber:client}iq"], stdin: start, stdout: "1\n", status: 0)
    }

    /// A read of 4095 bytes ends inside a body; the next read goes on with it.
    /// A body with newlines goes on in lines without the prefix, the empty one too.
    func testAStanzaOverTwoReadsAndOverLines() throws {
        let long = String(repeating: "0123456789", count: 5)
        let log = """
            (03:57:40) jabber: Sending (wanda@localhost/finch): <message type='chat' id='purple1f10a269' to='xena@localhost'><active xmlns='http://jabber.org/protocol/chatstates'/><body>line one
            line two

            line four after an empty line</body></message>
            (03:57:41) jabber: Recv (4095): <message to='wanda@localhost/finch' from='xena@localhost/slixmpp-echoer' xml:lang='en' type='chat' id='echo-purple1f10a26c'><body>long \(long)
            (03:57:41) jabber: Unable to find caps: buddy might be offline
            (03:57:41) jabber: Recv (138): \(long)</body><stanza-id by='wanda@localhost' xmlns='urn:xmpp:sid:0' id='UcRw_F1kHl192TX6q21TjBZl'/></message>

            """
        try assertStanzaq(["--fields", "line,time,direction,session", "-e", "/@id", "-e", "body#"], stdin: log, stdout: """
            1\t03:57:40\tout\twanda@localhost/finch\tpurple1f10a269\tline one\\nline two\\n\\nline four after an empty line
            5\t03:57:41\tin\twanda@localhost/finch\techo-purple1f10a26c\tlong \(long)\(long)

            """, status: 0)
    }

    /// A read names no account: it is the account of the last line sent.
    /// Over TLS, `Sending (ssl) (ACCOUNT):` and `Recv (ssl)(N):`.
    func testTLSAndTwoAccounts() throws {
        let log = """
            (10:00:00) jabber: Sending (ssl) (romeo@montague.lit/orchard): <presence id='p1'/>
            (10:00:01) jabber: Recv (ssl)(20): <presence id='p2'/>
            (10:00:02) jabber: Sending (ssl) (juliet@capulet.lit/balcony): <presence id='p3'/>
            (10:00:03) jabber: Recv (ssl)(20): <presence id='p4'/>
            (10:00:04) jabber: RecvSASL (20): <presence id='p5'/>

            """
        try assertStanzaq(["--fields", "time,direction,session", "/@id"], stdin: log, stdout: """
            10:00:00\tout\tromeo@montague.lit/orchard\tp1
            10:00:01\tin\tromeo@montague.lit/orchard\tp2
            10:00:02\tout\tjuliet@capulet.lit/balcony\tp3
            10:00:03\tin\tjuliet@capulet.lit/balcony\tp4
            10:00:04\tin\tjuliet@capulet.lit/balcony\tp5

            """, status: 0)
    }

    /// libpurple before 2.6 wrote no time unless asked, and `Sending: ` without the account.
    func testOlderLines() throws {
        let log = """
            jabber: Sending: <presence id='p1'/>
            jabber: Recv (20): <presence id='p2'/>

            """
        try assertStanzaq(["--log=libpurple", "--fields", "time,direction,session", "/@id"], stdin: log, stdout: """
            \tout\t\tp1
            \tin\t\tp2

            """, status: 0)
    }

    /// Finch's own lines, and a pasted log in a body: no record.
    func testOtherLinesAreNoRecords() throws {
        let log = """
            (03:57:41) jabber: Sending (wanda@localhost/finch): <message type='chat' id='purple1f10a26f' to='xena@localhost/slixmpp-echoer'><body>pasted log lines follow:
            DEBUG    SEND: &lt;message id=&apos;fake&apos;/&gt;
            Jan 01 00:00:00 c2s55d0c0ffee00\tdebug\tRECV: &lt;iq id=&apos;fake2&apos; type=&apos;get&apos;/&gt;
            end of paste</body></message>
            (03:57:43) account: Disconnecting account wanda@localhost/finch (0x555dc151b150)
            (03:57:43) jabber: Sending (wanda@localhost/finch): </stream:stream>

            """
        try assertStanzaq(["-c", "/"], stdin: log, stdout: "1\n", status: 0)
    }
}
