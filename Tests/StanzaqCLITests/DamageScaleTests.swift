import Foundation
import StanzaqTestSupport
import XCTest

/// Damage costs time in proportion to the damaged bytes, however many damages
/// came before (stanzaq(1), INPUT): each run below took seconds to minutes, in
/// time quadratic in its input, and now takes a fraction of a second. The hang
/// guards are a minute; only the output is checked, never the time.
final class DamageScaleTests: CLITestCase {
    private func run(_ arguments: [String], stdin: RunInput = .none, in directory: URL = Runner.examples) throws -> RunResult {
        let run = try Runner.stanzaq(arguments, stdin: stdin, in: directory, timeout: 60)
        XCTAssertNil(run.signal, "stanzaq \(arguments) died of signal \(run.signal ?? 0) (or hung)")
        return run
    }

    /// 64,000 start tags each cut off by the next (192 KB, through a pipe): libxml2
    /// held each until a `>` came, which none did, and the rest of the input was
    /// read again after each damage (24 s).
    func testSixtyFourThousandCutStartTags() throws {
        let count = 64_000
        let run = try run(["-e", "/$"], stdin: .text(String(repeating: "<a\n", count: count)))
        let expected = (2...count).map { "(standard input):\($0):1: error parsing attribute name\n" }.joined()
            + "(standard input):\(count):1: <a> is not closed (the input ends at \(count + 1):1)\n"
        XCTAssertEqual(run.stderr, expected)
        XCTAssertEqual(run.output, "")
        XCTAssertEqual(run.status, 2)
    }

    /// Stream headers cut before their `>`, joined on one line.
    func testCutStreamHeadersOnOneLine() throws {
        let header = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'"
        let count = 8_000
        let run = try run(["-e", "/$"], stdin: .text(String(repeating: header, count: count) + "><message/>"))
        let expected = (1..<count).map { "(standard input):1:\(1 + $0 * header.count): attributes construct error\n" }.joined()
        XCTAssertEqual(run.stderr, expected)
        XCTAssertEqual(run.output, "message\n")
        XCTAssertEqual(run.status, 2)
    }

    /// 3,000 ejabberd records of 5 KB that each open a start tag (15 MB): past
    /// libxml2's limit of 10,000,000 bytes held, each record after it met the
    /// limit again ("Huge input lookup", 1,002 times, 28 s). Each record is its
    /// own damaged stanza, reported once, as when there are fewer of them.
    func testEjabberdRecordsThatEachOpenAStartTag() throws {
        let scratch = try ScratchDirectory()
        let prefix = "2026-11-25 19:05:22.906129+00:00 [notice] <0.525.0> (tcp|<0.525.0>) Received XML on stream = "
        let count = 3_000
        let name = String(repeating: "x", count: 5_000)
        var log = prefix + #"<<"<stream:stream to='localhost' xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client' xml:lang='en' version='1.0'>">>"# + "\n"
        log.reserveCapacity(count * (prefix.count + name.count + 10))
        for _ in 0..<count { log += prefix + #"<<"<a "# + name + #"">>"# + "\n" }
        log += prefix + #"<<"<message id='after'/>">>"# + "\n"
        try scratch.write("open.log", log)
        let run = try run(["-e", "/@id", "open.log"], in: scratch.url)
        let shortName = String(repeating: "x", count: 50) + "…"
        let expected = (3...(count + 2)).map { "open.log:\($0):94: Specification mandates value for attribute \(shortName)\n" }.joined()
        XCTAssertEqual(run.stderr, expected)
        XCTAssertEqual(run.output, "after\n")
        XCTAssertEqual(run.status, 2)
    }

    /// The message on text longer than libxml2's limit points where the text
    /// passes it, from a file and through a pipe in pieces of any size.
    func testTheTextLimitIsReportedWhereTheTextPassesIt() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("long.xml", "<a>" + String(repeating: "x", count: 10_500_000) + "</a>\n<b/>\n")
        let message = "1:10000004: text longer than 10000000 bytes (libxml2's limit)\n"
        let file = try run(["/$", "long.xml"], in: scratch.url)
        XCTAssertEqual(file.stderr, "long.xml:" + message)
        XCTAssertEqual(file.output, "b\n")
        XCTAssertEqual(file.status, 2)
        // dd writes what each read gave: pieces of 1,000,003 bytes, and of 4,093.
        for size in ["1000003", "4093"] {
            let piped = try Runner.shell("dd if=long.xml bs=\(size) status=none | stanzaq /$", in: scratch.url, timeout: 60)
            XCTAssertEqual(piped.stderr, "(standard input):" + message, "pieces of \(size)")
            XCTAssertEqual(piped.output, "b\n")
            XCTAssertEqual(piped.status, 2)
        }
    }
}
