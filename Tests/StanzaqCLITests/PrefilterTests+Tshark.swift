import Foundation
import StanzaqTestSupport
import XCTest

/// tshark's follow output, skipped in (stanzaq(1), "Skipping what cannot
/// match"): each chunk of a TCP stream is its length on a line (after a tab
/// for node 1), then its data, which may end anywhere in a stanza, even in a
/// needle, whose rest is in the side's next chunk, maybe chunks later; each
/// stream followed starts with a `Filter:` line, whose session the chunks
/// after it are of. Each case is output as tshark 4 writes it
/// (Tests/Fixtures/real-logs/tshark), with two sides' stanzas around the one
/// that matters, and is searched as a full read searches it.
extension PrefilterTests {
    /// The windows of real tshark output (repeated): each stream's first lines
    /// (its `Filter:`, its stream headers) are read, and the chunks that hold a
    /// needle; the rest is skipped, and every window is kept.
    func testTsharkWindowsSkip() throws {
        try assertWindowsSkip("tshark/prosody-follow.txt", repeated: 12, partSize: 65536, count: 96, windows: 46, read: "89248 of 953448")
    }

    /// The real tshark outputs (not among the logs every option set is tried
    /// on), read as a full read reads them.
    func testTsharkRealOutputsAsReadWhole() throws {
        let scratch = try ScratchDirectory()
        for name in ["prosody-follow.txt", "ejabberd-follow.txt"] {
            let text = try String(contentsOf: PackagePaths.file("Tests/Fixtures/real-logs/tshark/" + name), encoding: .utf8)
            let path = try scratch.write(name, String(repeating: text, count: max(8, 600_000 / text.utf8.count))).path
            for options in Self.optionSets {
                try assertSameAsReadingAll(options + [path])
            }
        }
    }

    /// A chunk as tshark writes it: its length (after a tab for node 1), its
    /// data (printable ASCII here), and a line feed.
    static func tsharkChunk(node1: Bool, _ data: String) -> String {
        (node1 ? "\t" : "") + String(data.utf8.count) + "\n" + data + "\n"
    }

    /// One stream followed: its header lines, its stream headers and
    /// `stanzas` messages each way, and `chunks` after the `at`th.
    static func tsharkFollow(stream: Int, stanzas: Int, chunks: [String] = [], at: Int = 0) -> String {
        let rule = String(repeating: "=", count: 67)
        var text = "\n\(rule)\nFollow: tcp,ascii\nFilter: tcp.stream eq \(stream)\nNode 0: 127.0.0.1:\(36000 + stream)\nNode 1: 127.0.0.1:5222\n"
        text += tsharkChunk(node1: false, "<?xml version='1.0'?><stream:stream xmlns=\"jabber:client\" version=\"1.0\" "
                            + "xmlns:stream=\"http://etherx.jabber.org/streams\" to=\"localhost\">")
        text += tsharkChunk(node1: true, "<?xml version='1.0'?><stream:stream xmlns='jabber:client' version='1.0' "
                            + "xmlns:stream='http://etherx.jabber.org/streams' from='localhost' id='s\(stream)'>")
        for index in 0..<stanzas {
            text += tsharkChunk(node1: false, "<message type=\"chat\" to=\"frank@localhost\" id=\"m\(index)\"><body>hello \(index)</body></message>")
            text += tsharkChunk(node1: true, "<message type='chat' from='frank@localhost' id='r\(index)'><body>hi \(index)</body></message>")
            if index == at { text += chunks.joined() }
        }
        return text + tsharkChunk(node1: false, "</stream:stream>") + tsharkChunk(node1: true, "</stream:stream>") + rule + "\n"
    }

    /// Output of three streams followed, over the 512 kB skipped in, the
    /// case's chunks in the second, after its 1500th message each way.
    static func tsharkOutput(around chunks: [String]) -> String {
        tsharkFollow(stream: 4, stanzas: 1200) + tsharkFollow(stream: 7, stanzas: 2600, chunks: chunks, at: 1500)
            + tsharkFollow(stream: 9, stanzas: 1200)
    }

    func assertTsharkCase(_ chunks: [String], _ arguments: [String], expected: String,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("follow.txt", Self.tsharkOutput(around: chunks)).path
        let all = try Runner.stanzaq(["--read-all", "--threads", "1"] + arguments + [path])
        XCTAssertEqual(all.output, expected, file: file, line: line)
        try assertSameAsReadingAll(arguments + [path], file: file, line: line)
    }

    /// A needle (the only one) cut between two chunks of node 0, with node 1's
    /// chunks between or not; and a stanza over the lines of one chunk.
    func testTsharkNeedleCutBetweenChunks() throws {
        let first = Self.tsharkChunk(node1: false, "<iq type='get' id='zq")
        let second = Self.tsharkChunk(node1: false, "1'><query xmlns='urn:x:q'/></iq>")
        let other = Self.tsharkChunk(node1: true, "<presence/>")
        try assertTsharkCase([first, second], ["/iq<id=zq1>@type"], expected: "get\n")
        try assertTsharkCase([first, other, other, second], ["/iq<id=zq1>@type"], expected: "get\n")
        let lines = Self.tsharkChunk(node1: true, "<iq type='result' id='zq2'>\n<query xmlns='urn:x:q'/>\n</iq>")
        try assertTsharkCase([other, lines], ["/iq<id=zq2>/{urn:x:q}query@xmlns"], expected: "urn:x:q\n")
    }

    /// A stanza opened in one chunk (of one line, of two), whose needle is in
    /// a later chunk that is whole elements itself, and closed in a chunk
    /// later still.
    func testTsharkStanzaGoesOnInALaterChunk() throws {
        let opened = Self.tsharkChunk(node1: true, "<message to='x' type='chat' id='z3'>")
        let inner = Self.tsharkChunk(node1: true, "<subject xml:lang='qqzz'>hi</subject>")
        let other = Self.tsharkChunk(node1: false, "<presence/>")
        let closed = Self.tsharkChunk(node1: true, "</message>")
        try assertTsharkCase([opened, other, inner, other, closed], ["-c", "/message/subject<xml:lang=qqzz>#"], expected: "1\n")
        try assertTsharkCase([opened, other, inner, other, closed], ["/message<id=z3>/subject#"], expected: "hi\n")
        // Chunks over lines whose last line is whole elements, but not the
        // chunk: the one that opens the stanza, the one that closes it.
        let lines = Self.tsharkChunk(node1: true, "<message to='x' type='chat' id='z4'>\n<body>hi</body>")
        let closedLines = Self.tsharkChunk(node1: true, "</message>\n<presence/>")
        try assertTsharkCase([lines, other, inner, other, closedLines], ["-c", "/message/subject<xml:lang=qqzz>#"], expected: "1\n")
    }

    /// The session of each stream followed (its `Filter:` line), which the
    /// windows after it are read with, though no window holds its records.
    func testTsharkFilterLinesBetweenWindows() throws {
        let error = Self.tsharkChunk(node1: true, "<iq type='error' id='e1'/>")
        let scratch = try ScratchDirectory()
        let text = Self.tsharkFollow(stream: 4, stanzas: 1200, chunks: [error], at: 600)
            + Self.tsharkFollow(stream: 7, stanzas: 2600)
            + Self.tsharkFollow(stream: 9, stanzas: 1200, chunks: [error], at: 900)
        let path = try scratch.write("follow.txt", text).path
        let arguments = ["--json", "--fields", "line,direction,session", "/iq<type=error>@id", path]
        let all = try Runner.stanzaq(["--read-all", "--threads", "1"] + arguments)
        XCTAssertTrue(all.output.contains("tcp.stream eq 9"), all.output)
        try assertSameAsReadingAll(arguments)
    }
}
