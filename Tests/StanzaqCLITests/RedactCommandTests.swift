import Foundation
import StanzaqTestSupport
import XCTest

/// `--redact[=WHAT]` on the command line (stanzaq(1), `--redact`): the stanzas
/// are redacted as they are read, so that the queries see and every output
/// prints only what is redacted; JID pseudonyms hold for the whole run.
final class RedactCommandTests: CLITestCase {
    func testBareRedactRemovesTheSASLPayload() throws {
        try assertStanzaq(["--redact", "-s", "/{urn:ietf:params:xml:ns:xmpp-sasl}auth", "logs/mongooseim.log"], stdout: """
            <auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>[redacted]</auth>

            """, status: 0)
        // The same without --redact: the payload the option removes.
        try assertStanzaq(["/{urn:ietf:params:xml:ns:xmpp-sasl}auth#", "logs/mongooseim.log"], stdout: "AGp1bGlldAByMG0zMA==\n", status: 0)
    }

    func testAllRedactsTheStanzaPrinted() throws {
        try assertStanzaq(["--redact=all", "-s", "/message", "message-delay.xml"], stdout: """
            <message xmlns='jabber:client' from='user1@domain1.example/res1' to='user2@domain2.example' type='chat' id='5bd3c1f0-6e3b-4f8a-9d6e-2f1c7a4b8e90'>
              <body>[redacted]</body>
              <delay xmlns='urn:xmpp:delay' from='domain2.example' stamp='2002-09-10T23:08:25Z'>Offline Storage</delay>
              <origin-id xmlns='urn:xmpp:sid:0' id='de305d54-75b4-431b-adb2-eb6b9e546013'/>
            </message>

            """, status: 0)
    }

    /// The queries see the redacted stanza: the marker matches, the secret does
    /// not (and no record is skipped for lacking the marker's literal).
    func testQueriesSeeTheRedactedStanza() throws {
        try assertStanzaq(["--redact=bodies", "-c", "/message/body<#=[redacted]>", "logs/prosody.log"], stdout: "2\n", status: 0)
        try assertStanzaq(["--redact=bodies", "-c", "/message/body<#~blessed>", "message-delay.xml"], stdout: "0\n", status: 1)
        try assertStanzaq(["--redact=jids", "/message<from~^user1@>@id", "message-delay.xml"],
                          stdout: "5bd3c1f0-6e3b-4f8a-9d6e-2f1c7a4b8e90\n", status: 0)
    }

    /// One JID, one pseudonym, in every input of the run; the parts of JIDs
    /// each consistently (the domain both accounts share).
    func testPseudonymsAreStableAcrossInputs() throws {
        try assertStanzaq(["--redact=jids", "-H", "/message@from", "logs/prosody.log", "logs/smack.log", "logs/prosody.log"], stdout: """
            logs/prosody.log:user1@domain1.example/res1
            logs/smack.log:user2@domain1.example/res2
            logs/prosody.log:user1@domain1.example/res1

            """, status: 0)
    }

    /// The fields a log gives a stanza are redacted too: a session that is the
    /// account's JID, and an archive's columns.
    func testFieldsAreRedacted() throws {
        try assertStanzaq(["--redact=jids", "--json", "--fields", "session,direction", "-n", "/message@from", "logs/dino.log"], stdout: """
            {"stanza":3,"session":"user1@domain1.example","direction":"in","value":"user2@domain1.example/res2"}

            """, status: 0)
        try assertStanzaq(["--redact=all", "--fields", "user,host,with", "-m1", "/message/body#", "logs/prosody-archive.json"], stdout: """
            user2\tdomain1.example\tuser1@domain1.example\t[redacted]

            """, status: 0)
        try assertStanzaq(["--redact=all", "--fields", "session", "-m1", "/iq@id", "logs/prosody.log"], stdout: "session1\tbind_1\n", status: 0)
    }

    func testUnknownKindsAreUsageErrors() throws {
        try assertStanzaq(["--redact=jid", "/message", "message-delay.xml"], stdout: "", stderr: """
            stanzaq: error: --redact: unknown kind 'jid' (one of: auth, bodies, jids, all). Did you mean 'jids'?
            Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)

            """, status: 2)
        try assertStanzaq(["--redact=auth,", "/message", "message-delay.xml"], stdout: "", stderr: nil, stderrContains: [
            "stanzaq: error: --redact: an empty kind in 'auth,' (one of: auth, bodies, jids, all)\n",
        ], status: 2)
        try assertStanzaq(["--redact", "jids", "message-delay.xml"], stdout: "", stderr: nil, stderrContains: [
            "stanzaq: error: --redact takes its list after '=': --redact=jids (a bare --redact would take 'jids' for the query; to query it, write --redact=auth jids)\n",
        ], status: 2)
        try assertStanzaq(["-i", "--redact", "message-delay.xml"], stdout: "", stderr: nil, stderrContains: [
            "stanzaq: error: --redact does not apply to the REPL (-i)\n",
        ], status: 2)
    }

    /// Without `jids`, a redacted search runs on threads as any other, with the same output.
    func testThreadsGiveTheSameOutput() throws {
        try assertSameAsOneThread(["--redact=auth,bodies", "-s", "/$", "logs/prosody.log", "logs/smack.log", "reconnect-log.xml"],
                                  partSizes: [200, 1000])
        try assertSameAsOneThread(["--redact=all", "-n", "/@from", "logs/prosody.log", "logs/smack.log"], partSizes: [200])
    }
}
