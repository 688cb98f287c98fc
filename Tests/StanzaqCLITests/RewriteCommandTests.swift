import Foundation
import StanzaqTestSupport
import XCTest

/// `--redact … --rewrite` (stanzaq(1), `--rewrite`): an XML input written back
/// on standard output, every byte kept but what the redaction changes; any
/// other input refused, and then nothing written.
final class RewriteCommandTests: CLITestCase {
    func testAStanzaIsRewrittenAndTheRestKept() throws {
        try assertStanzaq(["--redact=all", "--rewrite", "message-delay.xml"], stdout: """
            <message xmlns='jabber:client' from='user1@domain1.example/res1' to='user2@domain2.example' type='chat' id='5bd3c1f0-6e3b-4f8a-9d6e-2f1c7a4b8e90'>
              <body>[redacted]</body>
              <delay xmlns='urn:xmpp:delay' from='domain2.example' stamp='2002-09-10T23:08:25Z'>Offline Storage</delay>
              <origin-id xmlns='urn:xmpp:sid:0' id='de305d54-75b4-431b-adb2-eb6b9e546013'/>
            </message>

            """, status: 0)
        // In a stream: the declaration, the header (its JIDs replaced), the
        // whitespace between stanzas and the stanzas nothing is redacted in are kept.
        let input = """
            <?xml version='1.0'?>
            <stream:stream xmlns='jabber:client' xmlns:stream="http://etherx.jabber.org/streams" to = "capulet.lit" version='1.0'>
            <!-- a comment -->
              <presence/>
            <message to="juliet@capulet.lit"><body>hi &amp; bye</body></message>
            </stream:stream>

            """
        try assertStanzaq(["--redact=all", "--rewrite"], stdin: input, stdout: """
            <?xml version='1.0'?>
            <stream:stream xmlns='jabber:client' xmlns:stream="http://etherx.jabber.org/streams" to = "domain1.example" version='1.0'>
            <!-- a comment -->
              <presence/>
            <message xmlns='jabber:client' to='user1@domain1.example'><body>[redacted]</body></message>
            </stream:stream>

            """, status: 0)
        try assertStanzaq(["--redact=auth", "--rewrite"], stdin: input, stdout: input, status: 0)
    }

    /// Read again, a rewritten input gives the stanzas a redacted search prints.
    func testTheRewrittenInputReadsAsTheRedactedSearch() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Runner.examples.path).filter { $0.hasSuffix(".xml") }.sorted()
        XCTAssertGreaterThan(names.count, 10)
        for name in names {
            let rewritten = try InProcess.stanzaq(["--redact=auth,bodies", "--rewrite", name])
            XCTAssertEqual(rewritten.status, 0, name)
            let again = try InProcess.stanzaq(["-s", "/$"], stdin: rewritten.stdout)
            let redacted = try InProcess.stanzaq(["--redact=auth,bodies", "-s", "/$", name])
            XCTAssertEqual(again.output, redacted.output, name)
            XCTAssertEqual(again.status, 0, name)
        }
    }

    /// With `all`, no JID and no body of a capture is left, stream headers included.
    func testNothingIsLeftOfACapture() throws {
        for name in ["capture.xml", "reconnect-log.xml"] {
            let rewritten = try InProcess.stanzaq(["--redact=all", "--rewrite", name]).output
            var needles: [String] = []
            for query in ["/**@from", "/**@to", "/**@jid", "/**@by", "/**/{*}jid#"] {
                // (A domain alone is looked for as an attribute's value.)
                needles += try InProcess.stanzaq([query, name]).output.split(separator: "\n").map { $0.contains("@") ? String($0) : "'\($0)'" }
            }
            needles += try InProcess.stanzaq(["/**/{*}body#", name]).output.split(separator: "\n").map(String.init)
            XCTAssertGreaterThan(needles.count, 10, name)
            for needle in Set(needles) {
                XCTAssertFalse(rewritten.contains(needle), "\(name) leaves \(needle)")
            }
        }
    }

    /// A log is written back with its lines: each changed stanza over its
    /// bytes (a Prosody record's later lines with their tab), and the JIDs the
    /// stanzas named replaced in the log's own text too.
    func testALogIsRewrittenInItsOwnLines() throws {
        let log = """
            Nov 23 09:30:12 c2s55e8a7f1c3a0	info	Authenticated as juliet@capulet.lit
            Nov 23 09:30:12 c2s55e8a7f1c3a0	debug	SEND: <message to='romeo@montague.lit' id='m1'><body>Art thou
            	not Romeo?</body></message>
            Nov 23 09:30:13 c2s55e8a7f1c3a0	debug	RECV: <message from='romeo@montague.lit/orchard' id='m2'/>
            Nov 23 09:30:13 c2s55e8a7f1c3a0	debug	RECV: <presence id='p1'/>

            """
        try assertStanzaq(["--redact=all", "--rewrite"], stdin: log, stdout: """
            Nov 23 09:30:12 c2s55e8a7f1c3a0	info	Authenticated as juliet@capulet.lit
            Nov 23 09:30:12 c2s55e8a7f1c3a0	debug	SEND: <message xmlns='jabber:client' to='user1@domain1.example' id='m1'><body>[redacted]</body></message>
            Nov 23 09:30:13 c2s55e8a7f1c3a0	debug	RECV: <message xmlns='jabber:client' from='user1@domain1.example/res1' id='m2'/>
            Nov 23 09:30:13 c2s55e8a7f1c3a0	debug	RECV: <presence id='p1'/>

            """, stderr: "", status: 0)
    }

    /// A stanza cut inside its body across two reads, whose whole copy the
    /// log's own text holds (jabberd2's `completed nad:`): the copy is no
    /// place to write the redacted stanza over, since the reads would keep
    /// the body; nothing is written.
    func testAStanzaCutAcrossReadsIsNotTakenForItsCopy() throws {
        let sample = try String(contentsOf: Runner.examples.appendingPathComponent("logs/jabberd2.log"), encoding: .utf8)
        let first = "<message to='romeo@example.net' type='chat' id='m1'><body>Wherefore art"
        let second = " thou?\nSee: a &lt; b &amp;&amp; b &gt; c\n-- J.</body><active xmlns='http://jabber.org/protocol/chatstates'/></message>"
        let reads = """
            sx (io.c:266) decoded read data (157 bytes): <message to='romeo@example.net' type='chat' id='m1'><body>Wherefore art thou?
            See: a &lt; b &amp;&amp; b &gt; c
            -- J.</body><active xmlns='http://jabber.org/
            """
        XCTAssertTrue(sample.contains(reads))
        let cut = sample.replacingOccurrences(of: reads, with: "sx (io.c:266) decoded read data (\(first.utf8.count) bytes): \(first)")
            .replacingOccurrences(of: "read 32 bytes\nsx (io.c:231) passed 32 read bytes\nsx (io.c:266) decoded read data (32 bytes): protocol/chatstates'/></message>",
                                  with: "read \(second.utf8.count) bytes\nsx (io.c:231) passed \(second.utf8.count) read bytes\n"
                                      + "sx (io.c:266) decoded read data (\(second.utf8.count) bytes): \(second)")
        XCTAssertTrue(cut.contains("bytes):  thou?"))
        try assertStanzaq(["-e", "/message<id=m1>@id", "-e", "/message<id=m1>/body#"], stdin: cut,
                          stdout: "m1\tWherefore art thou?\\nSee: a < b && b > c\\n-- J.\n", stderr: "", status: 0)
        try assertStanzaq(["--redact=bodies", "--rewrite"], stdin: cut, stdout: "", stderr: """
            stanzaq: error: (standard input): not rewritten: its stanzas are not written as XML (jabberd2), and a value to redact is cut across its records or escaped

            """, status: 2)
    }

    func testWhatIsNotRewritten() throws {
        try assertStanzaq(["--redact=all", "--rewrite", "logs/smack.log"], stdout: "", stderr: """
            stanzaq: error: logs/smack.log: not rewritten: its stanzas are not written as XML (smack), and a value to redact is cut across its records or escaped

            """, status: 2)
        try assertStanzaq(["--redact=all", "--rewrite", "logs/ejabberd.log"], stdout: "", stderr: """
            stanzaq: error: logs/ejabberd.log: not rewritten: its stanzas are not written as XML (ejabberd), and a value to redact is cut across its records or escaped

            """, status: 2)
        try assertStanzaq(["--redact", "--rewrite"], stdin: "<message><body>one</body></message>\n<message><body>two</message>\n",
                          stdout: "", stderr: """
            (standard input):2:29: Opening and ending tag mismatch: body line 2 and message
            stanzaq: error: (standard input): not rewritten: a stanza that is not read is not redacted

            """, status: 2)
        try assertStanzaq(["--redact", "--rewrite", "envelopes/docker-prosody.log"], stdout: "", stderr: nil,
                          stderrContains: ["not rewritten: it is a log in the docker envelope, which is not rewritten (XML, logs and Monal's rawlog are): unwrap the log first\n"], status: 2)
    }

    func testRewriteTakesRedactAndOneInputOnly() throws {
        try assertStanzaq(["--rewrite", "capture.xml"], stdout: "", stderr: nil,
                          stderrContains: ["stanzaq: error: --rewrite goes with --redact: it writes the input back redacted\n"], status: 2)
        try assertStanzaq(["--redact", "--rewrite", "-s", "capture.xml"], stdout: "", stderr: nil,
                          stderrContains: ["stanzaq: error: -q, -c, -s, -l or -L does not apply to --rewrite, which writes the input back whole\n"],
                          status: 2)
        try assertStanzaq(["--redact", "--rewrite", "capture.xml", "message-delay.xml"], stdout: "", stderr: nil,
                          stderrContains: ["stanzaq: error: --rewrite writes one input back: give one FILE (or none: standard input)\n"],
                          status: 2)
    }
}
