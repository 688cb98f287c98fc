import Foundation
import StanzaqTestSupport
import XCTest

/// Threads change nothing but speed (stanzaq(1), "Parallelism"): every run
/// here compares the output, messages and exit status of `--threads 2` (and
/// more) with `--threads 1`, with one large input cut into parts every few
/// stanzas (`STANZAQ_PART_SIZE`, the test seam) and at sizes drawn from a
/// seeded generator, over clean and damaged streams, reconnects, several files.
final class ParallelTests: CLITestCase {
    /// The option sets compared: every kind of output, prefixes and numbering.
    static let optionSets: [[String]] = [
        ["body#"],
        ["-s", "/<type=error>"],
        ["-c", "/{jabber:client}message"],
        ["-c", "-H", "/{jabber:client}message"],
        ["-n", "-H", "body#"],
        ["-o", "json", "-n", "-e", "/@id", "-e", "body#"],
        ["-v", "-c", "body#"],
        ["-q", "/<type=error>"],
        ["-n", "--first", "{*}query/{jabber:x:data}x/field/value#"],
        ["-s", "--compact", "-n", "**/{urn:xmpp:delay}delay"],
        ["-l", "/<type=error>"],
        ["-L", "/{jabber:client}presence"],
        ["-m", "3", "-n", "-H", "body#"],
        ["-s", "-n", "-C", "1", "/<type=error>"],
        ["-s", "-H", "--line-number", "/<type=error>"],
        ["--line-number", "--each", "**", "-e", "name=/$", "-e", "id=@id", "--json"],
        ["--header", "-n", "--each", "**", "-e", "/$", "-e", "#"],
    ]

    /// A stream of `count` stanzas of every shape the cutting must get right:
    /// pretty-printed and one-line stanzas, two on a line, self-closing ones,
    /// comments, CDATA holding markup, processing instructions, `>` and `/>`
    /// in attribute values, prefixed elements; with `damaged`, a stray `&` and
    /// a cut-off stanza now and then; with `reconnect`, a new stream header
    /// halfway.
    static func stream(stanzas count: Int, damaged: Bool = false, reconnect: Bool = false) -> String {
        let header = "<?xml version='1.0'?>\n<stream:stream xmlns='jabber:client' "
            + "xmlns:stream='http://etherx.jabber.org/streams' to='example.com' version='1.0'>\n"
        var text = header
        for i in 0..<count {
            if reconnect && i == count / 2 { text += header }
            if damaged && i % 37 == 36 {
                text += i % 74 == 73 ? "<message id='cut\(i)'><body>cut off\n" : "<message id='d\(i)'><body>a & b</body></message>\n"
                continue
            }
            switch i % 7 {
            case 0:
                text += "<message from='romeo@montague.lit/orchard' to='juliet@capulet.lit' type='chat' id='m\(i)'><body>hello \(i) &amp; &lt;x&gt;</body></message>\n"
            case 1:
                text += """
                    <iq type='result' id='q\(i)'>
                      <query xmlns='http://jabber.org/protocol/disco#info'>
                        <x xmlns='jabber:x:data' type='result'><field var='FORM_TYPE'><value>urn:x:\(i)</value></field></x>
                      </query>
                    </iq>

                    """
            case 2:
                text += "<!-- a comment with <message> and </iq> -->\n<presence from='nurse@capulet.lit/\(i)'/>\n"
            case 3:
                text += "<message id='c\(i)' type='error'><body><![CDATA[<b>bold</b></message> ]]></body><?pi some ?><error type='cancel'/></message>\n"
            case 4:
                text += "<message id='a\(i)' data='x > y /> z' other=\"it's\"><s:delay xmlns:s='urn:xmpp:delay' stamp='2002-09-10T23:08:25Z'/></message>\n"
            case 5:
                text += "<message id='t\(i)'><body>one</body></message> <message id='u\(i)'><body>two</body></message>\n"
            default:
                text += "  <message type='error' id='e\(i)'>\n    <body>line one\nline two</body>\n  </message>\n"
            }
        }
        return text
    }

    /// Part sizes from a seeded generator (the same in every run).
    static func randomSizes(seed: UInt64, count: Int, upTo limit: Int) -> [Int] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return 1 + Int((state >> 33) % UInt64(limit))
        }
    }

    func testOneStreamCutEveryFewStanzas() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("stream.xml", Self.stream(stanzas: 400)).path
        for options in Self.optionSets {
            try assertSameAsOneThread(options + [path], partSizes: [1, 300] + Self.randomSizes(seed: 1, count: 2, upTo: 4000))
        }
    }

    func testDamagedStream() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("damaged.xml", Self.stream(stanzas: 400, damaged: true)).path
        let run = try Runner.stanzaq(["--threads", "1", "-c", "body#", path])
        XCTAssertEqual(run.status, 2, "the fixture is damaged: \(run.stderr)")
        for options in Self.optionSets {
            try assertSameAsOneThread(options + [path], partSizes: [1, 500] + Self.randomSizes(seed: 2, count: 2, upTo: 4000))
        }
    }

    func testReconnect() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("reconnect.xml", Self.stream(stanzas: 300, reconnect: true)).path
        for options in Self.optionSets {
            try assertSameAsOneThread(options + [path], partSizes: [1, 700] + Self.randomSizes(seed: 3, count: 1, upTo: 4000))
        }
    }

    func testStandardInputFromAFile() throws {
        let scratch = try ScratchDirectory()
        let stream = try scratch.write("stream.xml", Self.stream(stanzas: 200, damaged: true))
        for options in [["-n", "body#"], ["-c", "-H", "/"]] {
            let one = try Runner.stanzaq(["--threads", "1"] + options, stdin: .file(stream))
            let several = try Runner.stanzaq(["--threads", "2"] + options, stdin: .file(stream),
                                             environment: ["STANZAQ_PART_SIZE": "400"])
            XCTAssertEqual(several.output, one.output)
            XCTAssertEqual(several.stderr, one.stderr)
            XCTAssertEqual(several.status, one.status)
        }
    }

    func testSeveralFiles() throws {
        let scratch = try ScratchDirectory()
        var paths = try ["a", "b", "c"].enumerated().map { index, name in
            try scratch.write("\(name).xml", Self.stream(stanzas: 60 + 40 * index, damaged: index == 1)).path
        }
        paths += ["capture.xml", "does-not-exist.xml", "reconnect-log.xml", "stream-error.xml", "logs/prosody.log",
                  "mam-page.xml", "message-delay.xml"]
        for options in Self.optionSets {
            try assertSameAsOneThread(options + paths, threads: 3, partSizes: [200, 100_000])
        }
    }

    func testManyFilesKeepTheirOrder() throws {
        let scratch = try ScratchDirectory()
        let paths = try (0..<40).map { index in
            try scratch.write(String(format: "f%02d.xml", index), Self.stream(stanzas: index % 9, damaged: index % 5 == 4)).path
        }
        try assertSameAsOneThread(["-H", "-n", "/@id"] + paths, threads: 4, partSizes: [50])
        try assertSameAsOneThread(["-c", "-H", "/"] + paths, threads: 4, partSizes: [1_000_000])
    }

    func testRecursiveSearch() throws {
        let scratch = try ScratchDirectory()
        for index in 0..<12 {
            _ = try scratch.write(String(format: "d%d-%02d.xml", index % 3, index), Self.stream(stanzas: 5 + index * 7, damaged: index % 4 == 3))
        }
        for options in [["-r", "-c", "-H", "body#"], ["-r", "-l", "/<type=error>"], ["-r", "-n", "-H", "/@id"]] {
            try assertSameAsOneThread(options + [scratch.url.path], threads: 3, partSizes: [100, 1_000_000])
        }
    }

    /// The XEP corpus beside the repository, cut every few stanzas and at random sizes.
    func testCorpus() throws {
        let corpus = PackagePaths.shared.appendingPathComponent("corpus/xep-stanzas.xml").path
        guard FileManager.default.fileExists(atPath: corpus) else {
            throw XCTSkip("the shared corpus is not at \(corpus)")
        }
        for options in Self.optionSets {
            try assertSameAsOneThread(options + [corpus], partSizes: [2000] + Self.randomSizes(seed: 4, count: 1, upTo: 60_000))
        }
    }

    func testThreadsMustBePositive() throws {
        try assertStanzaq(["--threads", "0", "body#", "capture.xml"], stdout: "", stderr: """
            stanzaq: error: --threads: N must be at least 1
            Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)

            """, status: 2)
    }
}
