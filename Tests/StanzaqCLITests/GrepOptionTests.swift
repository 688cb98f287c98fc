import Foundation
import StanzaqTestSupport
import XCTest

/// grep's habits on stanzas (stanzaq(1), OPTIONS: `-l`, `-L`, `-m`, `-A`, `-B`,
/// `-C`, `--pair`; OUTPUT, Context): exact output alone and with `-H`, `-n`,
/// `-o json`, `-0`, several files and standard input.
final class GrepOptionTests: CLITestCase {
    /// Seven stanzas: an iq request and its result around a message, a presence,
    /// a message, an error without its request, a message without a body.
    static let a = """
        <iq type='get' id='q1'/>
        <message id='m1'><body>one</body></message>
        <iq type='result' id='q1'/>
        <presence id='p1'/>
        <message id='m2'><body>two</body></message>
        <iq type='error' id='q2'/>
        <message id='m3'/>

        """
    static let b = """
        <presence id='p2'/>
        <iq type='set' id='q3'/>

        """

    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        scratch = try ScratchDirectory()
        try scratch.write("a.xml", Self.a)
        try scratch.write("b.xml", Self.b)
    }

    private func run(_ arguments: [String], stdin: String? = nil, stdout: String, stderr: String = "", status: Int32,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        try assertStanzaq(arguments, stdin: stdin, in: scratch.url, stdout: stdout, stderr: stderr, status: status,
                          file: file, line: line)
    }

    private func usageError(_ arguments: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try run(arguments, stdout: "",
                stderr: "stanzaq: error: \(message)\nUsage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n",
                status: 2, file: file, line: line)
    }

    // MARK: -l, -L

    func testFilesWithMatches() throws {
        try run(["-l", "body#", "a.xml", "b.xml"], stdout: "a.xml\n", status: 0)
        try run(["--files-with-matches", "/iq", "a.xml", "b.xml"], stdout: "a.xml\nb.xml\n", status: 0)
        try run(["-l", "nothing", "a.xml", "b.xml"], stdout: "", status: 1)
        // -H changes nothing; -v: the files with a stanza that has no result.
        try run(["-l", "-H", "body#", "a.xml", "b.xml"], stdout: "a.xml\n", status: 0)
        try run(["-l", "-v", "/presence", "a.xml", "b.xml"], stdout: "a.xml\nb.xml\n", status: 0)
        try run(["-l", "-v", "/*", "a.xml"], stdout: "", status: 1)
        // Several queries: any one.
        try run(["-l", "-e", "nothing", "-e", "/presence", "a.xml", "b.xml"], stdout: "a.xml\nb.xml\n", status: 0)
    }

    func testFilesWithMatchesForms() throws {
        try run(["-l", "-0", "/iq", "a.xml", "b.xml"], stdout: "a.xml\0b.xml\0", status: 0)
        try run(["-l", "-o", "json", "/iq", "a.xml", "b.xml"], stdout: "\"a.xml\"\n\"b.xml\"\n", status: 0)
        try run(["-l", "body#"], stdin: Self.a, stdout: "(standard input)\n", status: 0)
        try run(["-l", "body#", "b.xml", "-", "a.xml"], stdin: Self.a, stdout: "(standard input)\na.xml\n", status: 0)
        try run(["-L", "body#", "-"], stdin: Self.b, stdout: "(standard input)\n", status: 1)
        // A name that could forge a record is escaped, except NUL-separated (for xargs -0).
        try scratch.write("new\nline.xml", Self.b)
        try run(["-l", "/presence", "new\nline.xml"], stdout: "new\\nline.xml\n", status: 0)
        try run(["-l", "-0", "/presence", "new\nline.xml"], stdout: "new\nline.xml\0", status: 0)
        try run(["-l", "--json", "/presence", "new\nline.xml"], stdout: "\"new\\nline.xml\"\n", status: 0)
    }

    /// Reading stops at the first selected stanza: damage after it is never read.
    func testFilesWithMatchesStopsAtFirst() throws {
        try scratch.write("damaged.xml", "<message><body>x</body></message>\n<message><body>a & b</body></message>\n")
        try run(["-l", "body#", "damaged.xml"], stdout: "damaged.xml\n", status: 0)
        try run(["-c", "body#", "damaged.xml"], stdout: "1\n", stderr: "damaged.xml:2:19: xmlParseEntityRef: no name\n", status: 2)
    }

    /// grep's exit status: 0 when some stanza was selected, whether or not a name was printed.
    func testFilesWithoutMatch() throws {
        try run(["-L", "body#", "a.xml", "b.xml"], stdout: "b.xml\n", status: 0)
        try run(["--files-without-match", "body#", "a.xml"], stdout: "", status: 0)
        try run(["-L", "body#", "b.xml"], stdout: "b.xml\n", status: 1)
        try run(["-L", "-0", "nothing", "a.xml", "b.xml"], stdout: "a.xml\0b.xml\0", status: 1)
        try run(["-L", "--json", "body#", "a.xml", "b.xml"], stdout: "\"b.xml\"\n", status: 0)
        // A file that cannot be opened is reported, not listed.
        try run(["-L", "body#", "missing.xml", "b.xml"], stdout: "b.xml\n",
                stderr: "stanzaq: error: missing.xml: No such file or directory\n", status: 2)
    }

    func testFileListsRejectWhatTheyCannotPrint() throws {
        try usageError(["-l", "-c", "x", "a.xml"], "choose one of -q, -c, -s, -l and -L")
        try usageError(["-l", "-L", "x", "a.xml"], "choose one of -q, -c, -s, -l and -L")
        try usageError(["-l", "-n", "x", "a.xml"], "-l prints file names, which have no stanza number (-n)")
        try usageError(["-L", "--line-number", "x", "a.xml"], "-L prints file names, which have no log fields (--line-number, --fields)")
        try usageError(["-l", "-C", "1", "x", "a.xml"], "-C prints stanzas around selected ones, which -l does not print")
        try usageError(["-L", "--pair", "x", "a.xml"], "--pair prints stanzas, which -L does not print")
    }

    // MARK: -m

    func testMaxCount() throws {
        try run(["-m", "1", "body#", "a.xml"], stdout: "one\n", status: 0)
        try run(["--max-count", "2", "-n", "-H", "/@id", "a.xml", "b.xml"],
                stdout: "a.xml:1:q1\na.xml:2:m1\nb.xml:1:p2\nb.xml:2:q3\n", status: 0)
        try run(["-m1", "-s", "-n", "/message", "a.xml"], stdout: "2:<message id='m1'><body>one</body></message>\n", status: 0)
        try run(["-m", "2", "-c", "-H", "/iq", "a.xml", "b.xml"], stdout: "a.xml:2\nb.xml:1\n", status: 0)
        try run(["-m", "2", "-c", "/iq", "a.xml", "b.xml"], stdout: "3\n", status: 0)
        try run(["-m", "1", "-v", "-n", "/iq", "a.xml"], stdout: "2:<message id='m1'><body>one</body></message>\n", status: 0)
        try run(["-m", "1", "-n", "--json", "/@id"], stdin: Self.b, stdout: "{\"stanza\":1,\"value\":\"p2\"}\n", status: 0)
        try run(["-m", "2", "-0", "/@id", "a.xml"], stdout: "q1\0m1\0", status: 0)
        try run(["-m", "1", "-e", "/@id", "-e", "body#", "a.xml", "b.xml"], stdout: "q1\t\np2\t\n", status: 0)
        // -m 0 reads no stanza.
        try run(["-m", "0", "/@id", "a.xml"], stdout: "", status: 1)
    }

    /// Reading a file stops after the n-th stanza with a result: damage after it is never read.
    func testMaxCountStopsReading() throws {
        try scratch.write("damaged.xml", "<m><b>1</b></m>\n<m><b>2</b></m>\n<m><b>a & b</b></m>\n")
        try run(["-m", "2", "b#", "damaged.xml"], stdout: "1\n2\n", status: 0)
        try run(["-m", "3", "b#", "damaged.xml"], stdout: "1\n2\n", stderr: "damaged.xml:3:10: xmlParseEntityRef: no name\n", status: 2)
    }

    func testMaxCountMustBeANumber() throws {
        try usageError(["--max-count=-1", "x", "a.xml"], "-m needs a number of 0 or more, not -1")
        try usageError(["--context=-2", "-s", "x", "a.xml"], "-C needs a number of 0 or more, not -2")
    }

    /// `--follow -m 1` (and `-l`) waits for the first stanza with a result, then ends by itself.
    func testFollowEndsAfterMaxCount() throws {
        for (options, expected) in [(["-m", "1", "--line-number", "/@id"], "2:new\n"), (["-l", "/@id"], "PATH\n")] {
            let scratch = try ScratchDirectory()
            let path = scratch.url.appendingPathComponent("prosody.log")
            let line: (String) -> String = { "Nov 23 09:30:12 c2s1\tdebug\tRECV: <iq id='\($0)' type='get'/>\n" }
            try Data(line("old").utf8).write(to: path)
            let output = scratch.url.appendingPathComponent("out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = try Child([try Runner.requireBinary().path, "--follow"] + options + [path.path],
                                    environment: Runner.environment(), stdout: .file(output.path))
            // Give it time to open the file and go to its end before appending.
            Thread.sleep(forTimeInterval: 1)
            let handle = try FileHandle(forWritingTo: path)
            handle.seekToEndOfFile()
            handle.write(Data((line("new") + line("newer")).utf8))
            try handle.close()
            // A hang guard: it normally ends within a tenth of a second.
            let ended = process.wait(timeout: 60)
            XCTAssertEqual(ended?.status, 0, "\(options)")
            XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), expected.replacingOccurrences(of: "PATH", with: path.path))
        }
    }

    // MARK: -A, -B, -C

    func testContext() throws {
        try run(["-s", "-n", "-C", "1", "body", "a.xml"], stdout: """
            1-<iq type='get' id='q1'/>
            2:<message id='m1'><body>one</body></message>
            3-<iq type='result' id='q1'/>
            4-<presence id='p1'/>
            5:<message id='m2'><body>two</body></message>
            6-<iq type='error' id='q2'/>

            """, status: 0)
        try run(["-s", "-n", "-A1", "body", "a.xml"], stdout: """
            2:<message id='m1'><body>one</body></message>
            3-<iq type='result' id='q1'/>
            --
            5:<message id='m2'><body>two</body></message>
            6-<iq type='error' id='q2'/>

            """, status: 0)
        try run(["-s", "--before-context", "1", "body", "a.xml"], stdout: """
            <iq type='get' id='q1'/>
            <message id='m1'><body>one</body></message>
            --
            <presence id='p1'/>
            <message id='m2'><body>two</body></message>

            """, status: 0)
        // -A and -B win over -C; -C 0 separates groups only.
        try run(["-s", "-n", "-C", "5", "-A", "0", "-B", "0", "body", "a.xml"], stdout: """
            2:<message id='m1'><body>one</body></message>
            --
            5:<message id='m2'><body>two</body></message>

            """, status: 0)
        try run(["-s", "-n", "-C", "1", "nothing", "a.xml"], stdout: "", status: 1)
    }

    /// Groups of two files are separated too; context never crosses a file.
    func testContextAcrossFiles() throws {
        try run(["-s", "-H", "-n", "-B1", "/iq", "a.xml", "b.xml"], stdout: """
            a.xml:1:<iq type='get' id='q1'/>
            a.xml-2-<message id='m1'><body>one</body></message>
            a.xml:3:<iq type='result' id='q1'/>
            --
            a.xml-5-<message id='m2'><body>two</body></message>
            a.xml:6:<iq type='error' id='q2'/>
            --
            b.xml-1-<presence id='p2'/>
            b.xml:2:<iq type='set' id='q3'/>

            """, status: 0)
        try run(["-s", "-H", "-A", "3", "/message<id=m3>", "a.xml", "-"], stdin: Self.b, stdout: """
            a.xml:<message id='m3'/>

            """, status: 0)
        try run(["-s", "-H", "-A", "1", "/presence", "a.xml", "-"], stdin: Self.b, stdout: """
            a.xml:<presence id='p1'/>
            a.xml-<message id='m2'><body>two</body></message>
            --
            (standard input):<presence id='p2'/>
            (standard input)-<iq type='set' id='q3'/>

            """, status: 0)
    }

    func testContextForms() throws {
        try run(["-s", "-0", "-C0", "body", "a.xml"],
                stdout: "<message id='m1'><body>one</body></message>\0--\0<message id='m2'><body>two</body></message>\0", status: 0)
        // JSON: every record an object that says whether it is context; no "--".
        try run(["-s", "-n", "--json", "-C", "1", "/presence", "a.xml", "b.xml"], stdout: """
            {"stanza":3,"context":true,"value":"<iq type='result' id='q1'/>"}
            {"stanza":4,"context":false,"value":"<presence id='p1'/>"}
            {"stanza":5,"context":true,"value":"<message id='m2'><body>two</body></message>"}
            {"stanza":1,"context":false,"value":"<presence id='p2'/>"}
            {"stanza":2,"context":true,"value":"<iq type='set' id='q3'/>"}

            """, status: 0)
        try run(["-s", "-o", "json", "-A", "1", "/presence<id=p2>"], stdin: Self.b, stdout: """
            {"context":false,"value":"<presence id='p2'/>"}
            {"context":true,"value":"<iq type='set' id='q3'/>"}

            """, status: 0)
        // -v: the stanzas without a result are selected; context are those with.
        try run(["-v", "-n", "-C0", "/iq", "a.xml"], stdout: """
            2:<message id='m1'><body>one</body></message>
            --
            4:<presence id='p1'/>
            5:<message id='m2'><body>two</body></message>
            --
            7:<message id='m3'/>

            """, status: 0)
    }

    /// Colours as grep's: the separator after a context stanza's prefixes and `--` in cyan,
    /// file names magenta (also those of -l).
    func testContextColours() throws {
        let (magenta, green, cyan, reset) = ("\u{1B}[35m", "\u{1B}[32m", "\u{1B}[36m", "\u{1B}[0m")
        let result = try InProcess.stanzaq(["--color", "always", "-s", "-H", "-n", "-A1", "/<id=q3>", "b.xml", "a.xml"],
                                           in: scratch.url)
        let prefix = "\(magenta)b.xml\(reset)\(cyan):\(reset)\(green)2\(reset)\(cyan):\(reset)"
        XCTAssertTrue(result.output.hasPrefix(prefix), result.output.debugDescription)
        let context = try InProcess.stanzaq(["--color", "always", "-s", "-H", "-n", "-C0", "/iq<type=result>", "a.xml", "b.xml"],
                                            in: scratch.url)
        XCTAssertTrue(context.output.hasPrefix("\(magenta)a.xml\(reset)\(cyan):\(reset)\(green)3\(reset)\(cyan):\(reset)"),
                      context.output.debugDescription)
        let after = try InProcess.stanzaq(["--color", "always", "-s", "-H", "-A1", "/presence<id=p1>", "a.xml"], in: scratch.url)
        XCTAssertTrue(after.output.contains("\n\(magenta)a.xml\(reset)\(cyan)-\(reset)<"), after.output.debugDescription)
        let groups = try InProcess.stanzaq(["--color", "always", "-s", "-C0", "body", "a.xml"], in: scratch.url)
        XCTAssertTrue(groups.output.contains("\n\(cyan)--\(reset)\n"), groups.output.debugDescription)
        try run(["--color", "always", "-l", "/presence", "a.xml", "b.xml"], stdout: "\(magenta)a.xml\(reset)\n\(magenta)b.xml\(reset)\n", status: 0)
    }

    /// A huge -B holds the stanzas there are, not the number asked for.
    func testHugeContext() throws {
        try run(["-s", "-n", "-B", "1000000000", "-A", "1000000000", "/presence<id=p1>", "a.xml"], stdout: """
            1-<iq type='get' id='q1'/>
            2-<message id='m1'><body>one</body></message>
            3-<iq type='result' id='q1'/>
            4:<presence id='p1'/>
            5-<message id='m2'><body>two</body></message>
            6-<iq type='error' id='q2'/>
            7-<message id='m3'/>

            """, status: 0)
    }

    /// After the n-th stanza of -m, the stanzas after it are read for its context:
    /// printed as context, even one that has a result, as grep does.
    func testContextAfterMaxCount() throws {
        try run(["-s", "-n", "-m1", "-A3", "body", "a.xml"], stdout: """
            2:<message id='m1'><body>one</body></message>
            3-<iq type='result' id='q1'/>
            4-<presence id='p1'/>
            5-<message id='m2'><body>two</body></message>

            """, status: 0)
    }

    func testContextNeedsSelectedStanzas() throws {
        try usageError(["-C", "1", "body", "a.xml"], "-C prints stanzas around selected ones: add -s")
        try usageError(["-A", "1", "-c", "body", "a.xml"], "-A prints stanzas around selected ones, which -c does not print")
        try usageError(["-B", "1", "-q", "body", "a.xml"], "-B prints stanzas around selected ones, which -q does not print")
        try usageError(["-B", "1", "-e", "body", "-e", "/@id", "a.xml"], "-B prints stanzas around selected ones: add -s")
        try usageError(["-s", "-C", "1", "--pair", "body", "a.xml"], "choose one of -C and --pair")
        try run(["-C", "1", "-i", "a.xml"], stdout: "", stderr: "stanzaq: error: -C/--context does not apply to the REPL (-i)\n", status: 2)
    }

    // MARK: --pair

    func testPair() throws {
        // A response: its request first, as context, however far back.
        try run(["-s", "-n", "--pair", "/iq<type=result>", "a.xml"], stdout: """
            1-<iq type='get' id='q1'/>
            3:<iq type='result' id='q1'/>

            """, status: 0)
        // A request: its response when it comes.
        try run(["-s", "-n", "--pair", "/iq<type=get>", "a.xml"], stdout: """
            1:<iq type='get' id='q1'/>
            3-<iq type='result' id='q1'/>

            """, status: 0)
        // Both selected: each once; no partner: alone; other stanzas: no partner.
        try run(["-s", "-n", "--pair", "/iq", "a.xml"], stdout: """
            1:<iq type='get' id='q1'/>
            3:<iq type='result' id='q1'/>
            --
            6:<iq type='error' id='q2'/>

            """, status: 0)
        try run(["-s", "-n", "--pair", "body", "a.xml"], stdout: """
            2:<message id='m1'><body>one</body></message>
            --
            5:<message id='m2'><body>two</body></message>

            """, status: 0)
        try run(["-s", "--pair", "/iq<type=set>", "b.xml"], stdout: "<iq type='set' id='q3'/>\n", status: 0)
    }

    func testPairForms() throws {
        try run(["-s", "-H", "-n", "--pair", "/iq<type=result>", "b.xml", "a.xml"], stdout: """
            a.xml-1-<iq type='get' id='q1'/>
            a.xml:3:<iq type='result' id='q1'/>

            """, status: 0)
        try run(["-s", "--json", "--pair", "/iq<type=result>", "-"], stdin: Self.a, stdout: """
            {"context":true,"value":"<iq type='get' id='q1'/>"}
            {"context":false,"value":"<iq type='result' id='q1'/>"}

            """, status: 0)
        try run(["-s", "-0", "--pair", "/iq<type=result>"], stdin: Self.a,
                stdout: "<iq type='get' id='q1'/>\0<iq type='result' id='q1'/>\0", status: 0)
        // Partners never cross files: the result in a.xml is not the set's in b.xml.
        try scratch.write("c.xml", "<iq type='result' id='q3'/>\n")
        try run(["-s", "-H", "--pair", "/iq<type=set>", "b.xml", "c.xml"], stdout: "b.xml:<iq type='set' id='q3'/>\n", status: 0)
    }

    /// -m ends the selection, but the response to a selected request is still looked for.
    func testPairAfterMaxCount() throws {
        try run(["-s", "-H", "--pair", "-m1", "/iq<type=get>", "a.xml"], stdout: """
            a.xml:<iq type='get' id='q1'/>
            a.xml-<iq type='result' id='q1'/>

            """, status: 0)
    }

    /// In a log, the partner goes the other direction in the same session.
    func testPairInALog() throws {
        try assertStanzaq(["-s", "-n", "--fields", "direction,session", "--pair", "/iq<id=disco1><type=result>", "upload-error.log"],
                          stdout: """
            1-in\tc2s55e8a7f1c3a0\t<iq xmlns='jabber:client' type='get' id='disco1' to='montague.lit'><query xmlns='http://jabber.org/protocol/disco#items'/></iq>
            3:out\tc2s55e8a7f1c3a0\t<iq xmlns='jabber:client' type='result' id='disco1' from='montague.lit' to='juliet@montague.lit/balcony'><query xmlns='http://jabber.org/protocol/disco#items'><item jid='upload.montague.lit'/></query></iq>
            --
            2-in\tc2s7f3b2c0d9e11\t<iq xmlns='jabber:client' type='get' id='disco1' to='montague.lit'><query xmlns='http://jabber.org/protocol/disco#items'/></iq>
            4:out\tc2s7f3b2c0d9e11\t<iq xmlns='jabber:client' type='result' id='disco1' from='montague.lit' to='romeo@montague.lit/orchard'><query xmlns='http://jabber.org/protocol/disco#items'><item jid='upload.montague.lit'/></query></iq>

            """, status: 0)
        // A request the server sent (out) is answered by one it received (in).
        try assertStanzaq(["-s", "--line-number", "--pair", "{urn:xmpp:ping}ping", "upload-error.log"], stdout: """
            9:<iq xmlns='jabber:client' type='get' id='ping1' from='montague.lit' to='juliet@montague.lit/balcony'><ping xmlns='urn:xmpp:ping'/></iq>
            10-<iq xmlns='jabber:client' type='result' id='ping1' to='montague.lit'/>

            """, status: 0)
        // --direction selects; the partner going the other way is printed all the same.
        try assertStanzaq(["-s", "-n", "--direction", "in", "--pair", "/iq<id=slot1>", "upload-error.log"], stdout: """
            5:<iq xmlns='jabber:client' type='get' id='slot1' to='upload.montague.lit'><request xmlns='urn:xmpp:http:upload:0' filename='balcony.jpg' size='23456789' content-type='image/jpeg'/></iq>
            8-<iq xmlns='jabber:client' type='error' id='slot1' from='upload.montague.lit' to='juliet@montague.lit/balcony'><error type='modify'><not-acceptable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/><text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>File too large. The maximum file size is 10485760 bytes</text><file-too-large xmlns='urn:xmpp:http:upload:0'><max-file-size>10485760</max-file-size></file-too-large></error></iq>

            """, status: 0)
        try assertStanzaq(["-s", "-n", "--direction", "out", "--pair", "/iq<id=slot1>", "upload-error.log"], stdout: """
            5-<iq xmlns='jabber:client' type='get' id='slot1' to='upload.montague.lit'><request xmlns='urn:xmpp:http:upload:0' filename='balcony.jpg' size='23456789' content-type='image/jpeg'/></iq>
            8:<iq xmlns='jabber:client' type='error' id='slot1' from='upload.montague.lit' to='juliet@montague.lit/balcony'><error type='modify'><not-acceptable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/><text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>File too large. The maximum file size is 10485760 bytes</text><file-too-large xmlns='urn:xmpp:http:upload:0'><max-file-size>10485760</max-file-size></file-too-large></error></iq>

            """, status: 0)
        // --direction hides the other way from context: stanzas 6 and 7 (in, out) around 8 (out).
        try assertStanzaq(["-s", "-n", "--direction", "out", "-B", "1", "/iq<id=slot1>", "upload-error.log"], stdout: """
            7-<message xmlns='jabber:client' from='romeo@montague.lit/orchard' to='juliet@montague.lit' id='msg7' type='chat'><body>Wherefore art thou?</body></message>
            8:<iq xmlns='jabber:client' type='error' id='slot1' from='upload.montague.lit' to='juliet@montague.lit/balcony'><error type='modify'><not-acceptable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/><text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>File too large. The maximum file size is 10485760 bytes</text><file-too-large xmlns='urn:xmpp:http:upload:0'><max-file-size>10485760</max-file-size></file-too-large></error></iq>

            """, status: 0)
        // The same direction is no partner.
        try assertStanzaq(["-s", "--pair", "/iq<id=ping1><type=result>", "-"],
                          stdin: "RECV: <iq type='get' id='ping1'/>\nRECV: <iq type='result' id='ping1'/>\n",
                          stdout: "<iq xmlns='jabber:client' type='result' id='ping1'/>\n", status: 0)
    }

    func testPairNeedsSelectedStanzas() throws {
        try usageError(["--pair", "/iq", "a.xml"], "--pair prints the partners of selected stanzas: add -s")
        try usageError(["--pair", "-c", "/iq", "a.xml"], "--pair prints stanzas, which -c does not print")
    }

    /// Issue 42: with --where and a mode that prints no value, the query may be
    /// left out; a query operand that names a file on a terminal is said, not waited on.
    func testWhereWithoutAQuery() throws {
        try assertStanzaq(["-c", "--where", "/{jabber:client}message<type=error>", "capture.xml"], stdout: "1\n", status: 0)
        try assertStanzaq(["-l", "--where", "/{jabber:client}presence", "capture.xml", "message-delay.xml"],
                          stdout: "capture.xml\n", status: 0)
        // Without such a mode, the first operand is the query, as always.
        try assertStanzaq(["--where", "/{jabber:client}message<type=error>", "capture.xml", "capture.xml"],
                          stdout: "", stderr: "", status: 1)
    }

    func testAQueryThatNamesAFileOnATerminalIsAnError() throws {
        let file = Runner.examples.appendingPathComponent("capture.xml").path
        let session = try TerminalSession(Runner.requireBinary(), [file], environment: Runner.environment())
        session.expect("stanzaq: error: the query '\(file)' names a file, and standard input is a terminal: "
                       + "write the query first (stanzaq QUERY \(file))")
    }
}
