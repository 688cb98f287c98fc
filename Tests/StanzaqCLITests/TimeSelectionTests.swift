import Foundation
import StanzaqTestSupport
import XCTest

/// `--since`, `--until` and `--tz` (stanzaq(1), `--since`, LOGS, Times): on every
/// fixture that has times, and what is not a time. The logs are copied into a
/// scratch directory whose files were last changed at 2026-12-01T00:00:00Z (the
/// reference moment of a time without a year or a date), and every run names
/// its zone: nothing depends on the machine's zone or on today's date.
final class TimeSelectionTests: CLITestCase {
    /// Each fixture with times: `--since`, `--until` (in the log's own form, one of
    /// its stanzas' times), and the stanzas selected (`--fields line '/$'`): all
    /// of them, or their count, the first and the last.
    private static let fixtures: [(path: String, since: String, until: String?, selected: String)] = [
            ("examples/envelopes/Monal 2024-10-23--07-15-02-117.rawlog.gz", "2024-10-23 09:15:02:251", "2024-10-23 09:15:04:826", "13: 31:enabled … 56:message"),
            ("examples/envelopes/compose.log", "2026-11-23 09:30:12,510", "2026-11-23 09:30:13.222000+00:00", "16:r 12:iq 20:iq 14:message 18:message"),
            ("examples/logs/conversations.log", "11-23 09:30:12.400", "11-23 09:30:12.500", "4:message 8:presence"),
            ("examples/logs/dino.log", "2026-11-23T09:30:13+0000", "2026-11-23T09:30:13+0000", "15:iq 24:message"),
            ("examples/envelopes/docker-prosody.log", "Nov 23 09:30:13", "Nov 23 09:30:14", "7:iq 10:iq 11:message 15:message"),
            ("examples/logs/ejabberd-archive.tsv", "2026-11-23 09:30:13", nil, "3:message"),
            ("examples/logs/ejabberd.log", "2026-11-23 09:30:13.220500+00:00", "2026-11-23 09:30:14.500012+00:00", "7:r 9:iq 10:message 12:message"),
            ("Tests/Fixtures/envelopes/elastic-prosody.ndjson.gz", "Nov 25 19:05:15", nil, "98: 508:features … 951:iq"),
            ("Tests/Fixtures/envelopes/elastic-slixmpp-time-alice.ndjson.gz", "2026-11-25 19:05:14,915", "2026-11-25 19:05:14,960", "20: 49:iq … 86:message"),
            ("Tests/Fixtures/envelopes/journal-ejabberd.json.gz", "2026-11-25 19:05:23.066085+00:00", "2026-11-25 19:05:23.220348+00:00", "35: 1369:message … 2997:message"),
            ("Tests/Fixtures/envelopes/journal-prosody.json.gz", "Nov 25 19:05:15", nil, "98: 508:features … 951:iq"),
            ("Tests/Fixtures/envelopes/journal-short-a.log.gz", "Nov 25 19:05:14", "Nov 25 19:05:15", "245: 45:features … 1067:iq"),
            ("Tests/Fixtures/envelopes/journal-short-iso-precise.log.gz", "Nov 25 19:05:14", "Nov 25 19:05:15", "245: 45:features … 1067:iq"),
            ("Tests/Fixtures/envelopes/journal-short-iso.log.gz", "Nov 25 19:05:14", "Nov 25 19:05:15", "245: 45:features … 1067:iq"),
            ("Tests/Fixtures/envelopes/journal-short-precise.log.gz", "Nov 25 19:05:14", "Nov 25 19:05:15", "245: 45:features … 1067:iq"),
            ("Tests/Fixtures/envelopes/journal-short.log.gz", "Nov 25 19:05:14", "Nov 25 19:05:15", "245: 45:features … 1067:iq"),
            ("Tests/Fixtures/envelopes/journal-slixmpp-time-alice-without-all.json.gz", "2026-11-25 19:05:14,915", "2026-11-25 19:05:14,955", "18: 49:iq … 83:message"),
            ("Tests/Fixtures/envelopes/journal-slixmpp-time-alice.json-seq.gz", "2026-11-25 19:05:14,915", "2026-11-25 19:05:14,960", "20: 49:iq … 86:message"),
            ("Tests/Fixtures/envelopes/journal-slixmpp-time-alice.json.gz", "2026-11-25 19:05:14,915", "2026-11-25 19:05:14,960", "20: 49:iq … 86:message"),
            ("Tests/Fixtures/envelopes/loki-prosody.jsonl.gz", "Nov 25 19:05:15", nil, "98: 508:features … 951:iq"),
            ("Tests/Fixtures/envelopes/loki-slixmpp-time-alice.jsonl.gz", "2026-11-25 19:05:14,915", "2026-11-25 19:05:14,960", "20: 49:iq … 86:message"),
            ("Tests/Fixtures/envelopes/syslog-rfc3339.log.gz", "Nov 25 19:05:14", "Nov 25 19:05:15", "245: 45:features … 969:iq"),
            ("Tests/Fixtures/envelopes/syslog-rfc5424.log.gz", "Nov 25 19:05:14", "Nov 25 19:05:15", "245: 45:features … 969:iq"),
            ("Tests/Fixtures/envelopes/syslog-traditional.log.gz", "Nov 25 19:05:14", "Nov 25 19:05:15", "245: 45:features … 969:iq"),
            ("examples/logs/gajim-console.xml", "Mon Nov 23 09:30:12 2026", "Mon Nov 23 09:30:13 2026", "5:features 10:iq 17:iq 26:message"),
            ("examples/envelopes/journal-slixmpp.json", "2026-11-23 09:30:12,301", "2026-11-23 09:30:12,510", "5:iq 6:iq 8:message"),
            ("examples/envelopes/journal.log", "2026-11-25 19:05:14,927", nil, "9:message 13:presence"),
            ("examples/envelopes/loki-prosody.jsonl", "Nov 23 09:30:13", "Nov 23 09:30:14", "7:iq 10:iq 11:message 15:message"),
            ("examples/logs/monal.log", "2026-11-23 09:30:12:301", "2026-11-23 09:30:12:510", "5:iq 6:iq 8:message"),
            ("examples/logs/mongooseim.log", "2026-11-23T09:30:13.410771+00:00", "2026-11-23T09:30:14.500012+00:00", "10:presence 11:presence 12:message 16:message 18:message"),
            ("examples/logs/nbxmpp.log", "2026-11-23T09:30:12", "2026-11-23T09:30:13", "8:features 12:iq 17:iq 21:message"),
            ("examples/logs/profanity.log", "2026-11-23T09:30:12.301377+01", "2026-11-23T09:30:12.510220+01", "6:iq 7:iq 9:message"),
            ("examples/logs/prosody-archive.json", "@1795426213", "@1795426214", "2:message 3:message"),
            ("examples/logs/prosody-syslog.log", "Nov 23 09:30:13", "Nov 23 09:30:14", "6:iq 10:iq 11:message 14:message"),
            ("examples/logs/prosody.log", "Nov 23 09:30:13", "Nov 23 09:30:14", "7:iq 10:iq 11:message 15:message"),
            ("Tests/Fixtures/real-logs/logs/ejabberd-slixmpp-time-erin.log", "2026-11-25 19:05:23,029", "2026-11-25 19:05:23,209", "20: 49:iq … 93:message"),
            ("Tests/Fixtures/real-logs/logs/ejabberd.log", "2026-11-25 19:05:23.066085+00:00", "2026-11-25 19:05:23.220348+00:00", "35: 1369:message … 2997:message"),
            ("Tests/Fixtures/real-logs/logs/finch-wanda.log", "03:57:41", "03:57:42", "13: 242:message … 273:message"),
            ("Tests/Fixtures/real-logs/logs/nbxmpp-carol.log", "11/25/26 19:05:15", nil, "54: 114:features … 881:iq"),
            ("Tests/Fixtures/real-logs/logs/profanity-grace.log", "2026-11-27T21:25:41.473422+01", "2026-11-27T21:25:47.093926+01", "23: 94:iq … 153:presence"),
            ("Tests/Fixtures/real-logs/logs/prosody.log", "Nov 25 19:05:15", nil, "98: 508:features … 951:iq"),
            ("Tests/Fixtures/real-logs/logs/slixmpp-time-alice.log", "2026-11-25 19:05:14,915", "2026-11-25 19:05:14,960", "20: 49:iq … 86:message"),
            ("examples/logs/slixmpp.log", "2026-11-23 09:30:12,301", "2026-11-23 09:30:12,510", "5:iq 6:iq 8:message"),
            ("examples/logs/smack.log", "09:30:12.4", "09:30:12.4", "5:iq 6:presence 5:message"),
    ]

    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        scratch = try ScratchDirectory()
    }

    /// A copy of `path` (from the package's root) in the scratch directory, last changed at `modified`.
    private func copy(_ path: String, modified: String = "2026-12-01T00:00:00Z") throws -> String {
        let name = path.replacingOccurrences(of: "/", with: "-")
        let data = try Data(contentsOf: PackagePaths.root.appendingPathComponent(path))
        let file = try scratch.write(name, data)
        try setModificationTime(file, modified)
        return name
    }

    private func setModificationTime(_ file: URL, _ iso: String) throws {
        let instant = try XCTUnwrap(ISO8601DateFormatter().date(from: iso))
        try setModificationTime(file, seconds: Int(instant.timeIntervalSince1970))
    }

    private func setModificationTime(_ file: URL, seconds: Int, nanoseconds: Int = 0) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        XCTAssertEqual(utimensat(AT_FDCWD, file.path, &times, 0), 0, String(cString: strerror(errno)))
    }

    func testSinceAndUntilSelectByTimeOnEveryFixtureThatHasTimes() throws {
        for fixture in Self.fixtures {
            let name = try copy(fixture.path)
            var arguments = ["--tz=UTC", "--since", fixture.since]
            if let until = fixture.until { arguments += ["--until", until] }
            let result = try InProcess.stanzaq(arguments + ["--fields", "line", "/$", name], in: scratch.url)
            let lines = result.output.split(separator: "\n").map(String.init)
            let shown = lines.count <= 6 ? lines.joined(separator: " ") : "\(lines.count): \(lines[0]) … \(lines[lines.count - 1])"
            XCTAssertEqual(shown, fixture.selected, fixture.path)
            // (journalctl without --all left out two entries: reported, exit status 2.)
            XCTAssertEqual(result.status, fixture.path.contains("without-all") ? 2 : 0, "\(fixture.path): \(result.stderr)")
            let all = try InProcess.stanzaq(["-c", "/$", name], in: scratch.url)
            if fixture.path != "Tests/Fixtures/real-logs/logs/nbxmpp-carol.log" {  // (all its stanzas have the same second)
                XCTAssertLessThan(lines.count, Int(all.output.dropLast()) ?? 0, "\(fixture.path): --since and --until select only some")
            }
        }
    }

    /// A year-less time is of the year of the file's modification time, or the
    /// year before if it would be more than a day after it; a time of day is of
    /// the modification time's date, or the day before.
    func testTheYearAndTheDateComeFromTheModificationTime() throws {
        let prosody = try copy("examples/logs/prosody.log", modified: "2027-01-05T12:00:00Z")
        try assertStanzaq(["--tz=UTC", "--since", "2026-11-23T09:30:14Z", "--fields", "time", "/@id", prosody], in: scratch.url,
                          stdout: "Nov 23 09:30:14\tmsg1\nNov 23 09:30:14\tmsg1\nNov 23 09:30:15\tp1\n", status: 0)
        // Less than a day before the times of the stanzas with an id (Nov 23 09:30:13 to 15): their year.
        try setModificationTime(scratch.url.appendingPathComponent(prosody), seconds: 1_795_339_815)  // 2026-11-22T09:30:15Z
        try assertStanzaq(["--tz=UTC", "--since", "2026-01-01", "-c", "/@id", prosody], in: scratch.url, stdout: "5\n", status: 0)
        // More than a day before: the year before.
        try setModificationTime(scratch.url.appendingPathComponent(prosody), seconds: 1_795_219_200)  // 2026-11-21T00:00:00Z
        try assertStanzaq(["--tz=UTC", "--since", "2026-01-01", "-c", "/@id", prosody], in: scratch.url, stdout: "0\n", status: 1)
        try assertStanzaq(["--tz=UTC", "--until", "2025-11-23T09:30:13Z", "-c", "/@id", prosody], in: scratch.url, stdout: "2\n", status: 0)
        // At 2026-11-22T09:30:12.35Z, Smack's 09:30:12.3 was that day's, and its 09:30:12.4 and 09:30:13.0 the day before's.
        let smack = try copy("examples/logs/smack.log")
        try setModificationTime(scratch.url.appendingPathComponent(smack), seconds: 1_795_339_812, nanoseconds: 350_000_000)
        try assertStanzaq(["--tz=UTC", "--since", "2026-11-22", "--fields", "time", "/@id", smack], in: scratch.url,
                          stdout: "09:30:12.3\tbind_1\n", status: 0)
        // The zone decides the date: at +10:00 that moment is 19:30:12.35 on the 22nd, after every time of the log.
        try assertStanzaq(["--tz=UTC", "--since", "2026-11-22T00:00+10:00", "-c", "/@id", smack], in: scratch.url, stdout: "1\n", status: 0)
        try assertStanzaq(["--tz=+10:00", "--since", "2026-11-22T00:00+10:00", "-c", "/@id", smack], in: scratch.url, stdout: "5\n", status: 0)
    }

    func testTheZoneOfTimesWrittenWithoutOne() throws {
        let slixmpp = try copy("examples/logs/slixmpp.log")
        for (zone, count) in [("UTC", "0"), ("+01:00", "2"), ("-0100", "0"), ("+02", "5")] {
            try assertStanzaq(["--tz", zone, "--until", "2026-11-23T08:30:12.4Z", "-c", "/$", slixmpp], in: scratch.url,
                              stdout: count + "\n", status: count == "0" ? 1 : 0)
        }
        // A written offset is the time's own, whatever --tz says.
        try assertStanzaq(["--tz=+05:00", "--since", "2026-11-23T09:30:15Z", "-c", "/$", "logs/ejabberd.log"],
                          stdout: "2\n", status: 0)
    }

    /// A zone's name is the C library's (TZ): run as a process, so as not to change the tests' own zone.
    func testAZoneByName() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Asia/Kolkata") else {
            throw XCTSkip("no time zone database at /usr/share/zoneinfo")
        }
        let result = try Runner.stanzaq(["--tz=Asia/Kolkata", "--until", "2026-11-23T04:00:12.4Z", "-c", "/$", "logs/slixmpp.log"],
                                        environment: ["TZDIR": nil])
        XCTAssertEqual(result.output, "2\n", result.stderr)
    }

    /// A log cut into parts for threads selects what one reader selects (the
    /// modification time is each part's file's).
    func testPartsSelectAsOneReaderDoes() throws {
        for path in ["Tests/Fixtures/real-logs/logs/prosody.log", "Tests/Fixtures/real-logs/logs/ejabberd.log"] {
            let name = try copy(path)
            let arguments = ["--tz=UTC", "--since", path.hasSuffix("prosody.log") ? "Nov 25 19:05:15" : "2026-11-25T19:05:23.1Z",
                             "--fields", "line,time", "/$", name]
            let one = try Runner.stanzaq(["--threads", "1"] + arguments, in: scratch.url)
            let parts = try Runner.stanzaq(["--threads", "4"] + arguments, in: scratch.url, environment: ["STANZAQ_PART_SIZE": "4096"])
            XCTAssertEqual(parts.output, one.output, path)
            XCTAssertEqual(parts.stderr, "", path)
            XCTAssertGreaterThan(one.output.count, 1000, path)
        }
    }

    /// `--time-format=iso`: each time as the instant it is read as, in the --tz zone.
    func testTimesPrintedAsISO8601() throws {
        let prosody = try copy("examples/logs/prosody.log", modified: "2027-01-05T12:00:00Z")
        let smack = try copy("examples/logs/smack.log")
        try assertStanzaq(["--time-format=iso", "--tz=UTC", "--fields", "time", "/@id", prosody, smack], in: scratch.url, stdout: """
            2026-11-23T09:30:13Z\tbind_1
            2026-11-23T09:30:13Z\tbind_1
            2026-11-23T09:30:14Z\tmsg1
            2026-11-23T09:30:14Z\tmsg1
            2026-11-23T09:30:15Z\tp1
            2026-11-30T09:30:12.3Z\tbind_1
            2026-11-30T09:30:12.4Z\tbind_1
            2026-11-30T09:30:12.4Z\tp1
            2026-11-30T09:30:12.4Z\tmsg1
            2026-11-30T09:30:13Z\tmsg2

            """, status: 0)
        try assertStanzaq(["--time-format", "iso", "--tz", "-05:30", "--json", "--fields", "time", "-m1", "/@id", "logs/ejabberd.log"], stdout: """
            {"time":"2026-11-23T04:00:13.220101-05:30","value":"bind_1"}

            """, status: 0)
        // A time that is not read is printed as written; without --time-format, every time is.
        try assertStanzaq(["--time-format=iso", "--tz=UTC", "--fields", "time", "-m1", "/$", "logs/tshark-follow.txt"], stdout: "\tfeatures\n", status: 0)
        try assertStanzaq(["--time-format=iso", "--tz=UTC", "--fields", "time", "-m1", "/$", "logs/generic.log"], stdout: "\tiq\n", status: 0)
        let rows = """
            {"time":"yesterday","xml":"<message id='a'/>"}
            {"time":"2026-11-23 10:30:12+01","xml":"<message id='b'/>"}

            """
        try assertStanzaq(["--log=json", "--time-format=iso", "--tz=UTC", "--fields", "time", "/@id"], stdin: rows,
                          stdout: "yesterday\ta\n2026-11-23T09:30:12Z\tb\n", status: 0)
        try assertStanzaq(["--log=json", "--since", "2026-01-01T00:00Z", "--fields", "time", "/@id"], stdin: rows,
                          stdout: "2026-11-23 10:30:12+01\tb\n",
                          stderr: "stanzaq: warning: (standard input): line 1: the stanza's time 'yesterday' is not one stanzaq reads: "
                              + "--since selects no such stanza\n", status: 0)
        try assertStanzaq(["--time-format=log", "--fields", "time", "-m1", "/$", "logs/ejabberd.log"],
                          stdout: "2026-11-23 09:30:12.103410+00:00\tfeatures\n", status: 0)
        try assertStanzaq(["--time-format=local", "/$", "logs/ejabberd.log"], stdout: "",
                          stderr: "stanzaq: error: --time-format: unknown form 'local' (log or iso)\n"
                              + "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n", status: 2)
    }

    /// The warning about stanzas without a time is said once per input, by the
    /// first part that has one, as one reader says it.
    func testPartsWarnOnceAsOneReaderDoes() throws {
        let log = "Tests/Fixtures/real-logs/logs/libstrophe-dave.log"
        let arguments = ["--since", "@0", "-c", "/$", log, "examples/capture.xml", log]
        let expected = """
            stanzaq: warning: \(log): line 7: the stanza has no time: --since selects no such stanza
            stanzaq: warning: examples/capture.xml: XML input has no time: --since selects none of its stanzas
            stanzaq: warning: \(log): line 7: the stanza has no time: --since selects no such stanza

            """
        let one = try Runner.stanzaq(["--threads", "1"] + arguments, in: PackagePaths.root)
        let parts = try Runner.stanzaq(["--threads", "4"] + arguments, in: PackagePaths.root, environment: ["STANZAQ_PART_SIZE": "2048"])
        XCTAssertEqual(one.stderr, expected)
        XCTAssertEqual(parts.stderr, expected)
        XCTAssertEqual(parts.output, one.output)
    }

    /// A relative time counts back from the last record of all the inputs
    /// (ejabberd.log's ends at 09:30:15.100200), from a file or a pipe.
    func testRelativeTimesCountBackFromTheLastRecord() throws {
        try assertStanzaq(["--since", "-1s", "-c", "/$", "logs/ejabberd.log"], stdout: "3\n", status: 0)
        try assertStanzaq(["--until", "-1s", "-c", "/$", "logs/ejabberd.log"], stdout: "5\n", status: 0)
        try assertStanzaq(["--since", "-100000d", "--until", "-1h", "-c", "/$", "logs/ejabberd.log"], stdout: "0\n", status: 1)
        try assertStanzaq(["--since", "-1h", "-c", "/$", "logs/ejabberd.log"], stdout: "8\n", status: 0)
        let log = try String(contentsOf: Runner.examples.appendingPathComponent("logs/ejabberd.log"), encoding: .utf8)
        try assertStanzaq(["--since", "-1s", "-c", "/$"], stdin: log, stdout: "3\n", status: 0)
        try assertStanzaq(["--since", "-1s", "-c", "/$", "-", "capture.xml"], stdin: log, stdout: "3\n",
                          stderr: "stanzaq: warning: capture.xml: XML input has no time: --since selects none of its stanzas\n", status: 0)
        // The last record of all the inputs: slixmpp.log's (09:30:13,001, as UTC) are all before ejabberd.log's last two seconds.
        try assertStanzaq(["--tz=UTC", "--since", "-2s", "-H", "-c", "/$", "logs/ejabberd.log", "logs/slixmpp.log"],
                          stdout: "logs/ejabberd.log:7\nlogs/slixmpp.log:0\n", status: 0)
        try assertStanzaq(["--tz=UTC", "--since", "-2s", "-c", "/$", "logs/slixmpp.log"], stdout: "5\n", status: 0)
    }

    func testStanzasWithoutATimeAreLeftOutWithAWarning() throws {
        try assertStanzaq(["--since", "@0", "/@id", "capture.xml"], stdout: "",
                          stderr: "stanzaq: warning: capture.xml: XML input has no time: --since selects none of its stanzas\n", status: 1)
        try assertStanzaq(["--since", "@0", "--until", "@2000000000", "-c", "/$", "logs/tshark-follow.txt"], stdout: "0\n",
                          stderr: "stanzaq: warning: logs/tshark-follow.txt: line 10: the stanza has no time: "
                              + "--since and --until select no such stanza\n", status: 1)
    }

    func testWhatIsNotATimeIsAnError() throws {
        let usage = "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n"
        let forms = "(ISO 8601 such as 2026-11-23T09:30:00Z, the log's own form, @SECONDS, or -10m, -2h, -1d)"
        for (option, value) in [("--since", "yesterday"), ("--until", "2026-13-01"), ("--since", "-10"), ("--until", "1795426212")] {
            try assertStanzaq([option, value, "/@id", "logs/prosody.log"], stdout: "",
                              stderr: "stanzaq: error: \(option): '\(value)' is not a time \(forms)\n" + usage, status: 2)
        }
        try assertStanzaq(["--tz=Mars/Olympus", "/@id", "logs/prosody.log"], stdout: "",
                          stderr: "stanzaq: error: --tz: unknown zone 'Mars/Olympus' (UTC, +HH:MM, -HH:MM, or a name of the system's "
                              + "time zone database)\n" + usage, status: 2)
        try assertStanzaq(["--since", "@0", "-i", "logs/prosody.log"], stdout: "",
                          stderr: "stanzaq: error: --since does not apply to the REPL (-i)\n", status: 2)
    }
}
