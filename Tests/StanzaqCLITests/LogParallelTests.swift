import Foundation
import StanzaqTestSupport
import XCTest

/// A large log is cut into parts at lines and read by several threads; the
/// output, messages and exit status are those of `--threads 1` (stanzaq(1),
/// "Parallelism"), whether a part is kept or the log read again by one reader:
/// every format's sample repeated, cut every few lines (`STANZAQ_PART_SIZE`),
/// and a Prosody log with sessions interleaved, stanzas spanning lines, start
/// tags far from their stanzas, damaged records and reconnects.
final class LogParallelTests: CLITestCase {
    static let optionSets: [[String]] = [
        ["body#"],
        ["-e", "/$", "-e", "/@id"],
        ["--line-number", "-e", "/$", "-e", "/@id"],
        ["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id"],
        ["-n", "-H", "/@id"],
        ["-s", "--line-number", "/<type=error>"],
        ["-c", "-H", "/"],
        ["--direction", "in", "-c", "/"],
        ["-v", "-c", "body#"],
        ["-q", "/<type=error>"],
        ["-L", "/{jabber:client}presence"],
        ["-m", "3", "/@id"],
    ]

    /// (`--read-all`: the parts of the log, not the windows of a prefilter,
    /// which PrefilterTests compares with a full read.)
    func assertSameAsOneThread(_ arguments: [String], partSizes: [Int], file: StaticString = #filePath, line: UInt = #line) throws {
        let arguments = ["--read-all"] + arguments
        let one = try Runner.stanzaq(["--threads", "1"] + arguments)
        XCTAssertNil(one.signal, file: file, line: line)
        for size in partSizes {
            let several = try Runner.stanzaq(["--threads", "2"] + arguments, environment: ["STANZAQ_PART_SIZE": String(size)])
            let shown = "STANZAQ_PART_SIZE=\(size) stanzaq --threads 2 \(arguments.map(shellQuote).joined(separator: " "))"
            XCTAssertEqual(several.output, one.output, "stdout of \(shown)", file: file, line: line)
            XCTAssertEqual(several.stderr, one.stderr, "stderr of \(shown)", file: file, line: line)
            XCTAssertEqual(several.status, one.status, "exit status of \(shown)", file: file, line: line)
        }
    }

    func testEveryFormatsSampleRepeated() throws {
        let scratch = try ScratchDirectory()
        let samples = try FileManager.default.contentsOfDirectory(atPath: Runner.examples.appendingPathComponent("logs").path)
            .filter { $0 != "README.md" }.sorted()
        XCTAssertEqual(samples.count, 14)
        for sample in samples {
            let text = try String(contentsOf: Runner.examples.appendingPathComponent("logs/" + sample), encoding: .utf8)
            let path = try scratch.write(sample, String(repeating: text, count: 6)).path
            for options in Self.optionSets {
                try assertSameAsOneThread(options + [path], partSizes: [1, 120, 700])
            }
        }
    }

    /// The logs real software wrote (Tests/Fixtures/real-logs), each repeated:
    /// learned record prefixes, the look-ahead after a pasted record line, start
    /// tags with reordered attributes, and libstrophe's format read in parts.
    func testRealSoftwareLogs() throws {
        let scratch = try ScratchDirectory()
        let folder = PackagePaths.file("Tests/Fixtures/real-logs/logs")
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(logs.count, 8)
        for log in logs {
            let text = try String(contentsOf: folder.appendingPathComponent(log), encoding: .utf8)
            let path = try scratch.write(log, String(repeating: text, count: 3)).path
            for options in [["-e", "/$", "-e", "/@id", "-e", "body#"], ["--json", "--fields", "line,time,direction,session", "/@id"],
                            ["-c", "/{jabber:client}message<type=chat>"],
                            ["-c", "--fields", "direction", "-e", "/$", "-e", "/@type"], ["-c", "-H", "--json", "-e", "/$", "-e", "/@type"]] {
                try assertSameAsOneThread(options + [path], partSizes: [1, 700])
            }
        }
    }

    /// What the log fuzzer found (Fuzz/regressions/log), read in parts as whole.
    func testLogFuzzerFindings() throws {
        let folder = PackagePaths.file("Fuzz/regressions/log")
        let findings = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertFalse(findings.isEmpty)
        for finding in findings {
            let path = folder.appendingPathComponent(finding).path
            for options in [["-e", "/$", "-e", "/@id"], ["--json", "--fields", "line,time,direction,session", "/@id"]] {
                try assertSameAsOneThread(options + [path], partSizes: [1, 120, 700])
            }
        }
    }

    /// A Prosody log of `count` stanzas in three sessions (one s2s), logged as
    /// make-log.py logs them and worse: a start tag several lines after its
    /// stanza, a stanza whose text spans lines, now and then a damaged record
    /// and a new stream in a session.
    static func prosodyLog(stanzas count: Int) -> String {
        var lines: [String] = []
        for i in 0..<count {
            let session = ["c2s55e8a7f1c3a0", "c2s7f3b2c0d9e11", "s2sin5e1d3c2b1a"][i % 3]
            let time = String(format: "Nov 23 09:%02d:%02d ", i / 60 % 60, i % 60)
            let prefix = time + session + "\tdebug\t"
            let stanza: String
            switch i % 6 {
            case 0: stanza = "<message id='m\(i)' type='chat'><body>hello \(i)</body></message>"
            case 1: stanza = "<message id='e\(i)' type='error'><body>line one\n\tline two</body><error type='cancel'/></message>"
            case 2: stanza = "<iq id='q\(i)' type='get'><query xmlns='jabber:iq:roster'/></iq>"
            case 3: stanza = "<presence id='p\(i)'/>"
            case 4: stanza = "<iq id='q\(i)' type='result'/>"
            default: stanza = "<message id='x\(i)'><body>a &amp; b</body></message>"
            }
            let top = String(stanza[..<stanza.firstIndex(of: ">")!]).replacingOccurrences(of: "/", with: "") + ">"
            if i % 29 == 28 {
                lines.append(prefix + "RECV: <message id='d\(i)'><body>a & b</body></message>")
            } else if i % 31 == 30 {
                lines.append(prefix + "Client sent opening <stream:stream> to montague.lit")
                lines.append(prefix + "SEND: <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>")
            } else if i % 2 == 0 {
                lines.append(prefix + "RECV: " + stanza)
                if i % 5 == 0 {
                    // Its start tag after the next stanza's lines.
                    lines.append(time + "c2s99\tdebug\tRECV: <presence id='o\(i)'/>")
                }
                lines.append(prefix + "Received[\(session.prefix(3))]: " + top)
            } else {
                lines.append(prefix + "Sending[\(session.prefix(3))]: " + top)
                lines.append(prefix + "SEND: " + stanza)
            }
            if i % 10 == 0 { lines.append(prefix + "Client sent opening <stream:stream> to montague.lit") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func testProsodyLog() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("prosody.log", Self.prosodyLog(stanzas: 600)).path
        let run = try Runner.stanzaq(["--threads", "1", "-c", "/", path])
        XCTAssertEqual(run.status, 2, "the fixture has damaged records: \(run.stderr)")
        for options in Self.optionSets {
            try assertSameAsOneThread(options + [path], partSizes: [1, 300, 2000, 9000])
        }
    }

    /// Text a session's reader holds back after a stanza (`foo &bar`, damaged
    /// once the session's next record comes) while other sessions log on
    /// across several cuts: a part's fresh reader would never see it, so no
    /// cut is kept there, and the damage is reported as by one reader.
    func testTextHeldBackAcrossCuts() throws {
        var lines = ["Nov 23 09:00:00 c2saaaa\tdebug\tRECV: <iq id='h1'/>foo &bar"]
        for i in 0..<400 {
            lines.append("Nov 23 09:00:01 c2sbbbb\tdebug\tRECV: <message id='b\(i)'><body>\(i)</body></message>")
        }
        lines.append("Nov 23 09:00:02 c2saaaa\tdebug\tRECV: <presence id='after'/>")
        let scratch = try ScratchDirectory()
        let path = try scratch.write("held.log", lines.joined(separator: "\n") + "\n").path
        let run = try Runner.stanzaq(["--threads", "1", "-c", "/", path])
        XCTAssertEqual(run.stderr, path + ":402:37: EntityRef: expecting ';'\n")
        for options in [["-c", "/"], ["--line-number", "/@id"], ["--json", "--fields", "line,session", "/@id"]] {
            try assertSameAsOneThread(options + [path], partSizes: [1, 300, 2000])
        }
    }

    /// tshark's follow output without a stream header (a capture started
    /// mid-stream): its parser keeps the session of the `Filter:` line and the
    /// length of the chunk it reads, so the log is read by one thread.
    func testTsharkWithoutAStreamHeader() throws {
        var text = "===================================================================\nFollow: tcp,ascii\n"
            + "Filter: tcp.stream eq 0\nNode 0: 203.0.113.7:51234\nNode 1: 198.51.100.1:5222\n"
        for i in 0..<600 {
            let data = (0..<5).map { "<iq id='c\(i)-\($0)' type='get'/>" }.joined()
            text += (i % 2 == 0 ? "" : "\t") + "\(data.utf8.count)\n" + data + "\n"
        }
        text += "===================================================================\n"
        let scratch = try ScratchDirectory()
        let path = try scratch.write("tshark.txt", text).path
        let run = try Runner.stanzaq(["--threads", "1", "-c", "/", path])
        XCTAssertEqual(run.output, "3000\n")
        for options in [["-c", "/"], ["--json", "--fields", "line,session,direction", "/@id"]] {
            try assertSameAsOneThread(options + [path], partSizes: [1, 300, 2000])
        }
    }

    func testStandardInput() throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.write("prosody.log", Self.prosodyLog(stanzas: 200))
        for options in [["--line-number", "/@id"], ["-c", "-H", "/"]] {
            let one = try Runner.stanzaq(["--threads", "1"] + options, stdin: .file(log))
            let several = try Runner.stanzaq(["--threads", "2"] + options, stdin: .file(log), environment: ["STANZAQ_PART_SIZE": "400"])
            XCTAssertEqual(several.output, one.output)
            XCTAssertEqual(several.stderr, one.stderr)
            XCTAssertEqual(several.status, one.status)
        }
    }
}
