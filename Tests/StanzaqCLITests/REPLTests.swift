import Foundation
import StanzaqTestSupport
import XCTest

final class REPLTests: XCTestCase {
    var stateHome: URL!

    override func setUpWithError() throws {
        stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("stanzaq-repl-\(UUID().uuidString)")
        // A state directory the user names exists: stanzaq creates only its own folder in it.
        try FileManager.default.createDirectory(at: stateHome, withIntermediateDirectories: false)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: stateHome)
    }

    private func start(_ arguments: [String], environment overrides: [String: String?] = [:]) throws -> TerminalSession {
        var environment = Runner.environment(["XDG_STATE_HOME": stateHome.path, "TERM": "xterm"].merging(overrides) { $1 })
        environment["NO_COLOR"] = nil
        return try TerminalSession(Runner.requireBinary(), arguments, environment: environment)
    }

    private var capture: String { Runner.examples.appendingPathComponent("capture.xml").path }

    func testBannerQueryAndResult() throws {
        let repl = try start(["-i", capture])
        repl.expect("stanzaq 0.1.0: 18 stanzas loaded, current: 18 <message>. Type :help for help, Ctrl-D to quit.")
        repl.expect("stanzaq> ")
        repl.send("body#\r")
        repl.expect("I'll send thee word from Mantua.\r\n")
        repl.expect("stanzaq> ")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    func testNoQueryOnATerminalStartsTheREPL() throws {
        let repl = try start([])
        repl.expect("stanzaq 0.1.0: 0 stanzas loaded. Type :help for help, Ctrl-D to quit.")
        repl.send(":quit\r")
        XCTAssertEqual(repl.exitStatus(), 0)
    }

    func testMultiLinePasteBecomesCurrent() throws {
        let repl = try start(["-i"])
        repl.expect("stanzaq> ")
        repl.send("<message xmlns='jabber:client' id='m1'>\r")
        repl.expect("...> ")
        repl.send("  <body>Hello</body>\r")
        repl.expect("...> ")
        repl.send("</message>\r")
        repl.expect("loaded 1 stanza; current: 1 <message>")
        repl.send("body#\r")
        repl.expect("Hello\r\n")
        repl.send("/@id\r")
        repl.expect("m1\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    func testAnErrorThenAGoodQuery() throws {
        let repl = try start(["-i", capture])
        repl.expect("stanzaq> ")
        repl.send("{urn:x}item<node=a\r")
        repl.expect("query: expected '>' to close the attribute filter at column 19\r\n  {urn:x}item<node=a\r\n                    ^")
        repl.expect("stanzaq> ")
        repl.send("/@id\r")
        repl.expect("ddc7cfae-1e73-490f-ae60-d082c2cfde8e\r\n")
        repl.send(":quit\r")
        XCTAssertEqual(repl.exitStatus(), 0)
    }

    func testListAndUse() throws {
        let repl = try start(["-i", Runner.examples.appendingPathComponent("mam-page.xml").path])
        repl.expect("stanzaq> ")
        repl.send(":list\r")
        repl.expect("  1\t<message>\tid=aeb213 from=juliet@capulet.lit\r\n")
        repl.expect("* 4\t<iq>\tid=juliet1 type=result\r\n")
        repl.send(":use 2\r")
        repl.expect("current: 2 <message>")
        repl.send("/@id\r")
        repl.expect("aeb214\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// Stanzas are numbered once across files: `:all` labels, `:list` and `:use` agree.
    func testOneNumberingAcrossFiles() throws {
        let repl = try start(["-i", Runner.examples.appendingPathComponent("mam-page.xml").path, capture])
        repl.expect("stanzaq 0.1.0: 22 stanzas loaded, current: 22 <message>.")
        repl.expect("stanzaq> ")
        repl.send(":all /<id=bind_1>@id\r")
        repl.expect("capture.xml:6:bind_1\r\n")
        repl.expect("stanzaq> ")
        repl.send(":use 6\r")
        repl.expect("current: 6 <iq>")
        repl.send("/@id\r")
        repl.expect("bind_1\r\n")
        repl.send(":list\r")
        repl.expect("  4\t<iq>\tid=juliet1 type=result\r\n  5\t<stream:features>\r\n* 6\t<iq>\tid=bind_1 type=result\r\n")
        repl.expect("  22\t<message>")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// A file loaded lazily that changes afterwards is not read as if it had not:
    /// commands that read it again say so (the current stanza, already read, stays).
    func testFileChangedAfterLoadingIsReported() throws {
        let file = stateHome.appendingPathComponent("changing.xml")
        try Data("<message id='a'/>\n<message id='b'/>\n".utf8).write(to: file)
        let repl = try start(["-i", file.path])
        repl.expect("stanzaq> ")
        let handle = try FileHandle(forWritingTo: file)
        handle.seekToEndOfFile()
        handle.write(Data("<message id='c'/>\n".utf8))
        try handle.close()
        repl.send("/@id\r")
        repl.expect("b\r\n")
        repl.send(":all /@id\r")
        repl.expect("stanzaq: error: \(file.path): the file changed since it was loaded (:load it again)\r\n")
        repl.expect("stanzaq> ")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// Ctrl-C stops a long `:all` between stanzas and returns to the prompt. The test
    /// stops reading once the first results show, so the REPL blocks on a full
    /// terminal long before the last stanza, whatever the machine's speed.
    func testControlCInterruptsALongAll() throws {
        let file = stateHome.appendingPathComponent("many.xml")
        let count = 50_000
        try Data((1...count).map { "<message id='m\($0)'><body>hello \($0)</body></message>\n" }.joined().utf8).write(to: file)
        let repl = try start(["-i", file.path])
        repl.expect("stanzaq 0.1.0: \(count) stanzas loaded", timeout: 120)
        repl.expect("stanzaq> ")
        repl.send(":all body#\r")
        repl.expect(":100:hello 100\r\n", timeout: 60)
        repl.send("\u{3}", whileBusy: true)
        let seen = repl.expect("(interrupted)\r\n", timeout: 60)
        XCTAssertFalse(seen.contains("hello \(count)"), "the whole :all was printed")
        repl.expect("stanzaq> ")
        repl.send("/@id\r")
        repl.expect("m\(count)\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// A tab-indented stanza pasted (bracketed, or in one burst as a terminal without
    /// bracketed paste sends it) is text: its tabs are kept, Tab completes nothing,
    /// and it is one history entry.
    func testPastedTabIndentedStanzaKeepsItsTabs() throws {
        for bracketed in [true, false] {
            try? FileManager.default.removeItem(at: historyURL)
            let repl = try start(["-i", capture])
            repl.expect("stanzaq> ")
            let stanza = "<message xmlns='jabber:client' id='p1'>\r\t<body>a\tb</body>\r\t\t<thread>t1</thread>\r</message>\r"
            repl.send(bracketed ? "\u{1B}[200~" + stanza + "\u{1B}[201~" : stanza)
            let seen = repl.expect("loaded 1 stanza; current: 19 <message>")
            XCTAssertFalse(seen.contains("**  "), "completion listed candidates during the paste: \(seen.debugDescription)")
            repl.expect("stanzaq> ")
            repl.send("body#\r")
            repl.expect("a\tb\r\n")
            repl.expect("stanzaq> ")
            XCTAssertEqual(repl.endWithControlD(), 0)
            XCTAssertEqual(try String(contentsOf: historyURL, encoding: .utf8), """
                _HiStOrY_V2_
                <message\\040xmlns='jabber:client'\\040id='p1'>\\012\\011<body>a\\011b</body>\\012\\011\\011<thread>t1</thread>\\012</message>
                body#

                """, bracketed ? "bracketed paste" : "burst")
        }
    }

    func testNamespaceCompletionAfterBrace() throws {
        let repl = try start(["-i", Runner.examples.appendingPathComponent("message-delay.xml").path])
        repl.expect("stanzaq> ")
        repl.send("{urn:xmpp:d\t")
        repl.expect("elay}")   // libedit redraws only what completion inserted
        repl.send("delay@stamp\r")
        repl.expect("2002-09-10T23:08:25Z\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// After `error@`, the attributes of that <error> (not of the whole stanza);
    /// after `{ns}` in a path, the children in that namespace of what the path selects.
    func testCompletionFollowsThePath() throws {
        let repl = try start(["-i", capture])
        repl.expect("stanzaq> ")
        repl.send(":use 16\r")
        repl.expect("current: 16 <iq>")
        repl.expect("stanzaq> ")
        repl.send("error@\t")
        repl.expect("type")   // the only attribute of <error>: completed at once
        repl.send("\r")
        repl.expect("cancel\r\n")
        repl.expect("stanzaq> ")
        repl.send("error/{urn:ietf:params:xml:ns:xmpp-stanzas}\t")
        repl.expect("\r\nservice-unavailable  text\r\n")
        repl.send("t\t")
        repl.expect("ext")
        repl.send("#\r")
        repl.expect("Recipient does not answer service discovery\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    func testConversionCompletionAfterPipe() throws {
        let repl = try start(["-i", Runner.examples.appendingPathComponent("message-delay.xml").path])
        repl.expect("stanzaq> ")
        repl.send("{urn:xmpp:delay}delay@stamp|da\t")
        repl.expect("tetime")
        repl.send("\r")
        repl.expect("2002-09-10T23:08:25Z\r\n")
        // The first Tab completes the common prefix, the second lists the candidates.
        // (Each Tab waits for the last one's answer: a Tab typed before the one
        // before was handled would be taken for pasted text.)
        repl.send("/@from|uu\t")
        repl.expect("id")
        repl.send("\t")
        repl.expect("uuid  uuidcast")
        repl.send("\u{15}:quit\r")
        XCTAssertEqual(repl.exitStatus(), 0)
    }

    func testControlCClearsTheLineAndControlDExits() throws {
        let repl = try start(["-i", capture])
        repl.expect("stanzaq> ")
        repl.send("this is abandoned")
        repl.expect("abandoned")
        repl.send("\u{3}")
        repl.expect("stanzaq> ")
        repl.send("/@type\r")
        repl.expect("chat\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    func testHistoryFileIsWritten() throws {
        let repl = try start(["-i", capture])
        repl.expect("stanzaq> ")
        repl.send("body#\r")
        repl.expect("Mantua.")
        repl.send(":list\r")
        repl.expect("* 18")
        XCTAssertEqual(repl.endWithControlD(), 0)
        let history = try String(contentsOf: stateHome.appendingPathComponent("stanzaq/history"), encoding: .utf8)
        XCTAssertEqual(history, "_HiStOrY_V2_\nbody#\n:list\n")
    }

    private var historyURL: URL { stateHome.appendingPathComponent("stanzaq/history") }

    /// Runs the REPL on capture.xml, enters `lines` (each answered before the next),
    /// and ends it with Ctrl-D.
    private func enter(_ lines: [(line: String, answer: String)], environment: [String: String?] = [:]) throws {
        let repl = try start(["-i", capture], environment: environment)
        repl.expect("stanzaq> ")
        for (line, answer) in lines {
            repl.send(line + "\r")
            repl.expect(answer)
        }
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// Each entry is appended to the file as it is (libedit's format kept: spaces as
    /// `\040`, a backslash doubled), and the history read at start is recalled.
    func testHistoryIsAppendedAndRecalled() throws {
        try FileManager.default.createDirectory(at: historyURL.deletingLastPathComponent(), withIntermediateDirectories: false)
        let old = "_HiStOrY_V2_\n/@id\n/body<~\\\\d>#\\040|int\n"
        try Data(old.utf8).write(to: historyURL)
        let repl = try start(["-i", capture])
        repl.expect("stanzaq> ")
        repl.send("\u{10}\r")   // Ctrl-P: the last entry read
        repl.expect("stanzaq> ")
        repl.send("/@type | int\r")
        repl.expect("stanzaq> ")
        XCTAssertEqual(repl.endWithControlD(), 0)
        XCTAssertEqual(try String(contentsOf: historyURL, encoding: .utf8),
                       old + "/body<~\\\\d>#\\040|int\n/@type\\040|\\040int\n")
    }

    /// A SASL exchange never goes into the history: its <auth> holds credentials.
    func testPastedSASLIsNotHistory() throws {
        try enter([("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>", "...> "),
                   ("c2VjcmV0", "...> "), ("</auth>", "loaded 1 stanza"), ("/@mechanism", "PLAIN\r\n")])
        XCTAssertEqual(try String(contentsOf: historyURL, encoding: .utf8), "_HiStOrY_V2_\n/@mechanism\n")
    }

    /// A symlink at the history path is neither followed nor replaced: its target is
    /// never read, written or truncated, and there is no history file.
    func testHistorySymlinkIsNotFollowed() throws {
        try FileManager.default.createDirectory(at: historyURL.deletingLastPathComponent(), withIntermediateDirectories: false)
        let target = stateHome.appendingPathComponent("precious")
        try Data("_HiStOrY_V2_\nkeep me\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: historyURL, withDestinationURL: target)
        try enter([("/@type", "chat\r\n")])
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "_HiStOrY_V2_\nkeep me\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: historyURL.path), target.path)
    }

    /// A relative XDG_STATE_HOME is ignored (the XDG Base Directory specification):
    /// the history goes to ~/.local/state, created inside an existing home; nothing is
    /// created at the root or in the working directory.
    func testRelativeStateHomeFallsBackToHome() throws {
        let home = stateHome.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
        try enter([("/@type", "chat\r\n")], environment: ["XDG_STATE_HOME": "stanzaq-relative/state", "HOME": home.path])
        XCTAssertEqual(try String(contentsOf: home.appendingPathComponent(".local/state/stanzaq/history"), encoding: .utf8),
                       "_HiStOrY_V2_\n/@type\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/stanzaq-relative"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: Runner.examples.appendingPathComponent("stanzaq-relative").path))
    }

    /// A state directory that does not exist is not created (nor its missing parents):
    /// there is simply no history file.
    func testMissingStateHomeIsNotCreated() throws {
        let missing = stateHome.appendingPathComponent("missing/state")
        try enter([("/@type", "chat\r\n")], environment: ["XDG_STATE_HOME": missing.path])
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateHome.appendingPathComponent("missing").path))
    }

    /// The file is appended to, so it grows: at start, once it holds more than twice
    /// the 1000 entries kept, it is replaced by one with the last 1000.
    func testLongHistoryIsCutAtStart() throws {
        try FileManager.default.createDirectory(at: historyURL.deletingLastPathComponent(), withIntermediateDirectories: false)
        try Data(("_HiStOrY_V2_\n" + (1...2001).map { "/@n\($0)\n" }.joined()).utf8).write(to: historyURL)
        try enter([("/@type", "chat\r\n")])
        XCTAssertEqual(try String(contentsOf: historyURL, encoding: .utf8),
                       "_HiStOrY_V2_\n" + (1002...2001).map { "/@n\($0)\n" }.joined() + "/@type\n")
    }
}

/// The REPL without a terminal: no prompts, no banner; results only (in process).
final class ScriptedREPLTests: XCTestCase {
    private func script(_ lines: String, files: [String] = []) throws -> RunResult {
        try InProcess.stanzaq(["-i"] + files, stdin: Data(lines.utf8), in: PackagePaths.root)
    }

    /// An error of a query on the current stanza names no place (it is of no
    /// input); on a stanza of `:all`, its input and number.
    func testEvaluationErrorsOnTheCurrentStanzaAndInAll() throws {
        let result = try script("""
            <m id="a"/>
            /..
            :all /..

            """)
        XCTAssertEqual(result.output, "")
        XCTAssertEqual(result.stderr, """
            stanzaq: error: query '/..': '..' at column 2 climbs above <m>, the root of the stanza
            (paste 1):stanza 1: query '/..': '..' at column 2 climbs above <m>, the root of the stanza

            """)
        XCTAssertEqual(result.status, 2)
    }

    func testCommandsAndQueries() throws {
        let result = try script("""
            /@id
            :use 1
            /@from
            :first on
            :all /@id
            :output json
            /@@
            :args
            :quit
            /@never-reached

            """, files: ["examples/mam-page.xml"])
        XCTAssertEqual(result.output, """
            juliet1
            juliet@capulet.lit
            examples/mam-page.xml:1:aeb213
            examples/mam-page.xml:2:aeb214
            examples/mam-page.xml:3:aeb215
            examples/mam-page.xml:4:juliet1
            {"xmlns":"jabber:client","id":"aeb213","from":"juliet@capulet.lit","to":"juliet@capulet.lit/chamber"}
            no format arguments

            """)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    /// One numbering across files and pastes: `:all`'s prefixes are what `:use` takes.
    func testStanzasAreNumberedOnceAcrossFiles() throws {
        let result = try script("""
            <message id='pasted'/>
            :all /@id
            :use 6
            /@id

            """, files: ["examples/mam-fin.xml", "examples/mam-page.xml"])
        XCTAssertEqual(result.output, """
            examples/mam-fin.xml:1:juliet1
            examples/mam-page.xml:2:aeb213
            examples/mam-page.xml:3:aeb214
            examples/mam-page.xml:4:aeb215
            examples/mam-page.xml:5:juliet1
            (paste 1):6:pasted
            pasted

            """)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    func testPastedXMLAndFormatArguments() throws {
        let result = try script("""
            <iq type='result' id='x1'>
              <query xmlns='jabber:iq:roster'><item jid='a@b'/><item jid='c@d' name='C'/></query>
            </iq>
            :args c@d
            {jabber:iq:roster}query/item<jid=%@>@name
            :show

            """)
        XCTAssertEqual(result.output, """
            C
            <iq type='result' id='x1'>
              <query xmlns='jabber:iq:roster'>
                <item jid='a@b'/>
                <item jid='c@d' name='C'/>
              </query>
            </iq>

            """)
        XCTAssertEqual(result.status, 0)
    }

    func testEachQueryTakesTheArgumentsItHasSpecifiersFor() throws {
        let result = try script("""
            :args juliet1 ignored
            /@id
            /<id=%@>@type
            :args
            :quit

            """, files: ["examples/mam-fin.xml"])
        XCTAssertEqual(result.output, "juliet1\nresult\narguments: 'juliet1' 'ignored'\n")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    func testFailedLinesMakeStatusTwo() throws {
        let result = try script("""
            :bogus
            /@id
            <a><b></a>
            {x}a<
            :use 7

            """)
        XCTAssertEqual(result.output, "")
        XCTAssertEqual(result.stderr, """
            stanzaq: error: unknown command ':bogus' (commands: :help :load :list :use :show :fields :args :output :first :default-namespace :direction :explain :all :quit)
            stanzaq: error: no stanza loaded: paste XML (a line starting with '<') or :load FILE
            (paste 1):1:11: Opening and ending tag mismatch: b line 1 and a
            stanzaq: error: query: expected an attribute name after '<', found the end of the query at column 6
              {x}a<
                   ^
            stanzaq: error: :use takes a stanza number from 1 to 0

            """)
        XCTAssertEqual(result.status, 2)
    }

    func testCommandArgumentsAreSplitAsAShellSplitsThem() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("my capture.xml", "<message id='spaced'><body>hi</body></message>\n")
        let result = try InProcess.stanzaq(["-i"], stdin: Data("""
            :args 'Romeo Montague' "a \\"b\\"" c\\ d
            :args
            :load 'my capture.xml'
            /@id
            :load my capture.xml
            :args 'open
            :first "on"
            :q

            """.utf8), in: scratch.url)
        XCTAssertEqual(result.output, """
            arguments: 'Romeo Montague' 'a "b"' 'c d'
            spaced

            """)
        XCTAssertEqual(result.stderr, """
            stanzaq: error: my: No such file or directory
            stanzaq: error: capture.xml: No such file or directory
            stanzaq: error: unclosed ' in: 'open

            """)
        XCTAssertEqual(result.status, 2)
    }

    /// `:first`, `:default-namespace` and `:output` without an argument show their
    /// state; `-` clears the default namespace; `:output tsv` prints as `-o tsv`
    /// does: a row per stanza, its first result escaped.
    func testSettingsShowTheirState() throws {
        let result = try script("""
            :first
            :first on
            :first
            :default-namespace
            :default-namespace jabber:client
            :default-namespace
            <message><body>one\ttab</body><body>two</body></message>
            {jabber:client}body#
            :default-namespace -
            :default-namespace
            :output
            :output tsv
            :output
            :first off
            body#
            :output xml

            """)
        XCTAssertEqual(result.output, """
            first: off
            first: on
            no default namespace
            default namespace: jabber:client
            one\ttab
            no default namespace
            output: text
            output: tsv
            one\\ttab

            """)
        XCTAssertEqual(result.stderr, "stanzaq: error: usage: :output [text|json|tsv]\n")
        XCTAssertEqual(result.status, 2)
    }

    /// `~` and `~/…` in `:load` are the home directory, as in a shell.
    func testTildeIsTheHomeDirectory() throws {
        let home = try ScratchDirectory()
        try home.write("x.xml", "<message id='home'/>\n")
        let result = try Runner.stanzaq(["-i"], stdin: .text(":load ~/x.xml\n/@id\n:load '~/x.xml'\n"),
                                        environment: ["HOME": home.url.path])
        XCTAssertEqual(result.output, "home\n")
        XCTAssertEqual(result.stderr, "stanzaq: error: ~/x.xml: No such file or directory\n")
        XCTAssertEqual(result.status, 2)
    }

    /// Options that mean nothing in the REPL are refused, not silently ignored.
    func testOptionsThatDoNotApplyAreRejected() throws {
        let result = try Runner.stanzaq(["-i", "-c", "capture.xml"])
        XCTAssertEqual(result.output, "")
        XCTAssertEqual(result.stderr, "stanzaq: error: -c/--count does not apply to the REPL (-i)\n")
        XCTAssertEqual(result.status, 2)
        let several = try Runner.stanzaq(["-i", "-H", "--color", "never", "-e", "/@id", "capture.xml"])
        XCTAssertEqual(several.stderr, "stanzaq: error: -e/--query, -H/--with-filename, --color do not apply to the REPL (-i)\n")
        XCTAssertEqual(several.status, 2)
        let threads = try Runner.stanzaq(["-i", "--threads", "2", "capture.xml"])
        XCTAssertEqual(threads.stderr, "stanzaq: error: --threads does not apply to the REPL (-i)\n")
        XCTAssertEqual(threads.status, 2)
        let epoch = try Runner.stanzaq(["-i", "--epoch", "--json", "message-delay.xml"],
                                       stdin: .text("{urn:xmpp:delay}delay@stamp|datetime\n"))
        XCTAssertEqual(epoch.output, "1031699305\n")
        XCTAssertEqual(epoch.status, 0)
    }

    /// Files are loaded lazily (offsets, read again on demand): a stream long enough
    /// for the reader to restart its parser (every 1000 stanzas), with a declaration
    /// and namespaces on its header, gives back every stanza as it was, in every command.
    func testLazilyLoadedStreamGivesBackEveryStanza() throws {
        let scratch = try ScratchDirectory()
        let stanzas = (1...2500).map { "<message id='m\($0)'><body>b\($0)</body><x:y xmlns:x='urn:x' x:n='\($0)'/></message>\n" }
        try scratch.write("stream.xml", "<?xml version='1.0'?>\n<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
                          + stanzas.joined())
        try scratch.write("two.xml", "<iq id='last' type='get'/>\n")
        let result = try InProcess.stanzaq(["-i", "stream.xml", "two.xml"], stdin: Data("""
            /@id
            :use 1001
            {jabber:client}body#
            :use 2500
            {urn:x}y@{urn:x}n
            :all /<id=m999>/{jabber:client}body#
            :all /<id~^m100[01]$>@id
            :all /<type=get>$

            """.utf8), in: scratch.url)
        XCTAssertEqual(result.output, """
            last
            b1001
            2500
            stream.xml:999:b999
            stream.xml:1000:m1000
            stream.xml:1001:m1001
            two.xml:2501:iq

            """)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    /// A gzip file cannot be read again by offsets: its stanzas are kept, and it
    /// reads as the same file uncompressed does.
    func testGzipFileIsLoadedWhole() throws {
        let scratch = try ScratchDirectory()
        let gzip = try Runner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "gzip -c \(Runner.examples.path)/capture.xml > capture.xml.gz"],
                                  in: scratch.url, environment: Runner.environment())
        XCTAssertEqual(gzip.status, 0)
        let result = try InProcess.stanzaq(["-i", "capture.xml.gz"], stdin: Data(":use 16\n/@id\n:all /<type=error>@id\n".utf8),
                                           in: scratch.url)
        XCTAssertEqual(result.output, "disco-3e9f\ncapture.xml.gz:15:b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f\ncapture.xml.gz:16:disco-3e9f\n")
        XCTAssertEqual(result.stderr, "")
    }

    func testPasteLeftOpenAtTheEndOfTheScriptIsAnError() throws {
        let result = try script("<message><body>one</body>\n")
        XCTAssertEqual(result.output, "")
        XCTAssertEqual(result.stderr, "(paste 1):1:1: <message> is not closed (the input ends at 2:1)\n")
        XCTAssertEqual(result.status, 2)
    }
}
