import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `prosody-watch`: what Prosody's admin shell prints for
/// `watch:stanzas(JID)` (Prosody 13, plugins/mod_admin_shell.lua,
/// `def_env.watch:stanzas`): `<!-- received from ID -->` (in) or
/// `<!-- sent to ID -->` (out) after a blank line, then the stanza as
/// util/stanza.lua's `tostring` writes it. The lines are written as that code
/// and util/prosodyctl/shell.lua print them (no recorded log: built from source).
final class ProsodyWatchLogTests: CLITestCase {
    /// `prosodyctl shell watch stanzas JID`: each piece of output as it is, a newline after it.
    private let log = """

        <!-- session c2s559fa8054030 opened -->

        <!-- sent to c2s559fa8054030 -->
        <iq type='result' id='bind_1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>juliet@capulet.lit/balcony</jid></bind></iq>

        <!-- received from c2s559fa8054030 -->
        <message type='chat' to='romeo@montague.lit' id='msg2'><body>one &lt;two&gt;
        &lt;!-- sent to nobody --&gt;
        three</body></message>

        <!-- session c2s559fa8054030 closed -->

        """

    func testDirectionAndSessionFromTheComments() throws {
        let expected = """
            5\tout\tc2s559fa8054030\tiq\tbind_1\t
            8\tin\tc2s559fa8054030\tmessage\tmsg2\tone <two>\\n<!-- sent to nobody -->\\nthree

            """
        for format in [[], ["--log"], ["--log=prosody-watch"]] {
            try assertStanzaq(format + ["--fields", "line,direction,session", "-e", "/$", "-e", "/@id", "-e", "body#"], stdin: log,
                              stdout: expected, status: 0)
        }
        // Prosody leaves out the stream's namespace: the stanzas are in jabber:client.
        try assertStanzaq(["-c", "/{jabber:client}*"], stdin: log, stdout: "2\n", status: 0)
    }

    /// The interactive shell prints `| ` before each piece of output: a comment's
    /// line is `| ` alone, a stanza's first line starts with it. An s2s
    /// session's stanzas are in jabber:server.
    func testTheInteractiveShellAndAnS2SSession() throws {
        let log = """
            prosody> watch:stanzas("juliet@capulet.lit")
            |\u{20}
            <!-- received from s2sin55d1c0ffee00 -->
            | <message type='chat' from='romeo@montague.lit' id='s1'><body>| kept
            | kept too</body></message>
            |\u{20}
            <!-- sent to c2s559fa8054030 -->
            | <presence id='p1'/>

            """
        try assertStanzaq(["--fields", "line,direction,session", "-e", "/$", "-e", "/@id", "-e", "body#"], stdin: log, stdout: """
            4\tin\ts2sin55d1c0ffee00\tmessage\ts1\t| kept\\n| kept too
            8\tout\tc2s559fa8054030\tpresence\tp1\t

            """, status: 0)
        try assertStanzaq(["-c", "/{jabber:server}message"], stdin: log, stdout: "1\n", status: 0)
    }

    /// A comment that names no session, other comments, and a comment not
    /// after a blank line (Prosody prints a newline before each) announce nothing.
    func testOtherCommentsAreText() throws {
        let log = """

            <!-- sent to  -->
            <iq id='a'/>

            <!-- attached (c2s559fa8054030) -->
            <iq id='b'/>
            <!-- received from c2s1 -->
            <iq id='c'/>

            <!-- received from c2s2 -->
            <iq id='d'/>

            """
        try assertStanzaq(["--log=prosody-watch", "--fields", "line,direction,session", "/@id"], stdin: log, stdout: """
            11:in\tc2s2\td

            """, status: 0)
    }
}
