import Foundation
import StanzaqTestSupport
import XCTest

/// The REPL completes `**` and explains the extensions; `-i --monal` and
/// `-i --case-sensitive` apply to the queries typed there.
final class REPLExtensionTests: XCTestCase {
    private var stateHome: URL!

    override func setUpWithError() throws {
        stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("stanzaq-repl-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: stateHome)
    }

    private func script(_ lines: String, options: [String] = []) throws -> RunResult {
        try InProcess.stanzaq(["-i"] + options + ["examples/mam-page.xml"], stdin: Data(lines.utf8), in: PackagePaths.root)
    }

    func testAnyDepthIsCompletedWhereASegmentStarts() throws {
        var environment = Runner.environment(["XDG_STATE_HOME": stateHome.path, "TERM": "xterm"])
        environment["NO_COLOR"] = nil
        let repl = try TerminalSession(Runner.requireBinary(), ["-i", Runner.examples.appendingPathComponent("mam-page.xml").path],
                                       environment: environment)
        repl.expect("stanzaq> ")
        // `*` then Tab at the start of a segment: `**`.
        repl.send(":use 1\r")
        repl.expect("stanzaq> ")
        repl.send("*\t")
        // (The completed `**`, not the typed `*`: a key sent before the Tab is
        // handled would make it a pasted tab.)
        repl.expect("\u{1B}[11G*")   // libedit redraws the inserted `*` after the prompt and the typed one
        repl.send("/{jabber:client}bo\t")
        repl.expect("dy")
        repl.send("#\r")
        repl.expect("Call me but love, and I'll be new baptized; Henceforth I never will be Romeo.\r\n")
        // A segment offers the children there: <forwarded> is the only child of
        // <result>, in another namespace, so `{*}` (any) completes it at once.
        repl.send("{urn:xmpp:mam:2}result/{*}\t")
        repl.expect("forwarded")
        repl.send("\r")
        repl.expect("<forwarded xmlns='urn:xmpp:forward:0'>")
        repl.send("\u{15}")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    func testExplainAndOptions() throws {
        let result = try script("""
            :explain **/{jabber:client}body<#~love>#
            **/{jabber:client}body<#~LOVE>#
            :all {urn:xmpp:mam:2}result/**/{jabber:client}message<id~^[0-9a-f-]+$>@id

            """, options: ["--case-sensitive"])
        XCTAssertEqual(result.output, """
            query: **/{jabber:client}body<#~love>#
            start: the children of the context node
            1. any depth: the nodes reached so far and all their descendants, each once, in document order (stanzaq extension)
            2. select: elements named 'body' in namespace 'jabber:client'
               where the text matches the regular expression 'love', case included (stanzaq extension)
            extract: the text
            examples/mam-page.xml:2:a8d4f3e2-7c1b-4e5a-b6d9-0f2e1c3b4a57

            """)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    func testMonalRejectsExtensionsInTheREPL() throws {
        let result = try script("""
            :explain **/body#
            **/body#
            /@id

            """, options: ["--monal"])
        XCTAssertEqual(result.output, "juliet1\n")
        XCTAssertEqual(result.stderr, """
            stanzaq: error: query: Monal's language has no '**' (any depth, a stanzaq extension) at column 1
              **/body#
              ^
            stanzaq: error: query: Monal's language has no '**' (any depth, a stanzaq extension) at column 1
              **/body#
              ^

            """)
        XCTAssertEqual(result.status, 2)
    }
}
