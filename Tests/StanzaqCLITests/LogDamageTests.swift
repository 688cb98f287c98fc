import Foundation
import StanzaqTestSupport
import XCTest

/// Damage in a log or a long damaged stanza costs that stanza (stanzaq(1),
/// INPUT and LOGS): what fuzzing the readers with real logs found, each pinned
/// with the exact command, output, messages and exit status.
final class LogDamageTests: CLITestCase {
    /// A log over 1 MiB whose lines hold lone ESC bytes (colour codes cut short):
    /// cutting it into parts asked, for each line, what the line was without its
    /// escapes, and a lone ESC survived that, so the question was asked again forever.
    func testLoneEscapesInALargeLogAreTextWithAnyNumberOfThreads() throws {
        // (printf 'DEBUG    RECV: <iq id="a"/>\n'; yes $'\x1b' | head -n 600000) > esc.log
        let scratch = try ScratchDirectory()
        try scratch.write("esc.log", "DEBUG    RECV: <iq id=\"a\"/>\n" + String(repeating: "\u{1B}\n", count: 600_000))
        for threads in ["1", "2"] {
            let run = try Runner.stanzaq(["--threads", threads, "/@id", "esc.log"], in: scratch.url)
            XCTAssertNil(run.signal, "--threads \(threads)")
            XCTAssertEqual(run.output, "a\n", "--threads \(threads)")
            XCTAssertEqual(run.stderr, "", "--threads \(threads)")
            XCTAssertEqual(run.status, 0, "--threads \(threads)")
        }
    }

    /// An element left open, more text than the reader keeps while skipping
    /// (its start tag forgotten), then a stanza whose attribute never ends: the
    /// message names the open element from what the skip remembered of it.
    func testAnElementOpenedBeforeTheBytesKeptIsNamedFromMemory() throws {
        let scratch = try ScratchDirectory()
        let make = #"(printf '<x>'; head -c 40000 /dev/zero | tr '\0' y; printf '\n<m id="a</m>') > c.xml"#
        let expected = "c.xml:1:1: <x> is not closed (a new <m> starts at 2:1)\nc.xml:2:9: Unescaped '<' not allowed in attributes values\n"
        for threads in ["1", "2"] {
            let run = try Runner.shell("\(make); stanzaq --threads \(threads) -c / c.xml", in: scratch.url)
            XCTAssertNil(run.signal)
            XCTAssertEqual(run.output, "0\n")
            XCTAssertEqual(run.stderr, expected)
            XCTAssertEqual(run.status, 2)
        }
        let piped = try Runner.shell("\(make); cat c.xml | stanzaq -c /", in: scratch.url)
        XCTAssertEqual(piped.output, "0\n")
        XCTAssertEqual(piped.stderr, expected.replacingOccurrences(of: "c.xml:", with: "(standard input):"))
        XCTAssertEqual(piped.status, 2)
        // A stanza after it is read, and the root's line and column are where it opened.
        try assertStanzaq(["-n", "/@id"], stdin: "<a/>\n  <x>" + String(repeating: "y", count: 70_000) + "\n<m id='b'/>\n<m id='c'/>\n",
                          stdout: "2:b\n3:c\n", stderr: "(standard input):2:3: <x> is not closed (a new <m> starts at 3:1)\n",
                          status: 2)
    }

    /// tshark's follow output: chunks of one TCP stream (no line breaks between
    /// stanzas on the wire), each its length, then its data.
    static func tsharkFollow(_ chunks: [String]) -> String {
        let header = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='x' version='1.0'>"
        return "\n===================================================================\nFollow: tcp,ascii\nFilter: tcp.stream eq 0\n"
            + "Node 0: 127.0.0.1:5000\nNode 1: 127.0.0.1:5222\n"
            + ([header] + chunks).map { "\($0.utf8.count)\n\($0)\n" }.joined()
            + "===================================================================\n"
    }

    /// A stray `&`: libxml2 read a reference only once a `;` had come, so the
    /// stanza and every later one of its direction waited for one to the end.
    func testAStrayAmpersandInATsharkStreamCostsItsStanza() throws {
        let log = Self.tsharkFollow(["<message id='a'><body>one</body></message>", "<message id='b'><body>two & three</body></message>",
                                     "<message id='c'><body>four</body></message>", "<message id='d'><body>five</body></message>"])
        try assertStanzaq(["-e", "/@id"], stdin: log, stdout: "a\nc\nd\n",
                          stderr: "(standard input):12:28: xmlParseEntityRef: no name\n", status: 2)
        // The same in XML with no line break between stanzas, and after a name.
        let header = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>"
        try assertStanzaq(["-e", "/@id"], stdin: header + "<m id='a'>AT&T rocks</m><m id='b'/><m id='c'/>", stdout: "b\nc\n",
                          stderr: "(standard input):1:100: EntityRef: expecting ';'\n", status: 2)
    }

    /// A quote never closed: libxml2 stops at the first `<` inside the value; the
    /// tag ends there, and its element is skipped to its end.
    func testAnUnclosedQuoteInATsharkStreamCostsItsStanza() throws {
        let log = Self.tsharkFollow(["<message id='a'><body>one</body></message>", "<message id='b><body>two</body></message>",
                                     "<message id='c'><body>four</body></message>", "<message id='d'><body>five</body></message>"])
        try assertStanzaq(["-e", "/@id"], stdin: log, stdout: "a\nc\nd\n",
                          stderr: "(standard input):12:16: Unescaped '<' not allowed in attributes values\n", status: 2)
        let header = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>"
        try assertStanzaq(["-e", "/@id"], stdin: header + "<m id='b><x>t</x></m><m id='c'/><m id='d'/>", stdout: "c\nd\n",
                          stderr: "(standard input):1:95: Unescaped '<' not allowed in attributes values\n", status: 2)
        // Cut off by a new stanza inside the value.
        try assertStanzaq(["-e", "/@id"], stdin: header + "<message id='b<message id='c'/><m id='d'/>", stdout: "c\nd\n",
                          stderr: "(standard input):1:100: Unescaped '<' not allowed in attributes values\n", status: 2)
    }

    private static let ejabberd = "2026-11-23 09:30:13.220101+00:00 [notice] <0.1234.0> (tcp|<0.1234.0>) Received XML on stream = "
    private static let ejabberdOther = "2026-11-23 09:30:13.220101+00:00 [notice] <0.99.0> (tcp|<0.99.0>) Received XML on stream = "
    private static let streamTerm = #"<<"<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>">>"#

    func testAStrayAmpersandInAnEjabberdRecordCostsItsStanza() throws {
        let log = [Self.streamTerm, #"<<"<message id=\"p\"><body>&</body></message>">>"#, #"<<"<message id=\"q\"/>">>"#,
                   #"<<"<message id=\"r\"/>">>"#].map { Self.ejabberd + $0 + "\n" }.joined()
        try assertStanzaq(["-e", "/@id"], stdin: log, stdout: "q\nr\n",
                          stderr: "(standard input):2:96: xmlParseEntityRef: no name\n", status: 2)
    }

    /// A byte-list term left open, then a line that is not indented: the term
    /// ends there, and the records after it stay in their own sessions.
    func testAnEjabberdTermLeftOpenKeepsLaterRecordsInTheirSessions() throws {
        let log = [Self.ejabberd + Self.streamTerm, Self.ejabberdOther + Self.streamTerm, Self.ejabberd + "<<60,109,101,",
                   "garbled %%% line", Self.ejabberdOther + #"<<"<message id='q'/>">>"#, Self.ejabberdOther + #"<<"<message id='r'/>">>"#,
                   Self.ejabberd + #"<<"<message id='s'/>">>"#].joined(separator: "\n") + "\n"
        try assertStanzaq(["--fields", "session", "-e", "/@id"], stdin: log,
                          stdout: "tcp|<0.99.0>\tq\ntcp|<0.99.0>\tr\ntcp|<0.1234.0>\ts\n",
                          stderr: "(standard input):7:96: error parsing attribute name\n", status: 2)
    }

    /// A quote left open in ejabberd's records, over 12 MB of them: held up to
    /// libxml2's limit, reported once, and the stanza after it read. (Large
    /// inputs are made and read by child processes: this one's peak memory is
    /// the least a child reports, CLITestCase.assertBounded.)
    func testWhatAnOpenTagHoldsIsBoundedAndReportedOnce() throws {
        let scratch = try ScratchDirectory()
        let prefix = Self.ejabberd
        try scratch.write("head.log", prefix + Self.streamTerm + "\n" + prefix + #"<<"<message a='">>"# + "\n")
        try scratch.write("tail.log", prefix + #"<<"'/><message id='after'/>">>"# + "\n")
        let made = try Runner.shell("""
            { cat head.log; awk -v p='\(prefix)' 'BEGIN { x = sprintf("%4000s", ""); gsub(/ /, "x", x); \
              for (i = 0; i < 3000; i++) printf "%s<<\\"%s\\">>\\n", p, x }'; cat tail.log; } > open.log
            """, in: scratch.url)
        XCTAssertEqual(made.status, 0, made.stderr)
        try assertBounded(["-e", "/@id", "open.log"], in: scratch.url, stdout: "after\n",
                          stderrMatches: #"open\.log:2:96: internal error: Huge input lookup\n"#, status: 2)
    }

    /// A NUL in a log's text line is text: the input is recognised by its first
    /// byte, the same however a pipe's reads split it.
    func testANulInALogLineIsText() throws {
        let scratch = try ScratchDirectory()
        let log = "DEBUG    RECV: <iq id=\"a\"/>\n" + String(repeating: "DEBUG    some text\n", count: 300)
            + "DEBUG    some text \u{0} with a NUL\nDEBUG    RECV: <iq id=\"b\"/>\n"
        try scratch.write("nul.log", log)
        for arguments in [["--fields", "direction", "/@id", "nul.log"], ["--fields", "direction", "/@id"]] {
            let run = try Runner.stanzaq(arguments, stdin: .text(log), in: scratch.url)
            XCTAssertEqual(run.output, "in\ta\nin\tb\n", "\(arguments)")
            XCTAssertEqual(run.stderr, "", "\(arguments)")
            XCTAssertEqual(run.status, 0, "\(arguments)")
        }
        // Binary data starts with a control byte.
        try assertStanzaq(["/"], stdin: "\u{1}\u{2}\u{3}\u{4} data", stdout: "",
                          stderr: "(standard input):1:1: the input is binary data, not XML (byte 0x01 at offset 0)\n", status: 2)
    }

    /// Text between a log's stanzas is not XML text: 13 MB of records without
    /// XML do not pile up to libxml2's limit.
    func testRecordsWithoutXMLDoNotPileUp() throws {
        let scratch = try ScratchDirectory()
        let made = try Runner.shell(#"{ seq 300000 | sed 's/^/DEBUG    SEND: hello there, no xml at all /'; echo 'DEBUG    RECV: <iq id="z"/>'; } > noxml.log"#,
                                    in: scratch.url)
        XCTAssertEqual(made.status, 0, made.stderr)
        try assertBounded(["/@id", "noxml.log"], in: scratch.url, stdout: "z\n", status: 0)
    }

    /// A chunk's length that covers the next chunk's length line (a line of data
    /// missing): that line is the next chunk's length, not data.
    func testATsharkChunkLengthCoveringTheNextLengthLine() throws {
        var log = Self.tsharkFollow(["<message id='a'/>", "<message id='b'/>", "<message id='c'/>"])
        log = log.replacingOccurrences(of: "17\n<message id='b'/>\n17\n", with: "20\n<message id='b'/>\n\t17\n")
        try assertStanzaq(["--fields", "direction", "-e", "/@id"], stdin: log, stdout: "out\ta\nout\tb\nin\tc\n", status: 0)
        // One that covers less than its data: the rest of the data goes on in the chunk.
        let short = Self.tsharkFollow(["<message id='d'>\n<body>x</body></message>"]).replacingOccurrences(of: "\n40\n", with: "\n17\n")
        try assertStanzaq(["-e", "/@id", "-e", "body#"], stdin: short, stdout: "d\tx\n", status: 0)
    }

    /// A line of 100 MB is never held whole (it was held three times over):
    /// past a stanza's limit it is reported and skipped, and the next line read.
    func testALongLineIsSkippedPastAStanzasLimit() throws {
        let scratch = try ScratchDirectory()
        let made = try Runner.shell(#"{ printf 'DEBUG    RECV: <iq id="a"/>\nDEBUG    RECV: <message id="long"><body>'; head -c 100000000 /dev/zero | tr '\0' x; printf '</body></message>\nDEBUG    RECV: <iq id="b"/>\n'; } > long.log"#,
                                    in: scratch.url)
        XCTAssertEqual(made.status, 0, made.stderr)
        try assertBounded(["/@id", "long.log"], in: scratch.url, stdout: "a\nb\n",
                          stderrMatches: #"long\.log:2:1: a line longer than 20065536 bytes \(stanzaq's limit\): skipped\n"#, status: 2)
    }

    /// A byte list with a number past any byte (a damaged line): it overflowed and
    /// trapped (the log fuzzer found it); such a number is no character.
    func testAnEjabberdByteListWithALongNumber() throws {
        let log = [Self.streamTerm, "<<60,109,32,105,100,61,39,97,39,47,62>>", "<<60,109,32,99999999999999999999999999999,47,62>>",
                   #"<<"<m id='b'/>">>"#].map { Self.ejabberd + $0 + "\n" }.joined()
        try assertStanzaq(["-c", "-e", "/"], stdin: log, stdout: "3\n", status: 0)
        try assertStanzaq(["-e", "/@id"], stdin: log, stdout: "a\nb\n", status: 0)
    }

    /// gzip is undone before anything looks at the input: a compressed log is a
    /// log (it was read as XML), from a file and from standard input.
    func testACompressedLogIsALog() throws {
        let scratch = try ScratchDirectory()
        let made = try Runner.shell("gzip -c logs/prosody.log > \(shellQuote(scratch.url.path))/prosody.log.gz")
        XCTAssertEqual(made.status, 0, made.stderr)
        // The same rows as the log itself (LogCommandTests.testProsodyLog pins those).
        let arguments = ["--fields", "line,direction", "-e", "/$", "-e", "/@id"]
        let plain = try Runner.stanzaq(arguments + ["logs/prosody.log"])
        XCTAssertEqual(plain.output.split(separator: "\n").count, 6)
        for threads in ["1", "2"] {
            let run = try Runner.stanzaq(["--threads", threads] + arguments + ["prosody.log.gz"], in: scratch.url)
            XCTAssertEqual(run.output, plain.output, "--threads \(threads)")
            XCTAssertEqual(run.stderr, "")
            XCTAssertEqual(run.status, 0)
        }
        let piped = try Runner.shell("gzip -c logs/prosody.log | stanzaq --log=prosody -c /")
        XCTAssertEqual(piped.output, "6\n")
        XCTAssertEqual(piped.status, 0)
    }

    /// Gajim's console comment with nothing between its direction and its end
    /// trapped (the log fuzzer found it): a record with no time or account.
    func testAGajimConsoleCommentWithoutADescription() throws {
        try assertStanzaq(["--fields", "direction", "-e", "/@id"], stdin: "<!-- Incoming -->\n<iq id='a'/>\n\n<!-- Outgoing (acct) -->\n<iq id='b'/>\n",
                          stdout: "in\ta\nout\tb\n", status: 0)
    }
}
