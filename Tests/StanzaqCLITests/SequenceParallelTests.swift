import Foundation
import StanzaqTestSupport
import XCTest

/// A top-level sequence of stanzas (a MAM dump, `grep -o` output: no stream
/// around them) is cut into parts as a stream is (stanzaq(1), "Parallelism"):
/// every run here compares the output, messages and exit status of
/// `--threads 2` with `--threads 1`, cut every few stanzas
/// (`STANZAQ_PART_SIZE`), over clean and damaged sequences.
final class SequenceParallelTests: CLITestCase {
    static let optionSets: [[String]] = ParallelTests.optionSets + [
        ["-c", "/$"],
        ["-n", "/@id"],
        ["--json", "-n", "/@id"],
        ["-s", ""],
        ["-m", "5", "-n", "/@id"],
        ["-l", "/<type=error>"],
    ]

    /// `count` stanzas, one a line mostly: multi-line ones, two on a line,
    /// self-closing ones, text with multi-byte characters (which the cuts fall
    /// among), a long stanza now and then (spanning the place a part would end);
    /// `between`, put before every 50th stanza: a comment, an XML declaration,
    /// damage.
    static func sequence(stanzas count: Int, between: String? = nil) -> String {
        var text = ""
        for i in 0..<count {
            if let between, i % 50 == 25 { text += between }
            switch i % 6 {
            case 0:
                text += "<message from='romeo@montague.lit/orchard' to='juliet@capulet.lit' type='chat' id='m\(i)'><body>héllo \(i) — 😀</body></message>\n"
            case 1:
                text += "<presence from='nurse@capulet.lit/\(i)' id='p\(i)'/>\n"
            case 2:
                text += "<iq type='result' id='q\(i)'>\n  <query xmlns='jabber:iq:roster'><item jid='a@b'/></query>\n</iq>\n"
            case 3:
                text += "<message id='e\(i)' type='error'><body>ü\(String(repeating: "é", count: i % 40))</body><error type='cancel'/></message>\n"
            case 4:
                text += "<message id='t\(i)'><body>one</body></message> <message id='u\(i)'><body>two</body></message>\n"
            default:
                let long = i % 30 == 5 ? String(repeating: "ß", count: 3000) : "x"
                text += "<message id='l\(i)' type='chat'><body>\(long)</body></message>\n"
            }
        }
        return text
    }

    func check(_ text: String, status: Int32, sizes: [Int], file: StaticString = #filePath, line: UInt = #line) throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("sequence.xml", text).path
        let run = try Runner.stanzaq(["--threads", "1", "-c", "/$", path])
        XCTAssertEqual(run.status, status, "the fixture: \(run.stderr)", file: file, line: line)
        for options in Self.optionSets {
            try assertSameAsOneThread(options + [path], partSizes: sizes, file: file, line: line)
        }
    }

    func testCleanSequence() throws {
        try check(Self.sequence(stanzas: 300), status: 0, sizes: [1, 300, 2500] + ParallelTests.randomSizes(seed: 7, count: 2, upTo: 4000))
    }

    func testCommentsBetweenStanzas() throws {
        try check(Self.sequence(stanzas: 300, between: "<!-- a comment with <message> in it -->\n"), status: 0, sizes: [1, 700, 3000])
    }

    func testXMLDeclarationsBetweenStanzas() throws {
        try check(Self.sequence(stanzas: 300, between: "<?xml version='1.0'?>\n"), status: 0, sizes: [1, 700, 3000])
    }

    func testDamageInTheMiddle() throws {
        try check(Self.sequence(stanzas: 300, between: "<message id='d'><body>a & b</body></message>\n"), status: 2, sizes: [1, 700, 3000])
        try check(Self.sequence(stanzas: 300, between: "<message id='cut'><body>cut off\n"), status: 2, sizes: [1, 900])
        try check(Self.sequence(stanzas: 300, between: "text between stanzas\n"), status: 2, sizes: [1, 900])
        try check(Self.sequence(stanzas: 300, between: "</end>\n"), status: 2, sizes: [1, 900])
    }

    /// BOSH bodies and WebSocket framing among the stanzas (stanzaq(1),
    /// INPUT): the reader reads a body's children as the stanzas, the scanner
    /// counts them so, and no part is cut inside a body.
    func testFramesBetweenStanzas() throws {
        let body = "<body xmlns='http://jabber.org/protocol/httpbind' sid='s'><message xmlns='jabber:client' id='b'><body>in a body</body></message>\n"
            + "  <iq xmlns='jabber:client' type='result' id='c'/></body>\n"
            + "<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' to='example.com' version='1.0'/>\n"
        let text = Self.sequence(stanzas: 300, between: body)
        let scratch = try ScratchDirectory()
        let path = try scratch.write("framed.xml", text).path
        XCTAssertEqual(try Runner.stanzaq(["-c", "/{jabber:client}iq<id=c>", path]).output, "6\n")
        try check(text, status: 0, sizes: [1, 700, 3000])
        // The scanner counts what the reader reads: every part is kept.
        let run = try Runner.stanzaq(["--threads", "2", "-c", "/$", path], environment: ["STANZAQ_PART_SIZE": "700", "STANZAQ_DEBUG_PARTS": "1"])
        XCTAssertEqual(run.stderr, "stanzaq: parts of \(path): 41 made, 41 kept\n")
    }

    /// An end tag where none is open early in the input: elements before it
    /// that are not stanzas are dropped (they were the end of a stanza whose
    /// start was not read), stanzas are kept and the end tag is damage. The
    /// first part holds all the elements that can be dropped so.
    func testEndTagAmongTheFirstElements() throws {
        let text = "<message id='1'/>\n<message id='2'/>\n" + String(repeating: "<presence id='x'/>\n", count: 10) + "</foo>\n"
            + Self.sequence(stanzas: 100)
        try check(text, status: 2, sizes: [1, 40, 100])
        try check("<b>x</b>\n<c/>\n</foo>\n" + Self.sequence(stanzas: 100), status: 0, sizes: [1, 40, 100])
    }

    /// Parts are kept, not all read again by one reader (`STANZAQ_DEBUG_PARTS`
    /// says how many were made and kept at the end).
    func testPartsAreKept() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("sequence.xml", Self.sequence(stanzas: 300)).path
        let run = try Runner.stanzaq(["--threads", "2", "-c", "/$", path],
                                     environment: ["STANZAQ_PART_SIZE": "2000", "STANZAQ_DEBUG_PARTS": "1"])
        XCTAssertEqual(run.output, try Runner.stanzaq(["--threads", "1", "-c", "/$", path]).output)
        // "stanzaq: parts of PATH: N made, N kept"
        let words = run.stderr.split(whereSeparator: \.isWhitespace)
        XCTAssertTrue(run.stderr.hasPrefix("stanzaq: parts of \(path): "), run.stderr)
        let made = words.count > 6 ? Int(words[4]) : nil, kept = words.count > 6 ? Int(words[6]) : nil
        XCTAssertGreaterThan(made ?? 0, 5, run.stderr)
        XCTAssertEqual(kept, made, run.stderr)
    }
}
