import Foundation
import StanzaqTestSupport
import XCTest

/// A large log is read only around the records that hold what every result
/// needs (stanzaq(1), "Skipping what cannot match"): on undamaged logs the
/// output, messages and exit status are those of a full read (`--read-all`),
/// whatever the threads and wherever the windows fall (`STANZAQ_PART_SIZE`
/// scales them: 64 bytes cuts the first window before the log's format is
/// settled, so that every window falls back; 16 kB and 64 kB skip).
final class PrefilterTests: CLITestCase {
    static let optionSets: [[String]] = [
        ["/iq<type=error>@id"],
        ["-c", "body#"],
        ["-c", "-H", "/iq<type=ERROR>"],
        ["--case-sensitive", "-s", "/iq<type=result>"],
        ["--json", "--fields", "line,time,direction,session", "/message<type=chat>/body#"],
        ["--line-number", "-e", "/@id", "-e", "/$", "--where", "{urn:xmpp:ping}ping"],
        ["-c", "-e", "/iq<type=result>@id", "-e", "query@xmlns"],
        ["--each", "query/item", "-e", "@jid", "-e", "@subscription"],
        ["-q", "/iq<type=error>"],
    ]

    /// Every log sample and every real log, repeated to at least 200 kB.
    func logs(in scratch: ScratchDirectory) throws -> [String] {
        var paths: [String] = []
        let samples = Runner.examples.appendingPathComponent("logs")
        let real = PackagePaths.file("Tests/Fixtures/real-logs/logs")
        for folder in [samples, real] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name != "README.md" {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                let count = max(6, 200_000 / max(text.utf8.count, 1))
                paths.append(try scratch.write((folder == real ? "real-" : "") + name, String(repeating: text, count: count)).path)
            }
        }
        XCTAssertEqual(paths.count, 48)
        return paths
    }

    func testEveryLogAsReadWhole() throws {
        let scratch = try ScratchDirectory()
        for path in try logs(in: scratch) {
            for options in Self.optionSets {
                try assertSameAsReadingAll(options + [path])
            }
        }
    }

    /// Streams and top-level sequences: the stanzas between the places the
    /// boundary scanner may cut at are searched, and only those with a hit read.
    func testStreamsAndSequencesAsReadWhole() throws {
        let scratch = try ScratchDirectory()
        var paths = [try scratch.write("stream.xml", ParallelTests.stream(stanzas: 3000)).path,
                     try scratch.write("reconnect.xml", ParallelTests.stream(stanzas: 700, reconnect: true)).path,
                     try scratch.write("sequence.xml", SequenceParallelTests.sequence(stanzas: 3000)).path]
        let corpus = PackagePaths.shared.appendingPathComponent("corpus/xep-stanzas.xml").path
        if FileManager.default.fileExists(atPath: corpus) { paths.append(corpus) }
        for path in paths {
            for options in Self.optionSets + [["-c", "{urn:xmpp:delay}delay@stamp"], ["--first", "{*}query/{jabber:x:data}x/field/value#"]] {
                try assertSameAsReadingAll(options + [path])
            }
        }
    }

    /// A stream's windows are read as the scanner cut them, none read again
    /// (the scanner keeps counting across the bytes it forgets).
    func testStreamWindowsAreKept() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("stream.xml", ParallelTests.stream(stanzas: 3000)).path
        let run = try Runner.stanzaq(["-c", "/<type=error>@id", path],
                                     environment: ["STANZAQ_PART_SIZE": "16384", "STANZAQ_DEBUG_PARTS": "1"])
        XCTAssertEqual(run.output, try Runner.stanzaq(["--read-all", "-c", "/<type=error>@id", path]).output)
        XCTAssertEqual(run.stderr, "stanzaq: debug: prefilter: 'error' (any case, a whole value), '&#': 429 windows of 3428 stanzas\n"
                       + "stanzaq: parts of \(path): 429 made, 429 kept\n")
    }

    /// The windows of a real slixmpp log: a sixth of it read, none read again;
    /// its stream headers are noted, not read.
    /// (Prosody's can fall back: a window may end while the start tag of the
    /// presence Prosody makes itself at a session's end waits for its stanza.)
    func testWindowsSkip() throws {
        try assertWindowsSkip("logs/slixmpp-time-alice.log", repeated: 6, partSize: 16384, count: 12,
                              windows: 7, read: "23797 of 157806")
    }

    /// With one thread the windows are read by a plain loop: the process
    /// starts no thread (`strace -f` sees no clone), and reads the same
    /// windows as on two threads, which do start threads.
    func testOneThreadStartsNoThread() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
              (try? Runner.run(URL(fileURLWithPath: "/usr/bin/strace"), ["-o", "/dev/null", "true"], in: Runner.examples,
                               environment: Runner.environment()).status) == 0 else {
            throw XCTSkip("strace cannot trace here")
        }
        let scratch = try ScratchDirectory()
        let text = try String(contentsOf: PackagePaths.file("Tests/Fixtures/real-logs/logs/slixmpp-time-alice.log"), encoding: .utf8)
        let path = try scratch.write("slixmpp.log", String(repeating: text, count: 6)).path
        for threads in ["1", "2"] {
            let trace = scratch.url.appendingPathComponent("trace-\(threads)").path
            let run = try Runner.run(URL(fileURLWithPath: "/usr/bin/strace"),
                                     ["-f", "-qq", "-e", "trace=clone,clone3", "-o", trace, try Runner.requireBinary().path,
                                      "--threads", threads, "-c", "/iq<type=error>@id", path],
                                     in: scratch.url, environment: Runner.environment(["STANZAQ_PART_SIZE": "16384", "STANZAQ_DEBUG_PARTS": "1"]))
            XCTAssertEqual(run.output, "12\n")
            XCTAssertEqual(run.stderr, "stanzaq: debug: prefilter: 'error' (any case, a whole value), '&#': 7 windows, 23797 of 157806 bytes read\n"
                           + "stanzaq: parts of \(path): 7 made, 7 kept\n")
            let clones = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("clone") }
            if threads == "1" {
                XCTAssertEqual(clones, [], "--threads 1 started threads")
            } else {
                XCTAssertEqual(clones.count, 3, "a producer and two workers: \(clones)")
            }
        }
    }

    /// `-c -e /iq<type=error>@id` on a real fixture (under
    /// Tests/Fixtures/real-logs) repeated `count` times: its count, and the
    /// debugging lines that say how many windows were read and that all were kept.
    func assertWindowsSkip(_ fixture: String, repeated repetitions: Int, partSize: Int, count: Int, windows: Int, read: String,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let scratch = try ScratchDirectory()
        let text = try String(contentsOf: PackagePaths.file("Tests/Fixtures/real-logs/" + fixture), encoding: .utf8)
        let path = try scratch.write((fixture as NSString).lastPathComponent, String(repeating: text, count: repetitions)).path
        let run = try Runner.stanzaq(["-c", "/iq<type=error>@id", path],
                                     environment: ["STANZAQ_PART_SIZE": String(partSize), "STANZAQ_DEBUG_PARTS": "1"])
        XCTAssertEqual(run.output, "\(count)\n", file: file, line: line)
        XCTAssertEqual(run.stderr, "stanzaq: debug: prefilter: 'error' (any case, a whole value), '&#': \(windows) windows, \(read) bytes read\n"
                       + "stanzaq: parts of \(path): \(windows) made, \(windows) kept\n", file: file, line: line)
        XCTAssertEqual(run.status, 0, file: file, line: line)
    }

    /// A Prosody debug log of 3000 records: `record(i)` for record `i`, or
    /// (where it gives `nil`) a chat message received.
    static func prosodyLog(_ record: (Int) -> String?) -> String {
        (0..<3000).map { i in
            "Nov 23 09:30:12 c2s55e8a7f1c3a0\tdebug\t"
                + (record(i) ?? "RECV: <message id='m\(i)' type='chat'><body>hello \(i)</body></message>")
        }.joined(separator: "\n") + "\n"
    }

    /// A whole `=` value counts only between quotes: a word of the log's own
    /// text or of a longer value makes no window. Where a value equals it
    /// otherwise (in another case, with a line terminator after it, spelled
    /// with a reference), it is found all the same.
    func testWholeValues() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("prosody.log", Self.prosodyLog { i in
            switch i {
            case 500: "RECV: <iq id='a' type='ERROR'/>"
            case 1000: "RECV: <iq id='b' type=\"error\u{85}\"/>"
            case 1500: "RECV: <iq id='c' type='err&#111;r'/>"
            case 2000: "RECV: <iq id='d' type='errors'/>"
            case let n where n % 10 == 0: "Handled an error (unknown) of \(n)"
            default: nil
            }
        }).path
        let run = try Runner.stanzaq(["/iq<type=error>@id", path],
                                     environment: ["STANZAQ_PART_SIZE": "16384", "STANZAQ_DEBUG_PARTS": "1"])
        XCTAssertEqual(run.output, "a\nb\nc\n")
        XCTAssertEqual(run.stderr, "stanzaq: debug: prefilter: 'error' (any case, a whole value), '&#': 5 windows, 16934 of 316788 bytes read\n"
                       + "stanzaq: parts of \(path): 5 made, 5 kept\n")
        try assertSameAsReadingAll(["/iq<type=error>@id", path])
    }

    /// A stream header in records without a hit is noted, not read: the
    /// windows after it read its stream with the namespace it declares.
    func testStreamHeadersBetweenWindows() throws {
        let scratch = try ScratchDirectory()
        var lines: [String] = []
        func line(_ n: Int, _ text: String) -> String {
            "2026-11-25 19:05:14,\(String(format: "%03d", n % 1000)) DEBUG    " + text
        }
        for i in 0..<4000 {
            switch i {
            case 1000: lines.append(line(i, "RECV: <stream:stream xmlns=\"jabber:server\" xmlns:stream=\"http://etherx.jabber.org/streams\" id=\"s1\">"))
            case 2000, 3999: lines.append(line(i, "RECV: <iq type=\"error\" id=\"e\(i)\" />"))
            case 3000: lines.append(line(i, "RECV: <stream:stream xmlns=\"jabber:client\" xmlns:stream=\"http://etherx.jabber.org/streams\" id=\"s2\">"))
            case let n where n % 5 == 0: lines.append(line(i, "RECV: <message id=\"m\(i)\"><body>hi</body></message>"))
            default: lines.append(line(i, "Event triggered: changed_status \(i)"))
            }
        }
        let path = try scratch.write("slixmpp.log", lines.joined(separator: "\n") + "\n").path
        for query in ["/{jabber:server}iq<type=error>@id", "/{jabber:client}iq<type=error>@id"] {
            let run = try Runner.stanzaq([query, path], environment: ["STANZAQ_PART_SIZE": "16384", "STANZAQ_DEBUG_PARTS": "1"])
            XCTAssertEqual(run.output, query.hasPrefix("/{jabber:server}") ? "e2000\n" : "e3999\n")
            XCTAssertEqual(run.stderr, "stanzaq: debug: prefilter: 'error' (any case, a whole value), '&#': 3 windows, 16870 of 290971 bytes read\n"
                           + "stanzaq: parts of \(path): 3 made, 3 kept\n")
            try assertSameAsReadingAll([query, path])
        }
    }

    /// A BOSH session's log (LogParallelTests.boshLog): the windows around
    /// the places found read the stanzas inside the bodies as a full read does.
    func testBOSHLogAsReadWhole() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("bosh.log", LogParallelTests.boshLog(requests: 3000)).path
        for options in Self.optionSets {
            try assertSameAsReadingAll(options + [path])
        }
    }

    /// Damage in a window read by a reader that a window before left
    /// (LogReaderScratch) is reported at its place in the log, as a full read reports it.
    func testDamageInAWindowKeepsItsPlace() throws {
        let scratch = try ScratchDirectory()
        var lines: [String] = []
        for i in 0..<4000 {
            let text: String
            switch i {
            case 1000, 2000, 3000: text = "RECV: <iq type=\"error\" id=\"e\(i)\"><query xmlns=\"urn:x\" /></iq>"
            case 2500: text = "RECV: <iq type=\"error\" id=\"d\(i)\"><query></iq>"
            case 2501: text = "SEND: <iq type=\"error\" id=\"s\(i)\"><x>caf\u{E9} &amp; </y></iq>"
            case let n where n % 5 == 0: text = "RECV: <message id=\"m\(i)\"><body>hi</body></message>"
            default: text = "Event triggered: changed_status \(i)"
            }
            lines.append("2026-11-25 19:05:14,\(String(format: "%03d", i % 1000)) DEBUG    " + text)
        }
        let path = try scratch.write("slixmpp.log", lines.joined(separator: "\n") + "\n").path
        let run = try Runner.stanzaq(["/iq<type=error>@id", path], environment: ["STANZAQ_PART_SIZE": "16384"])
        XCTAssertEqual(run.output, "e1000\ne2000\ne3000\n")
        XCTAssertEqual(run.stderr, "\(path):2501:80: Opening and ending tag mismatch: query line 2501 and iq\n"
                       + "\(path):2502:86: Opening and ending tag mismatch: x line 2502 and y\n")
        XCTAssertEqual(run.status, 2)
        try assertSameAsReadingAll(["/iq<type=error>@id", path])
    }

    /// Damage in records that are skipped is not read, so not reported
    /// (stanzaq(1), "Skipping what cannot match"); `--read-all` reports it.
    func testDamageInSkippedRecords() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("prosody.log", Self.prosodyLog { i in
            switch i {
            case 1500: "RECV: <message id='d\(i)'><body>a & b</body></message>"
            case 2999: "RECV: <iq id='q\(i)' type='error'/>"
            default: nil
            }
        }).path
        let skipping = try Runner.stanzaq(["/iq<type=error>@id", path], environment: ["STANZAQ_PART_SIZE": "16384"])
        XCTAssertEqual(skipping.output, "q2999\n")
        XCTAssertEqual(skipping.stderr, "")
        XCTAssertEqual(skipping.status, 0)
        let all = try Runner.stanzaq(["--read-all", "/iq<type=error>@id", path], environment: ["STANZAQ_PART_SIZE": "16384"])
        XCTAssertEqual(all.output, "q2999\n")
        XCTAssertEqual(all.stderr, "\(path):1501:74: xmlParseEntityRef: no name\n")
        XCTAssertEqual(all.status, 2)
    }
}
