import Foundation
import StanzaqKit
import StanzaqTestSupport
import XCTest

/// stanzaq(1), "No result": a search that finds nothing says, in one line on
/// standard error, what a near query finds — each of the commonest mistakes,
/// on files and on standard input, and never when something was found or
/// with `-q`.
final class NoResultHintTests: CLITestCase {
    private func hint(_ query: String, _ near: String, _ change: String) -> String {
        "stanzaq: hint: no result for '\(query)'; '\(near)' has some (\(change))\n"
    }

    private let inherited = "a name without {…} is looked for in its parent's namespace"

    func testAMissingNamespace() throws {
        try assertStanzaq(["**/delay@stamp", "message-delay.xml"], stdout: "", stderr: hint(
            "**/delay@stamp", "**/{urn:xmpp:delay}delay@stamp", inherited), status: 1)
        try assertStanzaq(["{urn:xmpp:mam:2}result/forwarded/message/body#", "mam-page.xml"], stdout: "", stderr: hint(
            "{urn:xmpp:mam:2}result/forwarded/message/body#",
            "{urn:xmpp:mam:2}result/{urn:xmpp:forward:0}forwarded/{jabber:client}message/body#", inherited), status: 1)
        // A namespace the input does not use there.
        try assertStanzaq(["-c", "{urn:xmpp:mam:1}result@id", "mam-page.xml"], stdout: "0\n", stderr: hint(
            "{urn:xmpp:mam:1}result@id", "{urn:xmpp:mam:2}result@id", "in another namespace"), status: 1)
    }

    func testQuotesInAFilter() throws {
        try assertStanzaq(["/message<type='chat'>/body#", "logs/prosody.log"], stdout: "", stderr: hint(
            "/message<type='chat'>/body#", "/message<type=chat>/body#", "the value without its quotes"), status: 1)
        try assertStanzaq(["-c", "/message<type=\"chat\">"], stdin: "<message type='chat'/>", stdout: "0\n", stderr: hint(
            "/message<type=\"chat\">", "/message<type=chat>", "the value without its quotes"), status: 1)
    }

    func testATypo() throws {
        try assertStanzaq(["/mesage", "logs/prosody.log"], stdout: "", stderr: hint(
            "/mesage", "/message", "the input has no element 'mesage'"), status: 1)
        try assertStanzaq(["-c", "/message<typ=chat>", "logs/prosody.log"], stdout: "0\n", stderr: hint(
            "/message<typ=chat>", "/message<type=chat>", "the input has no attribute 'typ'"), status: 1)
        try assertStanzaq(["-s", "boddy#", "logs/prosody.log"], stdout: "", stderr: hint(
            "boddy#", "body#", "the input has no element 'boddy'"), status: 1)
    }

    func testTheLeadingSlashAndTopLevelOnly() throws {
        try assertStanzaq(["message/body#", "logs/prosody.log"], stdout: "", stderr: hint(
            "message/body#", "/message/body#", "a path from the stanza starts with '/'"), status: 1)
        try assertStanzaq(["//body#"], stdin: "<message><x><body>deep</body></x></message>", stdout: "", stderr: hint(
            "//body#", "**/body#", "'**/' reaches any depth; '//' only the stanza's children"), status: 1)
    }

    /// Several mistakes in one query: each alone finds nothing, all undone at once do.
    func testSeveralMistakesAtOnce() throws {
        try assertStanzaq(["-c", "mesage<type='chat'>"], stdin: "<message type='chat'/>", stdout: "0\n", stderr: hint(
            "mesage<type='chat'>", "/message<type=chat>",
            "the value without its quotes; a path from the stanza starts with '/'; the input has no element 'mesage'"), status: 1)
    }

    /// Nothing is said when something was found, with -q, when no near query
    /// finds anything, or for -v and -L, whose point is finding nothing.
    func testSilence() throws {
        try assertStanzaq(["-e", "/mesage", "-e", "/message@id", "message-delay.xml"], stdout: "\t5bd3c1f0-6e3b-4f8a-9d6e-2f1c7a4b8e90\n", status: 0)
        try assertStanzaq(["-q", "/mesage", "logs/prosody.log"], stdout: "", status: 1)
        try assertStanzaq(["-c", "/nothing-like-it", "logs/prosody.log"], stdout: "0\n", status: 1)
        try assertStanzaq(["-L", "/mesage", "logs/prosody.log"], stdout: "logs/prosody.log\n", status: 1)
        try assertStanzaq(["-v", "/*", "message-delay.xml"], stdout: "", status: 1)
    }

    /// The REPL says the hint after `(no result)`, on the current stanza.
    func testTheREPLSaysItToo() throws {
        let output = Output.inMemory()
        let session = REPLSession(output: output, diagnostics: .inMemory(), isTerminal: true)
        _ = try session.handle(line: "<message xmlns='jabber:client'><delay xmlns='urn:xmpp:delay' stamp='2002-09-10T23:08:25Z'/></message>")
        let before = output.contents.count
        _ = try session.handle(line: "delay@stamp")
        try output.flush()
        XCTAssertEqual(String(decoding: output.contents[before...], as: UTF8.self), """
            (no result)
            hint: '{urn:xmpp:delay}delay@stamp' has some (a name without {…} is looked for in its parent's namespace)

            """)
    }
}
