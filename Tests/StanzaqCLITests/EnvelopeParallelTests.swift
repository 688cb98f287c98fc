import Foundation
import StanzaqTestSupport
import XCTest

/// A large log in an envelope is read in parts as a plain log is (stanzaq(1),
/// "Parallelism"): the envelope's text taken out of it, cut at lines, each part
/// read by a thread of its own with the input's lines and the envelope's facts;
/// from a second source or damage to the envelope on, one reader reads it. The
/// output is one thread's, whatever the parts.
final class EnvelopeParallelTests: CLITestCase {
    /// The fields a part must get right besides the stanzas: the input's line,
    /// the envelope's time and source, and the program's direction and session.
    static let columns = ["--fields", "line,time,source,direction,session", "-e", "/$", "-e", "/@id", "-e", "body#"]

    /// Every real-software log in each envelope that wraps one program's lines:
    /// at every part size the same output as one thread.
    func testEveryRealLogInEveryLineEnvelopeReadsAsOneThread() throws {
        let scratch = try ScratchDirectory()
        for name in try RealLogLines.names() {
            let lines = try RealLogLines.lines(of: name)
            for (envelope, text) in Self.wrapped(lines) {
                let path = try scratch.write("\(envelope)-\(name)", text).path
                try assertSameAsOneThread(Self.columns + [path], partSizes: [1, 120, 700])
            }
        }
    }

    /// The parts are kept (the text is read in parallel, not whole by one
    /// reader), and give the stanzas of the unwrapped log.
    func testPartsOfAnEnvelopedLogAreKept() throws {
        let scratch = try ScratchDirectory()
        let lines = try RealLogLines.lines(of: "prosody.log")
        // (Not the lines: the CRI log's long lines take two.)
        let plain = try Runner.stanzaq(["--threads", "1", "--fields", "direction,session", "-e", "/$", "-e", "/@id", RealLogLines.path("prosody.log")])
        for (envelope, text) in Self.wrapped(lines) {
            let path = try scratch.write("\(envelope).log", text).path
            let report = try partsReport(["-c", "/"], path, size: 1000)
            let numbers = report.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            XCTAssertTrue(report.hasPrefix("stanzaq: parts of \(path): "), "\(envelope): \(report)")
            XCTAssertGreaterThanOrEqual(numbers.last ?? 0, 10, "\(envelope): \(report)")
            let run = try Runner.stanzaq(["--threads", "2", "--fields", "direction,session", "-e", "/$", "-e", "/@id", path],
                                         environment: ["STANZAQ_PART_SIZE": "1000"])
            XCTAssertEqual(run.output, plain.output, envelope)
            XCTAssertEqual(run.stderr, "", envelope)
        }
    }

    /// A second source from the middle on (another container's lines in a
    /// compose log) is read by one reader from there, each source its own log;
    /// so is the rest after damage to the envelope, reported once, in place.
    func testASecondSourceOrDamageIsReadWholeFromThere() throws {
        let scratch = try ScratchDirectory()
        let server = try RealLogLines.lines(of: "prosody.log"), client = try RealLogLines.lines(of: "slixmpp-time-alice.log")
        let half = server.count / 2
        let compose = server[..<half].map { "prosody-1  | \($0)\n" }.joined()
            + RealLogLines.interleaved(Array(server[half...]), client, take: (2, 3), prefix: ("prosody-1  | ", "bot-1      | "))
        let composePath = try scratch.write("compose.log", compose).path
        let report = try partsReport(["-c", "/"], composePath, size: 1000)
        XCTAssertTrue(report.contains(" on: a second source at line \(half + 3)\n"), report)
        try assertSameAsOneThread(Self.columns + [composePath], partSizes: [1, 300, 1000])

        var damaged = server.map { "2026-11-25T19:05:14.123456789Z \($0)\n" }
        damaged[half] = "not a line of docker logs -t\n"
        let damagedPath = try scratch.write("damaged.log", damaged.joined()).path
        try assertSameAsOneThread(Self.columns + [damagedPath], partSizes: [1, 300, 1000])
        let run = try Runner.stanzaq(["--threads", "2", "-c", "/", damagedPath], environment: ["STANZAQ_PART_SIZE": "1000"])
        XCTAssertEqual(run.stderr, "\(damagedPath):\(half + 1):1: not a docker logs -t line: skipped\n")
        XCTAssertEqual(run.status, 2)
    }

    /// A selective query on a log in an envelope reads only the windows
    /// around the text's hits, as on the log itself: the same windows, the same
    /// output as a full read.
    func testPrefilterWindowsInAnEnvelope() throws {
        let scratch = try ScratchDirectory()
        let name = "slixmpp-time-alice.log"
        let lines = try RealLogLines.lines(of: name)
        let repeated = Array(repeating: lines, count: 6).flatMap { $0 }
        for (envelope, text) in Self.wrapped(repeated) {
            let path = try scratch.write("\(envelope)-\(name)", text).path
            let run = try Runner.stanzaq(["-c", "/iq<type=error>@id", path], environment: ["STANZAQ_PART_SIZE": "16384", "STANZAQ_DEBUG_PARTS": "1"])
            XCTAssertEqual(run.output, "12\n", envelope)
            // (The CRI log's long lines are taken apart in two: they are the same lines of text all the same.)
            XCTAssertEqual(run.stderr, "stanzaq: debug: prefilter: 'error' (any case, a whole value), '&#': 7 windows, 23797 of 157806 bytes read\n"
                           + "stanzaq: parts of \(path): 7 made, 7 kept\n", envelope)
            for options in [["/iq<type=error>@id"], ["--json", "--fields", "line,time,source,direction", "/message<type=chat>/body#"],
                            ["-c", "-e", "/iq<type=result>@id", "-e", "query@xmlns"]] {
                try assertSameAsReadingAll(options + [path])
            }
        }
    }

    /// The journal and syslog fixtures, two programs interleaved from their
    /// first lines: read whole, as one thread reads them.
    func testJournalAndSyslogFixturesReadAsOneThread() throws {
        let scratch = try ScratchDirectory()
        let folder = PackagePaths.file("Tests/Fixtures/envelopes")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".gz") {
            let text = try Runner.shell("gzip -dc '\(folder.appendingPathComponent(name).path)'").output
            let path = try scratch.write(String(name.dropLast(3)), text).path
            try assertSameAsOneThread(Self.columns + [path], partSizes: [1, 500])
        }
    }

    /// A log's lines as each envelope that wraps one program's lines writes them.
    static func wrapped(_ lines: [String]) -> [(String, String)] {
        let time = "2026-11-25T19:05:14.123456789Z"
        return [
            ("docker", lines.map { "\(time) \($0)\n" }.joined()),
            // A long line cut in two, as the CRI log writes a line longer than its buffer.
            ("cri", lines.map { line in
                line.count > 60
                    ? "\(time) stdout P \(line.prefix(40))\n\(time) stdout F \(line.dropFirst(40))\n"
                    : "\(time) stdout F \(line)\n"
            }.joined()),
            ("docker-json", lines.map {
                "{\"log\":\(RealLogLines.jsonString($0 + "\n", goEscapes: true)),\"stream\":\"stdout\",\"time\":\"\(time)\"}\n"
            }.joined()),
            // Docker's json-file with spaces after its colons and commas (another
            // writer's), taken apart as entries rather than as Docker writes them.
            ("json-spaced", lines.map {
                "{\"log\": \(RealLogLines.jsonString($0 + "\n")), \"stream\": \"stdout\", \"time\": \"\(time)\"}\n"
            }.joined()),
            ("compose", lines.map { "prosody-1  | \($0)\n" }.joined()),
            ("journal", lines.map { "Nov 25 19:05:14 capulet prosody[812]: \($0)\n" }.joined()),
        ]
    }
}
