import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A program running on a pseudo-terminal, driven like a person would.
final class TerminalSession {
    let master: Int32
    let pid: pid_t
    private(set) var screen = ""

    init(_ binary: URL, _ arguments: [String], environment: [String: String]) throws {
        // Everything the child needs is prepared before fork: after it, only exec.
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var size = winsize(ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        var master: Int32 = -1
        let pid = forkpty(&master, nil, nil, &size)
        if pid == 0 {
            execve(argv[0]!, argv, envp)
            _exit(127)
        }
        guard pid > 0 else { throw RunFailure(description: "forkpty failed: \(errno)") }
        self.master = master
        self.pid = pid
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }

    /// Types `text`, once the program reads the terminal in raw mode: this
    /// libedit prints its prompt before it leaves canonical mode, and a Ctrl-D
    /// typed in that instant would reach it as a NUL byte (`^@`).
    func send(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(10)
        var settings = termios()
        while tcgetattr(master, &settings) == 0, settings.c_lflag & tcflag_t(ICANON) != 0, Date() < deadline {
            usleep(2_000)
        }
        let written = text.withCString { write(master, $0, strlen($0)) }
        if written != text.utf8.count {
            XCTFail("writing to the terminal failed (errno \(errno))", file: file, line: line)
        }
    }

    /// Reads the terminal until its output (since the last `expect`) contains `text`.
    @discardableResult
    func expect(_ text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !screen.contains(text) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                XCTFail("timed out waiting for \(text.debugDescription); the terminal showed \(screen.debugDescription)", file: file, line: line)
                return screen
            }
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000)) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            screen += String(decoding: buffer[..<count], as: UTF8.self)
        }
        let seen = screen
        if let range = screen.range(of: text) { screen = String(screen[range.upperBound...]) }
        return seen
    }

    /// Ctrl-D; the exit status.
    func endWithControlD() -> Int32? {
        send("\u{4}")
        return exitStatus()
    }

    /// Waits for the program to exit; its status.
    func exitStatus(timeout: TimeInterval = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 20) > 0 {
                _ = read(master, &buffer, buffer.count)   // keep the terminal drained
            }
        }
        return nil
    }
}

final class REPLTests: XCTestCase {
    var stateHome: URL!

    override func setUpWithError() throws {
        stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("stanzaq-repl-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: stateHome)
    }

    private func start(_ arguments: [String]) throws -> TerminalSession {
        var environment = Runner.environment(["XDG_STATE_HOME": stateHome.path, "TERM": "xterm"])
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

    func testNamespaceCompletionAfterBrace() throws {
        let repl = try start(["-i", Runner.examples.appendingPathComponent("message-delay.xml").path])
        repl.expect("stanzaq> ")
        repl.send("{urn:xmpp:d\t")
        repl.expect("elay}")   // libedit redraws only what completion inserted
        repl.send("delay@stamp\r")
        repl.expect("2002-09-10T23:08:25Z\r\n")
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
        repl.send("/@id|uu\t")
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
}

/// The REPL without a terminal: no prompts, no banner; results only.
final class ScriptedREPLTests: XCTestCase {
    private func script(_ lines: String, files: [String] = []) throws -> RunResult {
        try Runner.run(Runner.requireBinary(), ["-i"] + files, stdin: Data(lines.utf8),
                       in: Runner.packageRoot, environment: Runner.environment())
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
            stanzaq: error: unknown command ':bogus' (commands: :help :load :list :use :show :args :output :first :default-namespace :explain :all :quit)
            stanzaq: error: no stanza loaded: paste XML (a line starting with '<') or :load FILE
            (paste 1):1:11: Opening and ending tag mismatch: b line 1 and a
            stanzaq: error: query: expected an attribute name after '<', found the end of the query at column 6
              {x}a<
                   ^
            stanzaq: error: :use takes a stanza number from 1 to 0

            """)
        XCTAssertEqual(result.status, 2)
    }
}
