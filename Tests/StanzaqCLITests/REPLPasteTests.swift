import Foundation
import StanzaqTestSupport
import XCTest

/// Issue 31, item 12: a pasted block and the next typed line are always two
/// inputs. XML a paste leaves open (a stream with no end tag, a stanza cut off)
/// ends with the paste instead of swallowing the query typed after it.
final class REPLPasteTests: XCTestCase {
    var stateHome: URL!

    override func setUpWithError() throws {
        stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("stanzaq-paste-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: stateHome, withIntermediateDirectories: false)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: stateHome)
    }

    private func start(terminal: String) throws -> TerminalSession {
        var environment = Runner.environment(["XDG_STATE_HOME": stateHome.path, "TERM": terminal])
        environment["NO_COLOR"] = nil
        return try TerminalSession(Runner.requireBinary(), ["-i", Runner.examples.appendingPathComponent("capture.xml").path],
                                   environment: environment)
    }

    private let stream = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\r<message id='s1' type='normal'/>\r"

    /// Without bracketed paste (TERM=dumb), the paste arrives in one read, ending
    /// in a newline; the line typed after it is a query on what it loaded.
    func testBurstPasteOfAnOpenStreamEndsWithThePaste() throws {
        let repl = try start(terminal: "dumb")
        repl.expect("stanzaq> ")
        repl.send(stream)
        repl.expect("...> <message id='s1' type='normal'/>\r\nloaded 1 stanza; current: 19 <message>\r\nstanzaq> ")
        repl.send("/@type\r")
        repl.expect("/@type\r\nnormal\r\nstanzaq> ")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// A pasted stanza cut off is reported as at the end of the input; the next
    /// typed line is a query on the stanza that was current.
    func testBurstPasteOfACutStanzaIsReportedAndTheNextLineIsAQuery() throws {
        let repl = try start(terminal: "dumb")
        repl.expect("stanzaq> ")
        repl.send("<message id='cut'>\r<body>x</body>\r")
        repl.expect("...> <body>x</body>\r\n(paste 1):1:1: <message> is not closed (the input ends at 3:1)\r\nstanzaq> ")
        repl.send("/@id\r")
        repl.expect("/@id\r\nddc7cfae-1e73-490f-ae60-d082c2cfde8e\r\nstanzaq> ")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// The same with bracketed paste: the paste's last line ends it.
    func testBracketedPasteOfAnOpenStreamEndsWithThePaste() throws {
        let repl = try start(terminal: "xterm")
        repl.expect("stanzaq> ")
        repl.send("\u{1B}[200~" + stream + "\u{1B}[201~")
        repl.expect("loaded 1 stanza; current: 19 <message>\r\n")
        repl.expect("stanzaq> ")
        repl.send("/@type\r")
        repl.expect("/@type\r\n\u{1B}[?2004lnormal\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    /// XML typed line by line still goes on until it is complete (or an empty line).
    func testTypedStreamStillContinues() throws {
        let repl = try start(terminal: "dumb")
        repl.expect("stanzaq> ")
        repl.send("<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\r")
        repl.expect("...> ")
        repl.send("<message id='t1'/>\r")
        repl.expect("...> ")
        repl.send("\r")
        repl.expect("loaded 1 stanza; current: 19 <message>\r\nstanzaq> ")
        repl.send("/@id\r")
        repl.expect("t1\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    // Issue 43, item 7: LF ends a line as CR does, the last line of a paste included
    // (Ctrl-J, or a program that writes lines ending in LF to the terminal).

    private let streamWithLineFeeds = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n<message id='s1' type='normal'/>\n"

    func testBurstPasteEndingInLineFeedsEndsWithThePaste() throws {
        let repl = try start(terminal: "dumb")
        repl.expect("stanzaq> ")
        repl.send(streamWithLineFeeds)
        repl.expect("...> <message id='s1' type='normal'/>\r\nloaded 1 stanza; current: 19 <message>\r\nstanzaq> ")
        repl.send(":output json\n")
        repl.expect(":output json\r\noutput: json\r\nstanzaq> ")
        repl.send("/@type\n")
        repl.expect("/@type\r\n\"normal\"\r\nstanzaq> ")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    func testBracketedPasteEndingInLineFeedsEndsWithThePaste() throws {
        let repl = try start(terminal: "xterm")
        repl.expect("stanzaq> ")
        repl.send("\u{1B}[200~" + streamWithLineFeeds + "\u{1B}[201~")
        repl.expect("loaded 1 stanza; current: 19 <message>\r\n")
        repl.expect("stanzaq> ")
        repl.send(":output json\n")
        repl.expect("output: json\r\n")
        repl.expect("stanzaq> ")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    func testPastedStanzaWhoseLastLineEndsInALineFeedIsLoaded() throws {
        let repl = try start(terminal: "dumb")
        repl.expect("stanzaq> ")
        repl.send("<message id='lf'>\r<body>x</body>\r</message>\n")
        repl.expect("...> </message>\r\nloaded 1 stanza; current: 19 <message>\r\nstanzaq> ")
        repl.send(":output json\n")
        repl.expect(":output json\r\noutput: json\r\nstanzaq> ")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }

    func testLinesTypedWithControlJAreLinesAsWithReturn() throws {
        let repl = try start(terminal: "xterm")
        repl.expect("stanzaq> ")
        repl.send("<message id='typed'>\n")
        repl.expect("...> ")
        repl.send("</message>\n")
        repl.expect("loaded 1 stanza; current: 19 <message>\r\n")
        repl.expect("stanzaq> ")
        repl.send("/@id\n")
        repl.expect("typed\r\n")
        XCTAssertEqual(repl.endWithControlD(), 0)
    }
}
