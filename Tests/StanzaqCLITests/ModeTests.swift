import Foundation
import XCTest
import StanzaqTestSupport

/// Stanza modes: `-s/--select`, `-v/--invert`, `-c/--count`, `-q/--quiet` (stanzaq(1), OPTIONS).
final class ModeTests: CLITestCase {
    static let errorStanzas = """
        <message xmlns='jabber:client' from='tybalt@capulet.lit' to='juliet@capulet.lit/balcony' type='error' id='b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f'>
          <body>Where is Tybalt?</body>
          <error type='cancel'>
            <item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
          </error>
        </message>
        <iq xmlns='jabber:client' from='nurse@capulet.lit/chamber' to='juliet@capulet.lit/balcony' type='error' id='disco-3e9f'>
          <query xmlns='http://jabber.org/protocol/disco#info'/>
          <error type='cancel'>
            <service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
            <text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas' xml:lang='en'>Recipient does not answer service discovery</text>
          </error>
        </iq>

        """

    /// Required case: `-s` prints whole stanzas (with the namespace they inherited from the stream).
    func testSelectPrintsWholeStanzas() throws {
        try assertStanzaq(["-s", "/<type=error>", "capture.xml"], stdout: Self.errorStanzas, status: 0)
        try assertStanzaq(["--select", "error", "capture.xml"], stdout: Self.errorStanzas, status: 0)
        try assertStanzaq(["-s", "nothing", "capture.xml"], stdout: "", status: 1)
    }

    func testSelectWithPrefixes() throws {
        try assertStanzaq(["-s", "-n", "/{urn:xmpp:sm:3}!r", "capture.xml"],
                          stdout: "10:<a xmlns='urn:xmpp:sm:3' h='4'/>\n", status: 0)
        try assertStanzaq(["-s", "-H", "-n", "--json", "/{urn:xmpp:sm:3}!r", "capture.xml"],
                          stdout: #"{"file":"capture.xml","stanza":10,"value":"<a xmlns='urn:xmpp:sm:3' h='4'/>"}"# + "\n",
                          status: 0)
    }

    func testSelectWithSeveralQueriesNeedsAnyResult() throws {
        try assertStanzaq(["-s", "-e", "/{urn:xmpp:sm:3}r", "-e", "/{urn:xmpp:sm:3}a@h", "capture.xml"],
                          stdout: "<r xmlns='urn:xmpp:sm:3'/>\n<a xmlns='urn:xmpp:sm:3' h='4'/>\n", status: 0)
    }

    func testInvertAloneSelectsStanzasWithoutResult() throws {
        let stanzas = """
            <message xmlns='jabber:client' from='romeo@montague.lit/orchard' to='juliet@capulet.lit/balcony' type='chat' id='799dc5e2-b698-4b53-9c0c-0862b496c7d1'>
              <body>It is my lady, O, it is my love!</body>
            </message>
            <message xmlns='jabber:client' from='romeo@montague.lit/orchard' to='juliet@capulet.lit/balcony' type='chat' id='e4a1f9c3-6b2d-4e8f-a7c5-3d9b0e2f4a61'>
              <body>Did my heart love till now? forswear it, sight!</body>
              <delay xmlns='urn:xmpp:delay' from='capulet.lit' stamp='2024-09-18T21:14:03.512Z'>Offline Storage</delay>
            </message>

            """
        try assertStanzaq(["-v", "/{jabber:client}!message", "reconnect-log.xml"], stdout: stanzas, status: 0)
        try assertStanzaq(["--invert", "/{jabber:client}!message", "reconnect-log.xml"], stdout: stanzas, status: 0)
        try assertStanzaq(["-s", "-v", "/{jabber:client}!message", "reconnect-log.xml"], stdout: stanzas, status: 0)
        // The prefixes on every line of a stanza, as grep's (stanzaq(1), Prefixes).
        try assertStanzaq(["-v", "-n", "body", "reconnect-log.xml"], stdout: """
            2:<presence xmlns='jabber:client' from='romeo@montague.lit/orchard' to='juliet@capulet.lit/balcony'>
            2:  <show>xa</show>
            2:  <status>Climbing the orchard wall</status>
            2:</presence>
            3:<iq xmlns='jabber:client' to='juliet@capulet.lit/balcony' type='result' id='bind_2'>
            3:  <bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>
            3:    <jid>juliet@capulet.lit/balcony</jid>
            3:  </bind>
            3:</iq>

            """, status: 0)
    }

    func testInvertWithEveryStanzaMatching() throws {
        try assertStanzaq(["-v", "/$", "reconnect-log.xml"], stdout: "", status: 1)
    }

    /// Required case: `-c` counts stanzas with a result (not results), `-v` inverts.
    func testCount() throws {
        try assertStanzaq(["-c", "body", "capture.xml"], stdout: "6\n", status: 0)
        try assertStanzaq(["--count", "/{jabber:client}message", "capture.xml"], stdout: "6\n", status: 0)
        // Four roster items, one stanza.
        try assertStanzaq(["-c", "{jabber:iq:roster}query/item", "capture.xml"], stdout: "1\n", status: 0)
        try assertStanzaq(["-c", "nothing", "capture.xml"], stdout: "0\n", status: 1)
        // A total over every file.
        try assertStanzaq(["-c", "body", "capture.xml", "mam-page.xml", "reconnect-log.xml"], stdout: "8\n", status: 0)
    }

    func testCountInverted() throws {
        try assertStanzaq(["-c", "-v", "body", "capture.xml"], stdout: "12\n", status: 0)
        try assertStanzaq(["-c", "-v", "/$", "capture.xml"], stdout: "0\n", status: 1)
    }

    func testCountPerFileWithFilename() throws {
        try assertStanzaq(["-c", "-H", "body", "capture.xml", "mam-page.xml", "reconnect-log.xml"], stdout: """
            capture.xml:6
            mam-page.xml:0
            reconnect-log.xml:2

            """, status: 0)
        try assertStanzaq(["-c", "-H", "-v", "body", "capture.xml", "reconnect-log.xml"],
                          stdout: "capture.xml:12\nreconnect-log.xml:2\n", status: 0)
    }

    func testCountAsJSON() throws {
        try assertStanzaq(["-c", "--json", "body", "capture.xml"], stdout: "6\n", status: 0)
        try assertStanzaq(["-c", "-H", "-o", "json", "body", "capture.xml", "mam-fin.xml"], stdout: """
            {"file":"capture.xml","value":6}
            {"file":"mam-fin.xml","value":0}

            """, status: 0)
    }

    /// Required case: `-q` prints nothing and exits 0 or 1.
    func testQuiet() throws {
        try assertStanzaq(["-q", "body", "capture.xml"], stdout: "", status: 0)
        try assertStanzaq(["--quiet", "body", "capture.xml"], stdout: "", status: 0)
        try assertStanzaq(["-q", "nothing", "capture.xml"], stdout: "", status: 1)
        try assertStanzaq(["-q", "-v", "body", "capture.xml"], stdout: "", status: 0)
        try assertStanzaq(["-q", "-v", "/$", "capture.xml"], stdout: "", status: 1)
        try assertStanzaq(["-q", "-e", "nothing", "-e", "/@id", "mam-fin.xml"], stdout: "", status: 0)
    }

    /// `-q` exits 0 as soon as a stanza has a result: the rest of the input is not read
    /// (grep -q does the same, and exits 0 even if an error was met before).
    func testQuietStopsAtTheFirstResult() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("bad.xml", "<m><b>1</b></m><m><b>2</b></oops>")
        try assertStanzaq(["-q", "b", "bad.xml"], in: scratch.url, stdout: "", status: 0)
        try assertStanzaq(["-q", "b", "bad.xml", "missing.xml"], in: scratch.url, stdout: "", status: 0)
        try assertStanzaq(["-q", "b", "missing.xml", "bad.xml"], in: scratch.url, stdout: "", stderr: nil,
                          stderrContains: ["missing.xml"], status: 0)
    }

    func testModesAreExclusive() throws {
        for flags in [["-q", "-c"], ["-q", "-s"], ["-c", "-s"]] {
            try assertStanzaq(flags + ["body", "capture.xml"], stdout: "", stderr: nil,
                              stderrContains: ["stanzaq: error: "], status: 2)
        }
    }
}
