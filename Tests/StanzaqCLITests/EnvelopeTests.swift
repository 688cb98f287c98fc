import Foundation
import StanzaqTestSupport
import XCTest

/// Logs inside envelopes (stanzaq(1), ENVELOPES): Monal's own rawlog, and the
/// real-software logs of Tests/Fixtures/real-logs as container runtimes wrap
/// them, read as the logs themselves are.
final class EnvelopeTests: CLITestCase {
    static let monal = PackagePaths.file("Tests/Fixtures/monal-rawlog")
    static let rawlog = monal.appendingPathComponent("Monal 2024-10-23--07-15-02-117.rawlog")

    /// The stanzas of the rawlog as a test reads them: every message, iq and presence.
    static let stanzaColumns = ["--json", "--fields", "line,direction,session,source", "--where", "/{jabber:client}*",
                                "-e", "name=/$", "-e", "id=/@id", "-e", "type=/@type", "-e", "body=body#"]

    /// What Monal really sent and received, as truth.json (written with the
    /// fixture, from the session it scripted) says: the JSON lines stanzaq prints.
    static func monalTruth() throws -> String {
        let data = try Data(contentsOf: monal.appendingPathComponent("truth.json"))
        let truth = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stanzas = try XCTUnwrap(truth["stanzas"] as? [[String: Any]])
        return stanzas.map { stanza in
            let entry = stanza["entry"] as! Int
            func quoted(_ key: String) -> String {
                guard let value = stanza[key] as? String else { return "null" }
                let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    .replacingOccurrences(of: "\n", with: "\\n")
                return "\"\(escaped)\""
            }
            let session = "\(stanza["accountID"]!):\(stanza["internalID"]!)"
            let source = "\(stanza["processName"]!)[\(stanza["processID"]!)]"
            return "{\"line\":\(entry + 1),\"direction\":\(quoted("direction")),\"session\":\"\(session)\",\"source\":\"\(source)\","
                + "\"name\":\(quoted("name")),\"id\":\(quoted("id")),\"type\":\(quoted("type")),\"body\":\(quoted("body"))}\n"
        }.joined()
    }

    // MARK: - Monal's rawlog

    func testMonalRawlogGivesEveryStanzaSentOrReceivedOnceInOrder() throws {
        try assertStanzaq(Self.stanzaColumns + [Self.rawlog.path], stdout: try Self.monalTruth(), status: 0)
    }

    func testMonalRawlogGzippedAndFromAPipe() throws {
        let truth = try Self.monalTruth()
        try assertStanzaq(Self.stanzaColumns + [Self.rawlog.path + ".gz"], stdout: truth, status: 0)
        let pipe = try Runner.shell("cat \(shellQuote(Self.rawlog.path)) | stanzaq " + Self.stanzaColumns.map(shellQuote).joined(separator: " "))
        XCTAssertEqual(pipe.output, truth)
        XCTAssertEqual(pipe.stderr, "")
        XCTAssertEqual(pipe.status, 0)
    }

    /// A length prefix that cannot be right costs its entry (the presence Monal
    /// sent for account 1), reported once; the entries after it are read.
    func testMonalRawlogWithADamagedLengthLosesThatEntryOnly() throws {
        let file = Self.monal.appendingPathComponent("damaged-bad-length.rawlog").path
        let truth = try Self.monalTruth().split(separator: "\n").filter { !$0.hasPrefix("{\"line\":22,") }.map { $0 + "\n" }.joined()
        try assertStanzaq(Self.stanzaColumns + [file], stdout: truth,
                          stderr: "\(file):22:1: a rawlog entry's length that cannot be right (4294967280 bytes): "
                              + "skipped 755 bytes to the next entry\n", status: 2)
    }

    func testMonalRawlogCutOffInItsLastEntryLosesNothingBefore() throws {
        let file = Self.monal.appendingPathComponent("damaged-truncated.rawlog").path
        try assertStanzaq(Self.stanzaColumns + [file], stdout: try Self.monalTruth(),
                          stderr: "\(file):88:1: the last rawlog entry is cut off (404 of its 809 bytes)\n", status: 2)
    }

    /// Replays of stored stanzas, raw socket reads and the resend queue are not
    /// stanzas sent or received: only `RECV Stanza:` and `SEND:` are.
    func testMonalRawlogRepliesRawReadsAndUnackedCopiesAreNotStanzas() throws {
        try assertStanzaq(["-c", "/{jabber:client}message<id=b-0002>", Self.rawlog.path], stdout: "1\n", status: 0)
        try assertStanzaq(["--fields", "level,location,function", "--where", "/{jabber:client}message<id=b-0002>", "/@id", Self.rawlog.path],
                          stdout: "info\txmpp.m:1789\t-[xmpp processInput:withDelayedReplay:]\tb-0002\n", status: 0)
    }

    // MARK: - Container runtimes around real-software logs

    /// The stanzas of a log, without their lines: what wrapping must not change.
    private func stanzas(_ arguments: [String]) throws -> RunResult {
        try InProcess.stanzaq(["--fields", "direction,session", "-e", "/$", "-e", "/@id", "-e", "/@type", "-e", "body#"] + arguments)
    }

    /// Every real-software log, each line as `docker logs -t`, the CRI log and
    /// Docker's json-file write it: the same stanzas as the log itself, at the
    /// same lines, without a message.
    func testContainerEnvelopesAroundEveryRealLogReadAsTheLog() throws {
        let scratch = try ScratchDirectory()
        let names = try RealLogLines.names()
        XCTAssertEqual(names.count, 24)
        for name in names {
            let reading = try RealLogLines.reading(name)
            let plain = try stanzas(reading + ["--fields", "line", RealLogLines.path(name)])
            XCTAssertEqual(plain.status, 0, name)
            XCTAssertFalse(plain.output.isEmpty, name)
            let lines = try RealLogLines.lines(of: name)
            let time = "2026-11-25T19:05:14.123456789Z"
            let wrapped: [(String, String)] = [
                ("docker", lines.map { "\(time) \($0)\n" }.joined()),
                ("cri", lines.map { "\(time) stdout F \($0)\n" }.joined()),
                ("docker-json", lines.map { "{\"log\":\(RealLogLines.jsonString($0 + "\n", escapingSlash: true)),\"stream\":\"stdout\",\"time\":\"\(time)\"}\n" }.joined()),
            ]
            for (envelope, text) in wrapped {
                let path = try scratch.write("\(envelope)-\(name)", text).path
                let run = try stanzas(reading + ["--fields", "line", path])
                XCTAssertEqual(run.output, plain.output, "\(envelope) around \(name)")
                XCTAssertEqual(run.stderr, "", "\(envelope) around \(name)")
                XCTAssertEqual(run.status, 0, "\(envelope) around \(name)")
            }
        }
    }

    /// `docker compose logs` of two services whose lines interleave (an ejabberd
    /// server and a slixmpp client): every stanza of each, once, in its order.
    func testComposeLogOfTwoProgramsGivesEachProgramsStanzas() throws {
        let scratch = try ScratchDirectory()
        let server = try RealLogLines.lines(of: "ejabberd.log"), client = try RealLogLines.lines(of: "slixmpp-time-alice.log")
        // Two of the server's lines, then three of the client's, as the two wrote them.
        let mixed = RealLogLines.interleaved(server, client, take: (2, 3),
                                             prefix: ("\u{1B}[36mejabberd-1  |\u{1B}[0m ", "\u{1B}[33mbot-1       |\u{1B}[0m "))
        let path = try scratch.write("compose.log", mixed).path
        let serverAlone = try stanzas([RealLogLines.path("ejabberd.log")]).output
        let clientAlone = try stanzas([RealLogLines.path("slixmpp-time-alice.log")]).output
        let fromServer = try InProcess.stanzaq(["--fields", "source,direction,session", "-e", "/$", "-e", "/@id", "-e", "/@type", "-e", "body#", path])
        XCTAssertEqual(fromServer.stderr, "")
        XCTAssertEqual(fromServer.status, 0)
        let rows = fromServer.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func of(_ source: String) -> String {
            rows.filter { $0.hasPrefix(source + "\t") }.map { String($0.dropFirst(source.count + 1)) + "\n" }.joined()
        }
        XCTAssertEqual(of("ejabberd-1"), serverAlone)
        XCTAssertEqual(of("bot-1"), clientAlone)
        XCTAssertEqual(rows.count - 1, serverAlone.split(separator: "\n").count + clientAlone.split(separator: "\n").count)
    }

    /// The CRI log's partial lines (`P`) are joined to the line the next entry of
    /// the same stream ends; Docker's json-file lines without `\n` likewise.
    func testPartialLinesAreJoined() throws {
        let cri = """
            2026-11-25T19:05:14.1Z stdout P Nov 25 19:05:14 c2s1\tdebug\tSEND: <message id='m1'><bo
            2026-11-25T19:05:14.1Z stderr F Nov 25 19:05:14 general\twarn\tsomething else
            2026-11-25T19:05:14.2Z stdout F dy>split</body></message>

            """
        try assertStanzaq(["--fields", "line,time,source", "body#"], stdin: cri,
                          stdout: "1:Nov 25 19:05:14\tstdout\tsplit\n", status: 0)
        let json = "{\"log\":\"Nov 25 19:05:14 c2s1\\tdebug\\tRECV: <message id='m2'><body>a \",\"stream\":\"stdout\",\"time\":\"2026-11-25T19:05:14Z\"}\n"
            + "{\"log\":\"b<\\/body><\\/message>\\n\",\"stream\":\"stdout\",\"time\":\"2026-11-25T19:05:15Z\"}\n"
        try assertStanzaq(["--fields", "line,direction", "body#"], stdin: json, stdout: "1:in\ta b\n", status: 0)
    }

    func testEnvelopeNamedOrRefused() throws {
        let line = "2026-11-25T19:05:14Z Nov 25 19:05:14 c2s1\tdebug\tSEND: <presence id='p'/>\n"
        try assertStanzaq(["-e", "/@id"], stdin: line, stdout: "p\n", status: 0)
        try assertStanzaq(["--envelope", "docker", "-e", "/@id"], stdin: line, stdout: "p\n", status: 0)
        // Not recognised, the line is a log of its own (the generic reader finds the stanza).
        try assertStanzaq(["--fields", "time", "-e", "/@id"], stdin: line, stdout: "Nov 25 19:05:14\tp\n", status: 0)
        // (Prosody's reader alone takes the runtime's time for part of Prosody's.)
        try assertStanzaq(["--envelope", "none", "--fields", "time", "-e", "/@id"], stdin: line,
                          stdout: "2026-11-25T19:05:14Z Nov 25 19:05:14\tp\n", status: 0)
        try assertStanzaq(["--envelope", "gelf", "/"], stdin: line, stdout: "",
                          stderr: "stanzaq: error: unknown envelope 'gelf' (one of: monal-rawlog, docker-json, journal-json, json-lines, cri, journal, syslog, docker, compose, none)\n"
                              + "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n", status: 2)
    }

    /// A line that is not the envelope's costs that line, reported.
    func testALineOutsideTheEnvelopeIsReported() throws {
        let text = "2026-11-25T19:05:14Z Nov 25 19:05:14 c2s1\tdebug\tSEND: <presence id='a'/>\n"
            + "garbage\n"
            + "2026-11-25T19:05:15Z Nov 25 19:05:14 c2s1\tdebug\tSEND: <presence id='b'/>\n"
        try assertStanzaq(["-e", "/@id"], stdin: text, stdout: "a\nb\n",
                          stderr: "(standard input):2:1: not a docker logs -t line: skipped\n", status: 2)
        // The message comes after the stanzas of the lines before it, as those lines did.
        let run = try Runner.shell("printf '%s' \(shellQuote(text)) | stanzaq -e /@id 2>&1")
        XCTAssertEqual(run.output, "a\n(standard input):2:1: not a docker logs -t line: skipped\nb\n")
    }

    /// `--follow` on Docker's json-file log of a container: what is written
    /// after the start, at its lines, and on across rotation (Docker renames
    /// `ID-json.log` to `ID-json.log.1` and starts a new one).
    func testFollowAnEnvelopedLogAcrossRotation() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("c-json.log")
        let line: (String) -> String = {
            "{\"log\":\"Nov 23 09:30:12 c2s1\\tdebug\\tRECV: \\u003ciq id='\($0)' type='get'/\\u003e\\n\",\"stream\":\"stdout\","
                + "\"time\":\"2026-11-23T09:30:12.000000001Z\"}\n"
        }
        try Data(line("old").utf8).write(to: path)
        let (process, output) = try startFollowing(["--line-number", "--fields", "source", "/@id"], path, in: scratch)
        let handle = try FileHandle(forWritingTo: path)
        handle.seekToEndOfFile()
        handle.write(Data(line("new").utf8))
        waitForOutput(output, "2:stdout\tnew\n")
        try handle.close()
        try FileManager.default.moveItem(at: path, to: scratch.url.appendingPathComponent("c-json.log.1"))
        try Data((line("rotated") + line("second")).utf8).write(to: path)
        waitForOutput(output, "2:stdout\tnew\n1:stdout\trotated\n2:stdout\tsecond\n")
        stopFollowing(process)
    }

    /// A line in an envelope is read as it comes (`tail -f … | stanzaq`): its
    /// stanza is printed before the next line arrives, for the envelopes told by
    /// their first line and for the syslog file, which journalctl's output is
    /// told from by lines further on.
    func testAnEnvelopedLineIsReadAsItComes() throws {
        let lines = [
            "2026-11-25T19:05:14.123Z Nov 25 19:05:14 c2s1\tdebug\tSEND: <presence id='a'/>\n",
            "Nov 25 19:05:14 host prosody[812]: c2s1: SEND: <presence id='a'/>\n",
            "prosody-1  | Nov 25 19:05:14 c2s1\tdebug\tSEND: <presence id='a'/>\n",
        ]
        for line in lines {
            let run = try streaming(["--line-buffered", "/@id"], first: line, rest: line.replacingOccurrences(of: "'a'", with: "'b'"))
            XCTAssertEqual(run.firstLine, "a\n", line)
            XCTAssertEqual(run.rest, "b\n", line)
            XCTAssertEqual(run.status, 0, line)
        }
    }
}
