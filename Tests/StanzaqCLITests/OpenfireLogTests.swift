import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `openfire`: what Openfire's XML Debugger plugin prints
/// (igniterealtime/openfire-xmldebugger-plugin, RawPrintChannelHandler's
/// `messagePrefix`: `TIME - PREFIX ADDRESS - RECV|SENT - (NAME): DATA`), on
/// standard output or, through log4j2, in xmldebugger.log. The lines are
/// written as that code writes them (no recorded log: built from source).
final class OpenfireLogTests: CLITestCase {
    /// Standard output: the time (UTC, ISO_INSTANT), the peer's address as the session.
    private let log = """
        2026-11-23T09:30:11.877Z - C2S /10.0.0.5:54321  - OPEN - (rawDebugger)
        2026-11-23T09:30:12.101Z - C2S /10.0.0.5:54321  - RECV - (rawDebugger): <stream:stream to='capulet.lit' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>
        2026-11-23T09:30:12.113Z - C2S /10.0.0.5:54321  - SENT - (rawDebugger): <?xml version='1.0' encoding='UTF-8'?><stream:stream xmlns:stream="http://etherx.jabber.org/streams" xmlns="jabber:client" from="capulet.lit" id="4l9mtb1pvy" xml:lang="en" version="1.0">
        2026-11-23T09:30:12.402Z - C2S /10.0.0.5:54321  - RECV - (rawDebugger): <iq type='get' id='roster_1'><query xmlns='jabber:iq:roster'/></iq>
        2026-11-23T09:30:14Z - C2S /192.168.100.20:5222 - SENT - (rawDebugger): <message type="chat" id="msg1"><body>one &amp;
        - RECV - (x): two</body></message>
        2026-11-23T09:30:16.010Z - C2S /10.0.0.5:54321  - CLSD - (rawDebugger)

        """

    func testDirectionSessionAndTime() throws {
        let expected = """
            4\t2026-11-23T09:30:12.402Z\tin\t/10.0.0.5:54321\tiq\troster_1
            5\t2026-11-23T09:30:14Z\tout\t/192.168.100.20:5222\tmessage\tmsg1

            """
        for format in [[], ["--log"], ["--log=openfire"]] {
            try assertStanzaq(format + ["--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id"], stdin: log,
                              stdout: expected, status: 0)
        }
        // A body over lines; the client's stream declares jabber:client.
        try assertStanzaq(["body#"], stdin: log, stdout: "one &\n- RECV - (x): two\n", status: 0)
        try assertStanzaq(["-c", "/{jabber:client}iq"], stdin: log, stdout: "1\n", status: 0)
    }

    /// Its lines start with a time as `docker logs -t` lines do: they are
    /// Openfire's, and inside `docker logs -t` they are read all the same.
    func testNotADockerLineAndInsideOne() throws {
        let line = "2026-11-23T09:30:12.402Z - C2S /10.0.0.5:54321  - RECV - (rawDebugger): <iq type='get' id='roster_1'/>\n"
        for log in [line, "2026-11-23T09:30:12.402999999Z " + line] {
            try assertStanzaq(["--fields", "time,direction,session", "/@id"], stdin: log,
                              stdout: "2026-11-23T09:30:12.402Z\tin\t/10.0.0.5:54321\troster_1\n", status: 0)
        }
    }

    /// xmldebugger.log (`logToFile`): log4j2's `%d %-5p [%c{1}] - ` before the same line.
    func testTheLogFile() throws {
        let log = """
            2026-11-23 09:30:12,402 INFO  [DebuggerPlugin] - 2026-11-23T09:30:12.402Z - C2S /10.0.0.5:54321  - RECV - (rawDebugger): <iq type='get' id='roster_1'><query xmlns='jabber:iq:roster'/></iq>
            2026-11-23 09:30:12,410 INFO  [DebuggerPlugin] - 2026-11-23T09:30:12.410Z - SSL /10.0.0.6:40000  - SENT - (rawDebugger): <iq type="result" id="roster_1"/>

            """
        try assertStanzaq(["--fields", "time,direction,session", "/@id"], stdin: log, stdout: """
            2026-11-23T09:30:12.402Z\tin\t/10.0.0.5:54321\troster_1
            2026-11-23T09:30:12.410Z\tout\t/10.0.0.6:40000\troster_1

            """, status: 0)
    }
}
