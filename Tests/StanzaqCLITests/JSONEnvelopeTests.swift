import Foundation
import StanzaqTestSupport
import XCTest

/// Logs in JSON envelopes (stanzaq(1), ENVELOPES): `journalctl -o json`, and
/// JSON log lines of servers, shippers, Loki and Elasticsearch, around the
/// real-software logs of Tests/Fixtures/real-logs; archive rows (`--log=json`)
/// are no envelope and read as before.
final class JSONEnvelopeTests: CLITestCase {
    static let fixtures = PackagePaths.file("Tests/Fixtures/envelopes")

    /// The stanzas of a log, at their lines: what an envelope must not change.
    private func stanzas(_ arguments: [String]) throws -> RunResult {
        try InProcess.stanzaq(["--fields", "line,direction,session", "-e", "/$", "-e", "/@id", "-e", "/@type", "-e", "body#"] + arguments)
    }

    private func assertSameStanzas(_ path: String, as log: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let plain = try stanzas([RealLogLines.path(log)])
        XCTAssertFalse(plain.output.isEmpty, log, file: file, line: line)
        let run = try stanzas([path])
        XCTAssertEqual(run.output, plain.output, path, file: file, line: line)
        XCTAssertEqual(run.stderr, "", path, file: file, line: line)
        XCTAssertEqual(run.status, 0, path, file: file, line: line)
    }

    // MARK: - What the real tools wrote (Tests/Fixtures/envelopes, make-json.py)

    /// journalctl -o json --all (and -o json-seq) of a journal file that
    /// systemd-journal-remote wrote, each line of a log an entry.
    func testJournalctlJSONAroundRealLogsReadsAsTheLogs() throws {
        for (fixture, log) in [("journal-prosody.json.gz", "prosody.log"), ("journal-ejabberd.json.gz", "ejabberd.log"),
                               ("journal-slixmpp-time-alice.json.gz", "slixmpp-time-alice.log"),
                               ("journal-slixmpp-time-alice.json-seq.gz", "slixmpp-time-alice.log")] {
            try assertSameStanzas(Self.fixtures.appendingPathComponent(fixture).path, as: log)
        }
    }

    func testLokiAndElasticsearchExportsAroundRealLogsReadAsTheLogs() throws {
        for (fixture, log) in [("loki-prosody.jsonl.gz", "prosody.log"), ("loki-slixmpp-time-alice.jsonl.gz", "slixmpp-time-alice.log"),
                               ("elastic-prosody.ndjson.gz", "prosody.log"), ("elastic-slixmpp-time-alice.ndjson.gz", "slixmpp-time-alice.log")] {
            try assertSameStanzas(Self.fixtures.appendingPathComponent(fixture).path, as: log)
        }
    }

    /// The envelope's facts: the journal's identifier[pid], host and unit; its
    /// time in RFC 3339 only where the program's line has none.
    func testJournalFactsAreFields() throws {
        let path = Self.fixtures.appendingPathComponent("journal-prosody.json.gz").path
        try assertStanzaq(["--fields", "line,time,source,hostname,unit", "-m", "1", "-e", "/@id", path],
                          stdout: "77:Nov 25 19:05:14\tprosody[4242]\txmpp.example\tprosody.service\t3f7d1a04f7a142c39427a4bb428a001a\n", status: 0)
        let line = #"{"__CURSOR":"s=1;i=1","__REALTIME_TIMESTAMP":"1795633514000001","SYSLOG_IDENTIFIER":"bot","_PID":"9","MESSAGE":"SEND: <presence id='p'/>"}"#
        try assertStanzaq(["--fields", "time,source", "-e", "/@id"], stdin: line + "\n",
                          stdout: "2026-11-25T19:05:14.000001Z\tbot[9]\tp\n", status: 0)
    }

    /// Without --all, journalctl writes null for a MESSAGE of 4096 bytes or
    /// more: each such entry is reported, the others read.
    func testJournalMessageLeftNullIsReported() throws {
        let path = Self.fixtures.appendingPathComponent("journal-slixmpp-time-alice-without-all.json.gz").path
        let run = try stanzas([path])
        let full = try stanzas([RealLogLines.path("slixmpp-time-alice.log")])
        let missing = full.output.split(separator: "\n").filter { $0.hasPrefix("86\t") || $0.hasPrefix("87\t") }
        XCTAssertEqual(missing.count, 2)
        XCTAssertEqual(run.output, full.output.split(separator: "\n").filter { !missing.contains($0) }.map { $0 + "\n" }.joined())
        let message = ": a journal entry whose MESSAGE journalctl left out (null: 4096 bytes or more; journalctl --all writes it): skipped\n"
        XCTAssertEqual(run.stderr, "\(path):86:1" + message + "\(path):87:1" + message)
        XCTAssertEqual(run.status, 2)
    }

    /// journalctl writes a MESSAGE that is not printable UTF-8 (here: a colour
    /// escape) as an array of its bytes.
    func testJournalMessageAsAByteArray() throws {
        let text = Array("Nov 25 19:05:14 c2s1\tdebug\tSEND: <presence id='p1'/>\u{1B}[0m".utf8)
        let line = #"{"__CURSOR":"s=1;i=1","__REALTIME_TIMESTAMP":"1795633514000001","SYSLOG_IDENTIFIER":"prosody","_PID":"7","MESSAGE":[ "#
            + text.map(String.init).joined(separator: ", ") + " ]}\n"
        try assertStanzaq(["--fields", "line,time,source,direction,session", "-e", "/@id"], stdin: line,
                          stdout: "1:Nov 25 19:05:14\tprosody[7]\tout\tc2s1\tp1\n", status: 0)
    }

    // MARK: - JSON log lines around every real-software log

    /// Every real-software log, each line as a shipper writing JSON, Loki's
    /// logcli and an Elasticsearch hit write it: the same stanzas at the same lines.
    /// But go-xmpp's, whose lines are bare XML: a JSON line whose message is
    /// XML is an archive row (`--log=json`).
    func testJSONLinesAroundEveryRealLogReadAsTheLog() throws {
        let scratch = try ScratchDirectory()
        let names = try RealLogLines.names().filter { try !RealLogLines.startsWithTag($0) }
        XCTAssertEqual(names.count, 22)
        for name in names {
            let lines = try RealLogLines.lines(of: name)
            let time = "2026-11-25T19:05:14.123Z"
            let wrapped: [(String, String)] = [
                ("shipper", lines.map { "{\"@timestamp\":\"\(time)\",\"level\":\"info\",\"message\":\(RealLogLines.jsonString($0)),\"service\":\"xmpp\"}\n" }.joined()),
                ("loki", lines.map {
                    "{\"labels\":{\"container\":\"xmpp-1\",\"job\":\"docker\"},\"line\":\(RealLogLines.jsonString($0, goEscapes: true)),\"timestamp\":\"\(time)\"}\n"
                }.joined()),
                ("elastic", lines.map {
                    "{\"_index\":\"logs\",\"_id\":\"1\",\"_score\":null,\"_source\":{\"@timestamp\":\"\(time)\",\"message\":\(RealLogLines.jsonString($0)),"
                        + "\"container\":{\"name\":\"xmpp-1\"},\"stream\":\"stdout\"}}\n"
                }.joined()),
            ]
            for (shape, text) in wrapped {
                try assertSameStanzas(try scratch.write("\(shape)-\(name)", text).path, as: name)
            }
        }
    }

    /// The source, time and level come from the keys that name them, nested or not.
    func testJSONLinesFactsAreFields() throws {
        let text = #"{"_index":"logs","_source":{"@timestamp":"2026-11-25T19:05:14.123Z","log":{"level":"debug"},"message":"SEND: <presence id='a'/>","kubernetes":{"pod_name":"prosody-0"}}}"#
            + "\n" + #"{"labels":{"service_name":"bot"},"line":"RECV: \u003cpresence id='b'/\u003e","timestamp":"2026-11-25T19:05:15Z"}"# + "\n"
        try assertStanzaq(["--fields", "line,time,source,level", "-e", "/@id"], stdin: text,
                          stdout: "1:2026-11-25T19:05:14.123Z\tprosody-0\tdebug\ta\n2:2026-11-25T19:05:15Z\tbot\t\tb\n", status: 0)
    }

    /// A line that is not JSON costs that line, reported once; the lines after it are read.
    func testALineThatDoesNotParseCostsThatLine() throws {
        let text = "{\"time\":\"1\",\"message\":\"Nov 25 19:05:14 c2s1\\tdebug\\tSEND: <presence id='a'/>\"}\n"
            + "{\"time\":\"2\",\"message\":\"Nov 25 19:05:15 c2s1\\tdebug\\tSEND: <presence id=\n"
            + "{\"time\":\"3\",\"message\":\"Nov 25 19:05:16 c2s1\\tdebug\\tRECV: <presence id='b'/>\"}\n"
        try assertStanzaq(["--fields", "line,direction", "-e", "/@id"], stdin: text, stdout: "1:out\ta\n3:in\tb\n",
                          stderr: "(standard input):2:1: not a JSON line: skipped\n", status: 2)
    }

    // MARK: - Archive rows are a log format, not an envelope

    /// sqlite3 -json of Prosody's archive, in its brackets and as JSON Lines,
    /// and ejabberd's TSV: read as `--log=json`/`--log=tsv` read them.
    func testArchiveRowsStillReadAsArchiveRows() throws {
        let json = PackagePaths.file("examples/logs/prosody-archive.json").path
        try assertStanzaq(["--fields", "line,when,with", "-e", "/@id", json],
                          stdout: "1:1795426212\tromeo@montague.lit\tmsg1\n2:1795426213\tromeo@montague.lit\tmsg2\n3:1795426214\tromeo@montague.lit\tmsg3\n",
                          status: 0)
        let rows = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n").map { line -> String in
            var row = String(line)
            if row.hasPrefix("[") { row.removeFirst() }
            if row.hasSuffix(",") || row.hasSuffix("]") { row.removeLast() }
            return row + "\n"
        }.joined()
        try assertStanzaq(["--fields", "line,when", "-e", "/@id"], stdin: rows,
                          stdout: "1:1795426212\tmsg1\n2:1795426213\tmsg2\n3:1795426214\tmsg3\n", status: 0)
        let tsv = PackagePaths.file("examples/logs/ejabberd-archive.tsv").path
        let plain = try InProcess.stanzaq(["--fields", "line,timestamp", "-e", "/@id", tsv])
        let named = try InProcess.stanzaq(["--log=tsv", "--envelope=none", "--fields", "line,timestamp", "-e", "/@id", tsv])
        XCTAssertEqual(plain.output, named.output)
        XCTAssertFalse(plain.output.isEmpty)
        XCTAssertEqual(plain.stderr, "")
        // A JSON line whose message is a stanza itself is a row, its other keys fields.
        try assertStanzaq(["--fields", "time", "-e", "/@id"], stdin: "{\"time\":\"5\",\"message\":\"<presence id='x'/>\"}\n",
                          stdout: "5\tx\n", status: 0)
    }
}
