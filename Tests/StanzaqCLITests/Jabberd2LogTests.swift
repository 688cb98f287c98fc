import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `jabberd2`: jabberd2's debug output (`c2s -D` of a build
/// with `--enable-debug`), built from source: jabberd2 2.7.0's sx/io.c
/// (`sx_can_read()`: `sx (io.c:266) decoded read data (N bytes): DATA`, in;
/// `_sx_get_pending_write()`: `sx (io.c:312) encoding N bytes for writing: DATA`,
/// out), sx/sx.c (`__sx_debug()`, `__sx_event()`) and util/log.c
/// (`debug_log()`: ctime's time, then `FILE:LINE`). The lines are those of
/// examples/logs/jabberd2.log.
final class Jabberd2LogTests: CLITestCase {
    /// A read of the client's stream header and of its SASL `<auth>`, with the
    /// lines that repeat them (`prepared stream response:`, `completed nad:`), text.
    private let start = """
        Tue Mar  3 14:22:05 2026 c2s.c:565 accept action on fd 13
        sx (server.c:272) waiting for stream header
        Tue Mar  3 14:22:05 2026 c2s.c:517 read action on fd 13
        sx (io.c:206) 13 ready for reading
        sx (io.c:212) tag 13 event 2 data 0x3c61a8f0
        Tue Mar  3 14:22:05 2026 c2s.c:47 reading from 13
        Tue Mar  3 14:22:05 2026 c2s.c:106 read 137 bytes
        sx (io.c:231) passed 137 read bytes
        sx (io.c:266) decoded read data (137 bytes): <?xml version='1.0'?><stream:stream to='example.org' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>
        sx (server.c:202) prepared stream response: <?xml version='1.0'?><stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client' from='example.org' version='1.0' id='4b1ce0a95d7f2a6e3c18'>
        sx (io.c:435) queueing for write: <stream:features xmlns:stream='http://etherx.jabber.org/streams'><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>
        Tue Mar  3 14:22:05 2026 c2s.c:531 write action on fd 13
        sx (io.c:357) 13 ready for writing
        sx (io.c:312) encoding 177 bytes for writing: <stream:features xmlns:stream='http://etherx.jabber.org/streams'><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>
        sx (io.c:378) handing app 177 bytes to write
        Tue Mar  3 14:22:06 2026 c2s.c:517 read action on fd 13
        sx (io.c:206) 13 ready for reading
        Tue Mar  3 14:22:06 2026 c2s.c:106 read 92 bytes
        sx (io.c:266) decoded read data (92 bytes): <auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>AGp1bGlldAByMG0zMA==</auth>
        sx (io.c:96) completed nad: <auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>AGp1bGlldAByMG0zMA==</auth>

        """

    func testBothDirectionsWithTheTagAndTheTime() throws {
        let expected = """
            14:Tue Mar  3 14:22:05 2026\tout\t13\tfeatures
            19:Tue Mar  3 14:22:06 2026\tin\t13\tauth

            """
        for format in [[], ["--log"], ["--log=jabberd2"]] {
            try assertStanzaq(format + ["--fields", "line,time,direction,session", "-e", "/$"], stdin: start,
                              stdout: expected, status: 0)
        }
        // The stream header read declares jabber:client.
        try assertStanzaq(["--direction", "in", "-c", "/{urn:ietf:params:xml:ns:xmpp-sasl}auth"], stdin: start, stdout: "1\n", status: 0)
    }

    /// A read ends inside a body (after a line feed); the next read of the same
    /// tag goes on with it. The byte count says which lines are data: a body's
    /// line that looks like jabberd2's own is data, and the lines of the
    /// `completed nad:` copy are not.
    func testAStanzaOverTwoReadsAndOverLines() throws {
        let log = """
            Tue Mar  3 14:22:12 2026 c2s.c:517 read action on fd 13
            sx (io.c:206) 13 ready for reading
            sx (io.c:266) decoded read data (100 bytes): <message to='romeo@example.net' id='m1'><body>a &lt; b
            sx (io.c:266) decoded read data (1 bytes): x

            Tue Mar  3 14:22:12 2026 c2s.c:517 read action on fd 13
            sx (io.c:206) 13 ready for reading
            sx (io.c:266) decoded read data (20 bytes): end</body></message>
            sx (io.c:96) completed nad: <message to='romeo@example.net' id='m1'><body>a &lt; b
            new line</body></message>

            """
        try assertStanzaq(["--fields", "line,time,direction,session", "-e", "/@id", "-e", "body#"], stdin: log, stdout: """
            3\tTue Mar  3 14:22:12 2026\tin\t13\tm1\ta < b\\nsx (io.c:266) decoded read data (1 bytes): x\\nend

            """, status: 0)
    }

    /// Two sessions (c2s's client and its router connection): each read and
    /// write is the tag's named before it; a write of nothing is no record.
    func testTwoTagsAndBothDirections() throws {
        let log = """
            Tue Mar  3 14:22:08 2026 c2s.c:531 write action on fd 6
            sx (io.c:357) 6 ready for writing
            sx (io.c:312) encoding 19 bytes for writing: <presence id='p1'/>
            sx (io.c:379) tag 6 event 3 data 0x3c61b2a0
            Tue Mar  3 14:22:09 2026 c2s.c:517 read action on fd 13
            sx (io.c:206) 13 ready for reading
            sx (io.c:266) decoded read data (19 bytes): <presence id='p2'/>
            sx (io.c:357) 13 ready for writing
            sx (io.c:312) encoding 0 bytes for writing: 
            Tue Mar  3 14:22:10 2026 c2s.c:531 write action on fd 13
            sx (io.c:357) 13 ready for writing
            sx (io.c:312) encoding 19 bytes for writing: <presence id='p3'/>

            """
        try assertStanzaq(["--fields", "time,direction,session", "/@id"], stdin: log, stdout: """
            Tue Mar  3 14:22:08 2026\tout\t6\tp1
            Tue Mar  3 14:22:09 2026\tin\t13\tp2
            Tue Mar  3 14:22:10 2026\tout\t13\tp3

            """, status: 0)
    }

    /// `__sx_debug()` cuts its message at MAX_DEBUG - 1 (8191) bytes: a longer
    /// read is shown in part, and the line after it is jabberd2's again.
    func testAReadCutAtMaxDebug() throws {
        let prefix = "sx (io.c:266) decoded read data (9000 bytes): "
        let head = "<message id='big'><body>"
        let shown = head + String(repeating: "y", count: 8191 - prefix.utf8.count - head.utf8.count)
        let log = prefix + shown + "\nsx (io.c:266) decoded read data (39 bytes): </body></message><presence id='after'/>\n"
        try assertStanzaq(["--log=jabberd2", "/@id"], stdin: log, stdout: "big\nafter\n", status: 0)
    }
}
