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

    func testEveryFormatsSampleRepeated() throws {
        let scratch = try ScratchDirectory()
        let samples = try FileManager.default.contentsOfDirectory(atPath: Runner.examples.appendingPathComponent("logs").path)
            .filter { $0 != "README.md" }.sorted()
        XCTAssertEqual(samples.count, 24)
        for sample in samples {
            let text = try String(contentsOf: Runner.examples.appendingPathComponent("logs/" + sample), encoding: .utf8)
            let path = try scratch.write(sample, String(repeating: text, count: 6)).path
            for options in Self.optionSets {
                try assertSameAsOneThread(options + [path], partSizes: [1, 120, 700])
            }
        }
    }

    /// The logs real software wrote (Tests/Fixtures/real-logs, and tshark's
    /// follow of their captures), each repeated: learned record prefixes, the
    /// look-ahead after a pasted record line, start tags with reordered
    /// attributes, ejabberd's terms over lines, tshark's chunks, UTF-8 of several
    /// bytes at line starts. Size 1 cuts at every line, inside stanzas too.
    /// Each is read with --log (go-xmpp's, which starts with `<`, is XML without it).
    func testRealSoftwareLogs() throws {
        let scratch = try ScratchDirectory()
        let logs = try Self.realLogs()
        XCTAssertEqual(logs.count, 27)
        for log in logs {
            let text = try String(contentsOf: log, encoding: .utf8)
            let path = try scratch.write(log.lastPathComponent, String(repeating: text, count: 3)).path
            for options in [["-e", "/$", "-e", "/@id", "-e", "body#"], ["--json", "--fields", "line,time,direction,session", "/@id"],
                            ["-c", "/{jabber:client}message<type=chat>"],
                            ["-c", "--fields", "direction", "-e", "/$", "-e", "/@type"], ["-c", "-H", "--json", "-e", "/$", "-e", "/@type"]] {
                try assertSameAsOneThread(["--log"] + options + [path], partSizes: [1, 700])
            }
        }
    }

    /// Tests/Fixtures/real-logs/logs and tshark's follow output there.
    static func realLogs() throws -> [URL] {
        let folder = PackagePaths.file("Tests/Fixtures/real-logs/logs")
        let tshark = PackagePaths.file("Tests/Fixtures/real-logs/tshark")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0) }
            + FileManager.default.contentsOfDirectory(atPath: tshark.path).filter { $0.hasSuffix("-follow.txt") }.sorted()
            .map { tshark.appendingPathComponent($0) }
    }

    /// Every log format's parts are read in parallel and kept: the parts of each
    /// sample and real log, repeated and cut small at several sizes, none falling
    /// back to one reader (which gives the same output, so that only this report
    /// tells the two apart). The samples are repeated past the 64 KB the format
    /// is detected in, which the first part holds; the generic format is known
    /// only at a log's end, and a log in an envelope (Prosody's syslog sample,
    /// an rsyslog file) is read by one reader for now: both are read whole.
    func testEveryFormatsPartsAreKept() throws {
        let scratch = try ScratchDirectory()
        let samples = try FileManager.default.contentsOfDirectory(atPath: Runner.examples.appendingPathComponent("logs").path)
            .filter { $0 != "README.md" }.sorted().map { Runner.examples.appendingPathComponent("logs/" + $0) }
        let realLogs = try Self.realLogs()
        for log in samples + realLogs {
            let text = try String(contentsOf: log, encoding: .utf8)
            let path = try scratch.write(log.lastPathComponent, String(repeating: text, count: max(6, (1 << 16) / text.utf8.count + 2))).path
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            for parts in [11, 40, 97] {
                // (Every real log is read as a log: go-xmpp's starts with `<`, XML but for --log.)
                let report = try partsReport((realLogs.contains(log) ? ["--log"] : []) + ["-c", "/"], path, size: size / parts)
                if log.lastPathComponent == "generic.log" {
                    XCTAssertEqual(report, "", "\(log.lastPathComponent) at \(size / parts)")
                    continue
                }
                if log.lastPathComponent == "prosody-syslog.log" {
                    // Syslog holds systemd's line, then Prosody's: two sources, read by one reader.
                    XCTAssertEqual(report, "stanzaq: debug: \(path): read whole from line 1 on: a second source at line 2\n"
                                   + "stanzaq: parts of \(path): 0 made, 0 kept\n", "\(log.lastPathComponent) at \(size / parts)")
                    continue
                }
                let numbers = report.dropFirst("stanzaq: parts of \(path): ".count).split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                XCTAssertEqual(report, "stanzaq: parts of \(path): \(numbers.first ?? 0) made, \(numbers.first ?? 0) kept\n",
                               "\(log.lastPathComponent) at \(size / parts)")
                XCTAssertGreaterThanOrEqual(numbers.first ?? 0, 3, "\(log.lastPathComponent) at \(size / parts): \(report)")
            }
        }
    }

    /// Where a part falls back, the report says so (and the output is one reader's).
    func testAPartThatFallsBackIsReported() throws {
        // A stanza over more lines than the producer looks back at: every cut is inside it.
        var lines = ["Nov 23 09:00:00 c2saaaa\tdebug\tRECV: <message id='long'><body>"]
        for i in 0..<300 { lines.append("\tline \(i) of a text that goes on for longer than four parts") }
        lines.append("\t</body></message>")
        for i in 0..<300 { lines.append("Nov 23 09:00:01 c2sbbbb\tdebug\tRECV: <iq id='b\(i)'/>") }
        let scratch = try ScratchDirectory()
        let path = try scratch.write("long.log", lines.joined(separator: "\n") + "\n").path
        let report = try partsReport(["-c", "/"], path, size: 200)
        XCTAssertTrue(report.hasPrefix("stanzaq: parts of \(path): "), report)
        XCTAssertTrue(report.contains(", fell back at part 0: "), report)
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

    /// Issue 43, item 1: a whole stanza of another session (a name damaged by
    /// a `:`) after a start tag that waits for its own. One reader hands it over
    /// behind that start tag, lines later; the part that holds it hands it over
    /// at its end. The next part falls back (its `Received[c2s]:` fares otherwise
    /// than in one reader), and the reader that takes over wrote it again.
    static let stanzaAfterAWaitingStartTag = [
        "Nov 25 19:05:14 c2s55ea4cf03p5881\tdebug\tSending[c2s]: <iq type='result' id='a2'>",
        "Nov 25 19:05:14 c2s55ea4cf03p5881\tdebug\tSEND: <iq type='result' id='a2'><query xmlns='jabber:iq:roster' ver='1'/></iq>",
        "Nov 25 19:05:14 c2s55ea4cf03p5881\tdebug\tSending[c2s]: <iq type='result' id='a2'>",
        "Nov 25 19:05:14 c2s55ea4cf03p:880\tdebug\tSEND: <iq type='result' id='a2'><query xmlns='jabber:iq:roster' ver='1'/></iq>",
        "Nov 25 19:05:14 c2s55ea4cf03p5881\tdebug\tSEND: <iq type='result' id='a1'><query xmlns='jabber:iq:roster' ver='1'/></iq>",
        "Nov 25 19:05:14 c2s55ea4cf03p:880\tdebug\tReceived[c2s]: <presence id='p2' xml:lang='en'>",
    ]

    func testAStanzaHandedOverAfterTheCutIsWrittenOnce() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("m.log", Self.stanzaAfterAWaitingStartTag.joined(separator: "\n") + "\n").path
        let expected = """
            2:c2s55ea4cf03p5881\tout\t<iq xmlns='jabber:client' type='result' id='a2'><query xmlns='jabber:iq:roster' ver='1'/></iq>
            4:c2s55ea4cf03p:880\tout\t<iq xmlns='jabber:client' type='result' id='a2'><query xmlns='jabber:iq:roster' ver='1'/></iq>
            5:c2s55ea4cf03p5881\tout\t<iq xmlns='jabber:client' type='result' id='a1'><query xmlns='jabber:iq:roster' ver='1'/></iq>
            6:c2s55ea4cf03p:880\tin\t<presence xmlns='jabber:client' id='p2' xml:lang='en'/>

            """
        let fields = ["-s", "--fields", "line,session,direction"]
        // Every stanza in parts; and only those with an id (all of them), in the
        // windows around their records that a prefilter reads, with one thread too.
        for (threads, query) in [("2", "/"), ("1", "/@id"), ("2", "/@id")] {
            for size in [1, 32, 48, 64, 100, 150, 200] {
                let run = try Runner.stanzaq(["--threads", threads] + fields + [query, path], environment: ["STANZAQ_PART_SIZE": String(size)])
                XCTAssertEqual(run.output, expected, "\(query) with \(threads) threads at \(size)")
                XCTAssertEqual(run.stderr, "", "\(query) with \(threads) threads at \(size)")
                XCTAssertEqual(run.status, 0, "\(query) with \(threads) threads at \(size)")
            }
        }
        // The case the test is about: the first part kept, the second fallen back.
        XCTAssertEqual(try partsReport(["-s", "/"], path, size: 64),
                       "stanzaq: parts of \(path): 2 made, 1 kept, fell back at part 1: its start tags fare otherwise than in one reader\n")
    }

    /// As ``testAStanzaHandedOverAfterTheCutIsWrittenOnce()``, those lines
    /// among many ordinary records of other sessions, here and there.
    func testAStanzaHandedOverAfterTheCutAmongOthers() throws {
        var lines: [String] = []
        for i in 0..<240 {
            let prefix = "Nov 25 19:05:\(10 + i % 40) c2s\(["aaaa", "bbbb", "cccc"][i % 3])\tdebug\t"
            if i % 2 == 0 {
                lines.append(prefix + "RECV: <message type='chat' id='m\(i)'><body>\(i)</body></message>")
                lines.append(prefix + "Received[c2s]: <message id='m\(i)' type='chat'>")
            } else {
                lines.append(prefix + "Sending[c2s]: <iq id='q\(i)' type='result'>")
                lines.append(prefix + "SEND: <iq type='result' id='q\(i)'/>")
            }
            if i % 37 == 20 { lines += Self.stanzaAfterAWaitingStartTag }
        }
        let scratch = try ScratchDirectory()
        let path = try scratch.write("among.log", lines.joined(separator: "\n") + "\n").path
        let run = try Runner.stanzaq(["--threads", "1", "-c", "/", path])
        XCTAssertEqual(run.output, "\(240 + 6 * 4)\n")
        for options in [["-s", "--fields", "line,session,direction", "/"], ["-c", "/"]] {
            try assertSameAsOneThread(options + [path], partSizes: [32, 64, 97, 150, 230, 300])
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

    /// A client's log of a BOSH session (slixmpp's lines): the stanzas are
    /// the bodies' children, some bodies logged over several lines, some empty.
    static func boshLog(requests count: Int) -> String {
        var lines: [String] = []
        for i in 0..<count {
            let time = String(format: "2026-11-23 09:%02d:%02d,%03d DEBUG    ", i / 60 % 60, i % 60, i % 1000)
            let open = "<body xmlns=\"http://jabber.org/protocol/httpbind\" rid=\"\(1000 + i)\" sid=\"SomeSID\">"
            switch i % 4 {
            case 0: lines.append(time + "SEND: " + open + "<iq xmlns=\"jabber:client\" type=\"get\" id=\"q\(i)\"/></body>")
            case 1: lines.append(time + "SEND: <body xmlns=\"http://jabber.org/protocol/httpbind\" rid=\"\(1000 + i)\" sid=\"SomeSID\"/>")
            case 2:
                lines.append(time + "RECV: " + open)
                lines.append("  <message xmlns=\"jabber:client\" id=\"m\(i)\" type=\"chat\"><body>hello \(i)</body></message>")
                lines.append("  <presence xmlns=\"jabber:client\" id=\"p\(i)\"/>")
                lines.append("</body>")
            default: lines.append(time + "RECV: " + open + "<iq xmlns=\"jabber:client\" type=\"error\" id=\"e\(i)\"/></body>")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func testBOSHLog() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("bosh.log", Self.boshLog(requests: 400)).path
        XCTAssertEqual(try Runner.stanzaq(["--threads", "1", "-c", "/", path]).output, "400\n")
        for options in Self.optionSets {
            try assertSameAsOneThread(options + [path], partSizes: [1, 300, 2000])
        }
    }

    /// tshark's follow output without a stream header (a capture started
    /// mid-stream): its parser keeps the session of the `Filter:` line and the
    /// length of the chunk it reads; a part starts at a chunk's length, with the
    /// session handed on.
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
