import Foundation
import StanzaqTestSupport
import XCTest

/// The journal and syslog envelopes (stanzaq(1), ENVELOPES): the fixtures the
/// real tools made (Tests/Fixtures/envelopes), and every real-software log of
/// Tests/Fixtures/real-logs in each form, read as the logs themselves are.
final class JournalEnvelopeTests: CLITestCase {
    static let fixtures = PackagePaths.file("Tests/Fixtures/envelopes")

    private static let columns = ["-e", "/$", "-e", "/@id", "-e", "/@type", "-e", "body#"]

    /// The stanzas of a log: name, id, type, body, after the fields asked for.
    private func stanzas(_ fields: String, _ arguments: [String]) throws -> RunResult {
        try InProcess.stanzaq(["--fields", fields] + Self.columns + arguments)
    }

    private func alone(_ name: String) throws -> String {
        let run = try stanzas("direction,session", try RealLogLines.reading(name) + [RealLogLines.path(name)])
        XCTAssertEqual(run.status, 0, name)
        XCTAssertFalse(run.output.isEmpty, name)
        return run.output
    }

    /// The rows of `source`, without the source's column.
    private func rows(of source: String, in output: String) -> String {
        output.split(separator: "\n").filter { $0.hasPrefix(source + "\t") }.map { $0.dropFirst(source.count + 1) + "\n" }.joined()
    }

    // MARK: - Made by the real tools

    /// Each output of journalctl and rsyslogd around Prosody's and slixmpp's
    /// logs: every stanza of each program, once, in its order, and no other.
    /// journalctl without `-a` writes a tab as 8 spaces: a body's tab is lost.
    func testRealToolOutputsGiveEachProgramsStanzasOnceInOrder() throws {
        let server = try alone("prosody.log"), bot = try alone("slixmpp-time-alice.log")
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".log.gz") }.sorted()
        XCTAssertEqual(files, ["journal-short-a.log.gz", "journal-short-iso-precise.log.gz", "journal-short-iso.log.gz",
                               "journal-short-precise.log.gz", "journal-short.log.gz", "syslog-rfc3339.log.gz",
                               "syslog-rfc5424.log.gz", "syslog-traditional.log.gz"])
        for file in files {
            let run = try stanzas("source,direction,session", [Self.fixtures.appendingPathComponent(file).path])
            XCTAssertEqual(run.stderr, "", file)
            XCTAssertEqual(run.status, 0, file)
            let tabsLost = file.hasPrefix("journal-") && file != "journal-short-a.log.gz"
            func expected(_ text: String) -> String { tabsLost ? text.replacingOccurrences(of: "\\t", with: "        ") : text }
            XCTAssertEqual(rows(of: "prosody[812]", in: run.output), expected(server), file)
            XCTAssertEqual(rows(of: "slixmpp[905]", in: run.output), expected(bot), file)
            XCTAssertEqual(run.output.split(separator: "\n").count,
                           server.split(separator: "\n").count + bot.split(separator: "\n").count, file)
        }
    }

    /// The envelope each output is recognised as, and the host a field.
    func testRealToolOutputsAreRecognised() throws {
        let query = ["--fields", "source,host", "-m", "1", "-e", "/@id", "--where", "/{jabber:client}iq"]
        for (file, envelope) in [("journal-short.log.gz", "syslog"), ("journal-short-iso.log.gz", "journal"),
                                 ("syslog-rfc5424.log.gz", "syslog")] {
            let path = Self.fixtures.appendingPathComponent(file).path
            let found = try InProcess.stanzaq(query + [path])
            let named = try InProcess.stanzaq(["--envelope", envelope] + query + [path])
            XCTAssertEqual(found.output, named.output, file)
            XCTAssertTrue(found.output.hasPrefix("prosody[812]\tcapulet\t"), found.output)
        }
    }

    // MARK: - Every real-software log in each form

    /// Each line of every real-software log as an entry of journalctl's
    /// (`-a`, `short-iso`) and of rsyslog's three files: the same stanzas as
    /// the log itself, without a message.
    func testJournalAndSyslogAroundEveryRealLogReadAsTheLog() throws {
        let scratch = try ScratchDirectory()
        let names = try RealLogLines.names()
        XCTAssertEqual(names.count, 24)
        for name in names {
            let reading = try RealLogLines.reading(name)
            let plain = try alone(name)
            let text = try String(contentsOf: RealLogLines.folder.appendingPathComponent(name), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            let wrapped: [(String, String)] = [
                ("journal", lines.map { "Nov 25 20:05:14 capulet xmpp[812]: \($0)\n" }.joined()),
                ("journal-iso", lines.map { "2026-11-25T20:05:14+0100 capulet xmpp[812]: \($0)\n" }.joined()),
                ("syslog", lines.map { "Nov 25 20:05:14 capulet xmpp[812]: \(escaped($0))\n" }.joined()),
                ("rfc3339", lines.map { "2026-11-25T20:05:14.123456+01:00 capulet xmpp[812]: \(escaped($0))\n" }.joined()),
                ("rfc5424", lines.map { "<13>1 2026-11-25T20:05:14.123456+01:00 capulet xmpp 812 - - \(escaped($0))\n" }.joined()),
            ]
            for (form, text) in wrapped {
                let path = try scratch.write("\(form)-\(name)", text).path
                let run = try stanzas("direction,session", reading + [path])
                XCTAssertEqual(run.output, plain, "\(form) around \(name)")
                XCTAssertEqual(run.stderr, "", "\(form) around \(name)")
                XCTAssertEqual(run.status, 0, "\(form) around \(name)")
            }
        }
    }

    /// A journal of two programs whose lines interleave (Prosody and a slixmpp
    /// bot): every stanza of each, once, in its order.
    func testTwoProgramsInOneJournalGiveEachProgramsStanzas() throws {
        let scratch = try ScratchDirectory()
        let server = try RealLogLines.lines(of: "prosody.log"), client = try RealLogLines.lines(of: "slixmpp-time-alice.log")
        let mixed = "-- Boot 0d8c8a4fbd6b4d6c9a0c4a3e9d7b1f20 --\n"
            + RealLogLines.interleaved(server, client, take: (3, 2),
                                       prefix: ("2026-11-25T20:05:14+0100 capulet prosody[812]: ", "2026-11-25T20:05:14+0100 capulet slixmpp[905]: "))
        let path = try scratch.write("journal.log", mixed).path
        let run = try stanzas("source,direction,session", [path])
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(rows(of: "prosody[812]", in: run.output), try alone("prosody.log"))
        XCTAssertEqual(rows(of: "slixmpp[905]", in: run.output), try alone("slixmpp-time-alice.log"))
    }

    // MARK: - Lines joined, damage

    /// journalctl's indented lines and rsyslog's `#012` are the message's
    /// newlines again, exactly: Prosody's tab after them goes, as in its file.
    func testContinuationLinesAndEscapesAreJoinedExactly() throws {
        let journal = """
            -- Boot 0d8c8a4fbd6b4d6c9a0c4a3e9d7b1f20 --
            Nov 25 20:05:14 capulet prosody[812]: c2s1: RECV: <message id='m1'><body>one
                                                  \ttwo
                                                  \t  three
                                                  \t</body></message>
            Nov 25 20:05:14 capulet bot[9]: DEBUG    SEND: <message id='m2'><body>four
                                            five</body></message>
            -- No entries --

            """
        try assertStanzaq(["--json", "--fields", "line,time,source,session,host", "body#"], stdin: journal, stdout: """
            {"line":2,"time":"Nov 25 20:05:14","source":"prosody[812]","session":"c2s1","host":"capulet","value":"one\\ntwo\\n  three\\n"}
            {"line":6,"time":"Nov 25 20:05:14","source":"bot[9]","session":null,"host":"capulet","value":"four\\nfive"}

            """, status: 0)
        let syslog = "Nov 25 20:05:14 capulet prosody[812]: c2s1: SEND: <message id='m1'><body>one#012#011two#011#0093#041#200</body></message>\n"
        try assertStanzaq(["--json", "--envelope", "syslog", "body#"], stdin: syslog,
                          stdout: "\"one\\ntwo\\t#0093#041#200\"\n", status: 0)
        // journalctl leaves a `#012` as the program wrote it.
        try assertStanzaq(["--json", "--envelope", "journal", "body#"], stdin: syslog,
                          stdout: "\"one#012#011two#011#0093#041#200\"\n", status: 0)
    }

    /// A line that is no entry costs only itself, reported; the entries before
    /// and after it are read, and the program's text is not cut there.
    func testADamagedEntryCostsOnlyThatEntry() throws {
        let text = """
            2026-11-25T20:05:14+0100 capulet prosody[812]: c2s1: SEND: <presence id='a'/>
            2026-11-25T20:05:1 capulet prosody[812]: c2s1: SEND: <presence id='b'/>
            2026-11-25T20:05:14+0100 capulet prosody[812]: c2s1: SEND: <presence id='c'/>

            """
        try assertStanzaq(["-e", "/@id"], stdin: text, stdout: "a\nc\n",
                          stderr: "(standard input):2:1: not a journalctl line: skipped\n", status: 2)
    }
}

/// A message as rsyslog writes it: each control character `#` and three octal digits.
private func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        if scalar.value < 0x20 || scalar.value == 0x7F {
            let octal = String(scalar.value, radix: 8)
            out += "#" + String(repeating: "0", count: 3 - octal.count) + octal
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
