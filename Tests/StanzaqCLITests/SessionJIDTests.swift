import Foundation
import StanzaQuery
import StanzaqTestSupport
import XCTest
@testable import StanzaqKit

/// The `jid` field (stanzaq(1), LOGS): the full JID bound in a stanza's
/// session, from the bind result in it, as known when the stanza is read.
final class SessionJIDTests: CLITestCase {
    /// On every log of real software, each connection's stanzas have no JID
    /// up to its bind result, then the JID the packet capture shows bound
    /// (truth/*.json `bound_jid`, which wire_truth.py took without stanzaq),
    /// in the session of the connection (`server_session` in a server's log).
    func testEveryRealLogsSessionsHaveTheJIDTheWireShowsBound() throws {
        for (name, format) in RealLogTests.fixtures {
            let truth = try RealLogTests.Truth(name)
            let run = try InProcess.stanzaq(RealLogTests.reading(format) + ["--json", "--fields", "session,jid", "-e", "/$", "-e", "/@type",
                                             "-e", "{urn:ietf:params:xml:ns:xmpp-bind}bind/jid#", truth.log],
                                            in: RealLogTests.folder)
            XCTAssertEqual(run.stderr, "", name)
            XCTAssertEqual(run.status, 0, name)
            let rows = try run.output.split(separator: "\n").map {
                try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            for connection in truth.connections {
                let bound = try XCTUnwrap(connection["bound_jid"] as? String)
                let session = truth.session(of: connection)
                let own = rows.filter { $0["session"] as? String == session }
                let jids = own.map { $0["jid"] as? String }
                let first = try XCTUnwrap(jids.firstIndex { $0 != nil }, "\(name) \(session ?? "-"): no jid")
                // None before the bind result; the bound JID from it on, on every stanza.
                XCTAssertEqual(jids[first...].filter { $0 != bound }.count, 0, "\(name) \(session ?? "-"): \(Set(jids))")
                XCTAssertEqual(own[first]["value"] as? [String?] ?? [], ["iq", "result", bound], "\(name) \(session ?? "-")")
                XCTAssertGreaterThan(own.count - first, own.count / 2, "\(name) \(session ?? "-")")
            }
        }
    }

    /// A server's log as the man page shows it: the bind result gives the
    /// session its JID (in MongooseIM's, a stanza routed to the session); the
    /// stanzas before have none, and another session whose bind the log does
    /// not show has none.
    func testProsodyAndEjabberdExamples() throws {
        try assertStanzaq(["--json", "--fields", "session,jid", "/$", "logs/prosody.log"], stdout: """
            {"session":"c2s55e8a7f1c3a0","jid":null,"value":"features"}
            {"session":"c2s55e8a7f1c3a0","jid":null,"value":"iq"}
            {"session":"c2s55e8a7f1c3a0","jid":"juliet@montague.lit/balcony","value":"iq"}
            {"session":"c2s55e8a7f1c3a0","jid":"juliet@montague.lit/balcony","value":"message"}
            {"session":"c2s7f3b2c0d9e11","jid":null,"value":"message"}
            {"session":"c2s55e8a7f1c3a0","jid":"juliet@montague.lit/balcony","value":"presence"}

            """, status: 0)
        try assertStanzaq(["--fields", "line,jid", "-e", "/$", "-e", "/@id", "logs/ejabberd.log"], stdout: """
            4\t\tfeatures\t
            7\t\tr\t
            6\t\tiq\tbind_1
            9\tjuliet@montague.lit/balcony\tiq\tbind_1
            10\tjuliet@montague.lit/balcony\tmessage\tmsg1
            12\tjuliet@montague.lit/balcony\tmessage\tmsg2
            14\tjuliet@montague.lit/balcony\tmessage\tmsg3
            15\tjuliet@montague.lit/balcony\tpresence\tp1

            """, status: 0)
        // MongooseIM logs no bind result: a stanza routed to a session names its JID (to_jid=).
        try assertStanzaq(["--json", "--fields", "direction,session,jid", "/@id", "logs/mongooseim.log"], stdout: """
            {"direction":"in","session":"<0.1745.0>","jid":null,"value":"bind_1"}
            {"direction":"in","session":"<0.1745.0>","jid":null,"value":"roster_1"}
            {"direction":"out","session":"<0.1745.0>","jid":"juliet@capulet.lit/balcony","value":"roster_1"}
            {"direction":"in","session":"<0.1745.0>","jid":"juliet@capulet.lit/balcony","value":"msg1"}
            {"direction":"out","session":"<0.1702.0>","jid":"romeo@montague.lit/orchard","value":"msg1"}
            {"direction":"in","session":"<0.1702.0>","jid":"romeo@montague.lit/orchard","value":"msg2"}
            {"direction":"out","session":"<0.1745.0>","jid":"juliet@capulet.lit/balcony","value":"msg2"}
            {"direction":"in","session":"<0.1745.0>","jid":"juliet@capulet.lit/balcony","value":"disco1"}
            {"direction":"out","session":"<0.1745.0>","jid":"juliet@capulet.lit/balcony","value":"disco1"}

            """, status: 0)
    }

    /// With `--redact jids`, the JID is the pseudonym, whether a bind result
    /// or a log's record (MongooseIM's `to_jid=`) gave it.
    func testTheJIDIsRedacted() throws {
        for log in ["logs/prosody.log", "logs/mongooseim.log"] {
            let run = try InProcess.stanzaq(["--redact=jids", "--fields", "jid", "/$", log], in: Runner.examples)
            XCTAssertEqual(run.status, 0, log)
            XCTAssertTrue(run.output.contains("user1@domain1.example/res1\t") || run.output.contains("user2@domain2.example/res1\t"),
                          run.output)
            XCTAssertFalse(run.output.contains(".lit"), run.output)
        }
    }

    /// XML input, and a client's log that names no session, are one session.
    func testOneSessionInputs() throws {
        try assertStanzaq(["--fields", "jid", "-m", "3", "-e", "/$", "-e", "/@id", "capture.xml"], stdout: """
            \tfeatures\t
            juliet@capulet.lit/balcony\tiq\tbind_1
            juliet@capulet.lit/balcony\tiq\troster_1

            """, status: 0)
    }

    /// With the `jid` field, one reader reads each input, none of its records
    /// skipped: a part read on its own, or a reader that skipped the bind
    /// result (which has no body), would not know the JID.
    func testOneReaderReadsTheWholeLog() throws {
        let log = "logs/prosody.log"
        let arguments = ["--fields", "jid", "-e", "/@id", "-e", "body#", "--where", "/{jabber:client}message<type=chat>", log]
        try assertSameAsOneThread(arguments, partSizes: [64, 512], in: RealLogTests.folder)
        let run = try Runner.stanzaq(["--threads", "2", "--fields", "session,jid", "body#", log], in: RealLogTests.folder,
                                     environment: ["STANZAQ_PART_SIZE": "512", "STANZAQ_DEBUG_PARTS": "1"])
        XCTAssertEqual(run.stderr, "")
        let jids = Set(run.output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[1] })
        XCTAssertEqual(jids, ["alice@localhost/slixmpp-time", "bob@localhost/slixmpp-notime",
                              "dave@localhost/libstrophe", "carol@localhost/nbxmpp"])
    }

    /// At most ``SessionJIDs/capacity`` sessions are remembered: past that, the
    /// one bound longest ago is forgotten, not one bound again since.
    func testTheOldestBindIsForgotten() throws {
        let jids = SessionJIDs(capacity: 2)
        func bind(_ jid: String) -> Element {
            let iq = Element(name: "iq", namespace: "jabber:client", attributes: [Attribute(name: "type", value: "result")])
            let bind = Element(name: "bind", namespace: "urn:ietf:params:xml:ns:xmpp-bind")
            let element = Element(name: "jid", namespace: "urn:ietf:params:xml:ns:xmpp-bind")
            element.appendText(" \(jid)\n")
            bind.append(element)
            iq.append(bind)
            return iq
        }
        let message = Element(name: "message", namespace: "jabber:client")
        func source(_ session: String) -> StanzaSource { StanzaSource(line: 1, session: session) }
        XCTAssertEqual(jids.jid(after: bind("a@x/1"), in: source("a")), "a@x/1")
        XCTAssertEqual(jids.jid(after: bind("b@x/1"), in: source("b")), "b@x/1")
        XCTAssertEqual(jids.jid(after: bind("a@x/2"), in: source("a")), "a@x/2")
        XCTAssertEqual(jids.jid(after: bind("c@x/1"), in: source("c")), "c@x/1")
        XCTAssertEqual(jids.jid(after: message, in: source("a")), "a@x/2")
        XCTAssertNil(jids.jid(after: message, in: source("b")))
        XCTAssertEqual(jids.jid(after: message, in: source("c")), "c@x/1")
        XCTAssertNil(jids.jid(after: message, in: nil))
    }
}
