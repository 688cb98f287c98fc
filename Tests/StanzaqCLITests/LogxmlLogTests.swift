import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `logxml`: the file of ejabberd's mod_logxml
/// (ejabberd-contrib, mod_logxml/src/mod_logxml.erl): `open_file/3`'s three
/// lines, then `add_log/5`'s
/// `<packet or="send|recv" ljid="JID" [lip="IP" ]ts="YYYYMMDDTHH:MM:SS">STANZA</packet>`
/// a line. The lines are written as that code writes them (no recorded log:
/// built from source).
final class LogxmlLogTests: CLITestCase {
    private let log = """
        <?xml version="1.0"?>
        <?xml-stylesheet href="xmpp.xsl" type="text/xsl"?>
        <log>
        <packet or="send" ljid="juliet@capulet.lit/balcony" ts="20261123T09:30:12"><iq xmlns='jabber:client' xml:lang='en' to='capulet.lit' from='juliet@capulet.lit/balcony' type='get' id='roster_1'><query xmlns='jabber:iq:roster'/></iq></packet>
        <packet or="recv" ljid="juliet@capulet.lit/balcony" ts="20261123T09:30:14"><message xmlns='jabber:client' xml:lang='en' to='juliet@capulet.lit/balcony' from='romeo@montague.lit/orchard' type='chat' id='msg1'><body>one &amp;
        &lt;/packet&gt; is text here
        three</body></message></packet>
        </log>

        """

    /// `send` is what the user sent (the server received it), `recv` what it delivered.
    func testDirectionSessionAndTimeFromThePacket() throws {
        let expected = """
            4\t20261123T09:30:12\tin\tjuliet@capulet.lit/balcony\tiq\troster_1\t
            5\t20261123T09:30:14\tout\tjuliet@capulet.lit/balcony\tmessage\tmsg1\tone &\\n</packet> is text here\\nthree

            """
        for format in [[], ["--log"], ["--log=logxml"]] {
            try assertStanzaq(format + ["--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "-e", "body#"],
                              stdin: log, stdout: expected, status: 0)
        }
        // The packet element is mod_logxml's, not a stanza.
        try assertStanzaq(["-c", "/"], stdin: log, stdout: "2\n", status: 0)
    }

    /// A file that existed is appended to without the first lines; `show_ip`
    /// adds `lip` before `ts`.
    func testAnAppendedFileWithTheIP() throws {
        let log = """
            <packet or="recv" ljid="romeo@montague.lit/orchard" lip="10.0.0.5" ts="20261123T09:31:00"><presence xmlns='jabber:client' xml:lang='en' to='romeo@montague.lit/orchard' from='juliet@capulet.lit/balcony' id='p1'/></packet>

            """
        try assertStanzaq(["--fields", "time,direction,session", "/@id"], stdin: log, stdout: """
            20261123T09:31:00\tout\tromeo@montague.lit/orchard\tp1

            """, status: 0)
    }

    /// Other XML that starts with the same declaration is XML.
    func testOtherXMLIsNotALog() throws {
        try assertStanzaq(["-e", "/$", "-e", "/@id"], stdin: "<?xml version=\"1.0\"?>\n<log>\n<message id='m1'/>\n</log>\n",
                          stdout: "log\t\n", status: 0)
    }
}
