import XCTest
import StanzaQuery

/// stanzaq(1), `--line-number`: the reader tells the line where each stanza
/// starts (its start tag's `<`), whatever comes before it and however the
/// input is cut into reads.
final class StanzaLineTests: XCTestCase {
    /// The `(name, line)` of each stanza, the input fed in reads of `chunk` bytes.
    private func lines(_ xml: String, chunk: Int = 1 << 16, recovery: StanzaReader.Recovery = .skipDamage) throws -> [String] {
        var result: [String] = []
        var reader: StanzaReader!
        reader = StanzaReader(recovery: recovery) { element in
            result.append("\(element.name)@\(reader.stanzaLine)")
            return true
        }
        let bytes = Array(xml.utf8)
        var offset = 0
        while offset < bytes.count {
            try reader.feed(Array(bytes[offset..<min(offset + chunk, bytes.count)]))
            offset += chunk
        }
        try reader.finish()
        reader = nil
        return result
    }

    /// Every way of cutting the input gives the same lines.
    private func assertLines(_ xml: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        for chunk in [1, 2, 3, 7, 64, 1 << 16] {
            XCTAssertEqual(try lines(xml, chunk: chunk), expected, "in reads of \(chunk) bytes", file: file, line: line)
        }
    }

    func testTopLevelElements() throws {
        try assertLines("<a/>\n<b/>\n\n\n<c>\n<d/>\n</c><e/>\n", ["a@1", "b@2", "c@5", "e@7"])
    }

    func testStreamChildrenAfterADeclaration() throws {
        try assertLines("""
            <?xml version='1.0'?>
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>
            <message id='1'>
              <body>x</body>
            </message>
              <iq id='2'/>
            </stream:stream>

            """, ["message@3", "iq@6"])
    }

    func testStartTagOverSeveralLines() throws {
        try assertLines("<a/>\n<message\n  id='1'\n  to='x'>\n<body/></message>\n<iq\n/>", ["a@1", "message@2", "iq@6"])
    }

    func testCommentsAndProcessingInstructionsBefore() throws {
        try assertLines("<a/>\n<!-- one\ntwo -->\n<b\n x='1'/><?pi x?>\n<c/>", ["a@1", "b@4", "c@6"])
        try assertLines("<s:stream xmlns:s='http://etherx.jabber.org/streams' xmlns='jabber:client'>\n<!--\n-->\n<message\n/>\n<?x?><iq/>",
                        ["message@4", "iq@6"])
    }

    func testReconnectsAndLongStreams() throws {
        let header = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'\n  version='1.0'>\n"
        // More stanzas than a parser reads before the reader starts a new one.
        var xml = "<?xml version='1.0'?>\n" + header
        for index in 0..<1500 { xml += index % 2 == 0 ? "<message id='\(index)'/>\n" : "<iq\n id='\(index)'/>\n" }
        xml += header + "<presence/>\n"
        var expected: [String] = []
        var line = 4
        for index in 0..<1500 {
            expected.append((index % 2 == 0 ? "message@" : "iq@") + String(line))
            line += index % 2 == 0 ? 1 : 2
        }
        expected.append("presence@\(line + 2)")
        XCTAssertEqual(try lines(xml), expected)
        XCTAssertEqual(try lines(xml, chunk: 5), expected)
    }

    /// Damage skipped in small reads (`tail -f`) keeps the positions after it right.
    func testDamageAfterDamageInSmallReads() throws {
        let xml = "<a/>\n<b>\n<c x='1' x='2'/></b>\n<d/>\n<e x='1' x='2'/>\n<f/>"
        for chunk in [1, 2, 5, 1 << 16] {
            var damages: [Int] = []
            let reader = StanzaReader(recovery: .skipDamage) { _ in true }
            reader.damageHandler = { damages.append($0.line); return true }
            let bytes = Array(xml.utf8)
            for offset in stride(from: 0, to: bytes.count, by: chunk) {
                try reader.feed(Array(bytes[offset..<min(offset + chunk, bytes.count)]))
            }
            try reader.finish()
            XCTAssertEqual(damages, [3, 5], "in reads of \(chunk) bytes")
        }
    }

    func testAfterDamage() throws {
        try assertLines("<a/>\n<b>\n<c x='1' x='2'/></b>\n<d/>\n<e/>", ["a@1", "d@4", "e@5"])
        try assertLines("<s:stream xmlns:s='http://etherx.jabber.org/streams' xmlns='jabber:client'>\n<message>\n<body>&</body></message>\n\n<iq/>",
                        ["iq@5"])
    }
}
