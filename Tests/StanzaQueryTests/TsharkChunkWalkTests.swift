import Foundation
import StanzaqTestSupport
import XCTest
@testable import StanzaLogs

/// tshark's follow output walked from chunk length to chunk length
/// (``TsharkChunkWalk``) for a search that skips records (stanzaq(1),
/// "Skipping what cannot match"): the lines it marks to read are those a
/// check of each line from the last length of node 1 before it marks
/// (``mustRead(_:)``, the rule the walk stands for), on tshark's own output
/// and wherever its bytes are cut; on damaged output, those and maybe more.
final class TsharkChunkWalkTests: XCTestCase {
    /// Whether the line that ends at the line feed at `end` is read: the last
    /// line of a chunk that is not whole stanzas, and every line whose chunk
    /// cannot be told, counted from the last length of node 1 (a line that
    /// starts with a tab) before it.
    static func mustRead(_ bytes: [UInt8], lineEndingAt end: Int) -> Bool {
        let lineStart = (bytes[..<end].lastIndex(of: 0x0A) ?? -1) + 1
        func line(_ range: Range<Int>) -> (length: Int, node1: Bool)? {
            bytes.withUnsafeBufferPointer { TsharkFollowParser.chunkLength(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        func isOwnOrEmpty(_ range: Range<Int>) -> Bool {
            range.isEmpty || bytes.withUnsafeBufferPointer { TsharkFollowParser.isOwnLine(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        if lineStart < end && bytes[lineStart] == 0x09 { return line(lineStart..<end) == nil }
        guard var position = bytes[..<lineStart].lastIndex(of: 0x09), position == 0 || bytes[position - 1] == 0x0A else { return true }
        while position < lineStart {
            guard let lineEnd = bytes[position...].firstIndex(of: 0x0A) else { return true }
            guard let (length, _) = line(position..<lineEnd) else {
                guard isOwnOrEmpty(position..<lineEnd) else { return true }
                position = lineEnd + 1
                continue
            }
            let dataStart = lineEnd + 1, dataEnd = dataStart + length
            if dataEnd > end { return false }
            if dataEnd == end {
                return !bytes.withUnsafeBufferPointer { EjabberdLogParser.isWholeStanzas(UnsafeBufferPointer(rebasing: $0[dataStart..<dataEnd]), escaped: false) }
            }
            position = dataEnd + 1
        }
        return position != lineStart || !(line(lineStart..<end) != nil || isOwnOrEmpty(lineStart..<end))
    }

    /// The line feeds of `bytes` that end a line the rule reads.
    static func linesRead(_ bytes: [UInt8]) -> [Int] {
        bytes.indices.filter { bytes[$0] == 0x0A && mustRead(bytes, lineEndingAt: $0) }
    }

    /// The line feeds the walk marks, handed the bytes `piece` at a time (as
    /// far as a search has read them; more where it needs more).
    static func linesMarked(_ bytes: [UInt8], piece: Int) -> [Int] {
        let walk = TsharkChunkWalk()
        var marked: [Int] = [], position = 0, ahead = piece
        bytes.withUnsafeBufferPointer { all in
            while position < all.count {
                let end = min(position + ahead, all.count)
                let next = walk.walk(UnsafeBufferPointer(rebasing: all[position..<end]), at: position, atEnd: end == all.count) { range in
                    XCTAssertGreaterThanOrEqual(range.lowerBound, marked.last.map { $0 + 1 } ?? 0, "marked in order")
                    marked += range.filter { all[$0] == 0x0A }
                }
                XCTAssertTrue(next > position || end < all.count, "the walk ends at the log's end")
                ahead = next == position ? 2 * ahead : piece
                position = next
            }
        }
        return marked
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: PackagePaths.file("Tests/Fixtures/real-logs/tshark/" + name)))
    }

    /// A chunk as tshark writes it: its length (after a tab for node 1), its data, a line feed.
    static func chunk(node1: Bool, _ data: String) -> String {
        (node1 ? "\t" : "") + String(data.utf8.count) + "\n" + data + "\n"
    }

    /// Output of one stream followed, with `chunks` among whole stanzas each way.
    static func follow(_ chunks: [String]) -> [UInt8] {
        var text = "\n" + String(repeating: "=", count: 67) + "\nFollow: tcp,ascii\nFilter: tcp.stream eq 1\nNode 0: 127.0.0.1:36000\nNode 1: 127.0.0.1:5222\n"
        text += chunk(node1: false, "<?xml version='1.0'?><stream:stream xmlns='jabber:client' to='localhost'>")
        text += chunk(node1: true, "<?xml version='1.0'?><stream:stream xmlns='jabber:client' from='localhost' id='s1'>")
        for index in 0..<3 {
            text += chunk(node1: false, "<message id='m\(index)'><body>hello</body></message>")
            text += chunk(node1: true, "<presence from='a@localhost/r' id='p\(index)'/>")
        }
        text += chunks.joined()
        return Array((text + chunk(node1: false, "</stream:stream>") + String(repeating: "=", count: 67) + "\n").utf8)
    }

    /// Chunks that end inside a stanza, a name, a line; that are several lines; blank.
    static let cases: [[String]] = [
        [chunk(node1: false, "<iq type='get' id='zq"), chunk(node1: true, "<presence/>"), chunk(node1: false, "1'><query/></iq>")],
        [chunk(node1: true, "<message to='x'>\n<body>hi</body>"), chunk(node1: false, "<presence/>"), chunk(node1: true, "</message>\n")],
        [chunk(node1: false, "\r\n"), chunk(node1: false, "<a/><b>"), chunk(node1: false, "</b>\n<c x='>' y=\"/>\"/>")],
        [chunk(node1: true, "<!-- a <comment> --><x/>"), chunk(node1: false, "<![CDATA[<]]>"), chunk(node1: true, "<?pi?><y></y>")],
    ]

    func testWalkMarksWhatTheRuleReads() throws {
        // (And the start of output that is no follow: tshark's -V, every line read.)
        var outputs = [try Self.fixture("prosody-follow.txt"), try Self.fixture("ejabberd-follow.txt"),
                       Array(try Self.fixture("prosody-libstrophe-V.txt").prefix(8000))]
        outputs += Self.cases.map(Self.follow)
        for (index, bytes) in outputs.enumerated() {
            let read = Self.linesRead(bytes)
            for piece in [1, 7, 64, 1000, bytes.count] {
                XCTAssertEqual(Self.linesMarked(bytes, piece: piece), read, "output \(index), pieces of \(piece)")
            }
        }
    }

    /// The lines read in the real output: those before the first length of
    /// node 1 (every chunk of it is whole stanzas).
    func testWalkMarksFewLinesOfRealOutput() throws {
        let bytes = try Self.fixture("prosody-follow.txt")
        let marked = Self.linesMarked(bytes, piece: 4096)
        let lines = bytes.indices.filter { bytes[$0] == 0x0A }
        XCTAssertEqual(lines.count, 500)
        XCTAssertEqual(marked.count, 8)
        XCTAssertEqual(Array(marked.prefix(8)), Array(lines.prefix(8)))
    }

    /// Damaged output (bytes changed, dropped, added, tabs and line feeds
    /// among them): the walk marks every line the rule reads, and more only
    /// where a tab or a chunk's length leaves the line's chunk untold.
    func testWalkMarksAtLeastWhatTheRuleReadsInDamagedOutput() throws {
        let whole = Self.follow(Self.cases.flatMap { $0 })
        var random = SeededGenerator(seed: 30)
        var more = 0
        for round in 0..<400 {
            var bytes = whole
            for _ in 0..<(1 + round % 4) {
                let at = Int(random.next() % UInt64(bytes.count))
                let byte: UInt8 = [0x09, 0x0A, 0x31, 0x3C, 0x3E, 0x78][Int(random.next() % 6)]
                switch random.next() % 3 {
                case 0: bytes[at] = byte
                case 1: bytes.remove(at: at)
                default: bytes.insert(byte, at: at)
                }
            }
            let read = Set(Self.linesRead(bytes))
            let marked = Set(Self.linesMarked(bytes, piece: 1 + round % 97))
            XCTAssertTrue(read.isSubset(of: marked), "round \(round): \(read.subtracting(marked).sorted()) not marked")
            if marked != read { more += 1 }
        }
        // (More where the damage left a tab in a chunk's data, or a chunk ending inside a line.)
        XCTAssertEqual(more, 146)
    }

    /// Whole stanzas, as far as their tags tell, and not.
    func testWholeStanzas() {
        let whole = ["", " \r\n", "<a/>", "<a x='>' y=\"/>\"></a>", "<?xml version='1.0'?><stream:stream xmlns='x'>",
                     "</stream:stream>", "<a><!-- <b> --></a>", "<a><![CDATA[</a>]]></a> ", "<a>text</a>\n<b/>",
                     String(repeating: "<message id='m'><body>hello</body></message>", count: 5)]
        let not = ["<a>", "<a></a>text", "</a>", "<a x='>'", "<a/><b", "text", "<a><!-- </a>", "< a/>", "<a></a></b>",
                   "<!DOCTYPE a><a/>", "<a>" + String(repeating: "<b/>", count: 40), "<stream:stream><a>"]
        for (text, expected) in whole.map({ ($0, true) }) + not.map({ ($0, false) }) {
            let bytes = Array(text.utf8)
            XCTAssertEqual(bytes.withUnsafeBufferPointer { EjabberdLogParser.isWholeStanzas($0, escaped: false) }, expected, text)
        }
        let escaped = Array("<a/>\\n\\t<b/>\\r".utf8)
        XCTAssertTrue(escaped.withUnsafeBufferPointer { EjabberdLogParser.isWholeStanzas($0, escaped: true) })
        XCTAssertFalse(escaped.withUnsafeBufferPointer { EjabberdLogParser.isWholeStanzas($0, escaped: false) })
    }
}
