import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs
import StanzaqTestSupport

/// Records of whole stanzas kept and read together (``WholeRecordBatch``) give
/// exactly what reading each record by its channel as it comes gives: the same
/// stanzas with the same fields and lines, the same damage at the same places,
/// and the same line being read while each is handed on.
final class KeptRecordTests: XCTestCase {
    private static let prefix = "Nov 23 09:30:12 c2s55e8a7f1c3a0\tdebug\t"
    private static let other = "Nov 23 09:30:13 c2s7f3b2c0d9e11\tdebug\t"

    /// Everything a reader reports, in order, each with the line being read then.
    private func trace(_ log: String, keeping: Bool, chunks: [Int]) -> [String] {
        var events: [String] = []
        var reader: LogReader!
        // (The handlers read `reader`: the cycle is broken at the end.)
        defer { reader = nil }
        reader = LogReader(format: .prosody, handler: { stanza, source in
            events.append("stanza \(source.line) \(source.direction?.rawValue ?? "-") \(source.session ?? "-") "
                          + "\(source.time ?? "-") while \(reader.currentLine): \(stanza.xmlString())")
            return true
        }, damage: { damage in
            events.append("damage \(damage.line):\(damage.column) while \(reader.currentLine): \(damage.message)")
        })
        reader.keepsRecords = keeping
        let bytes = Array(log.utf8)
        var start = 0, index = 0
        while start < bytes.count {
            let size = chunks.isEmpty ? bytes.count : max(1, chunks[index % chunks.count])
            reader.feed(Array(bytes[start..<min(bytes.count, start + size)]))
            start += size
            index += 1
        }
        reader.finish()
        return events
    }

    /// Asserts that kept records give what records read as they come give, and returns it.
    @discardableResult
    private func assertSame(_ log: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let expected = trace(log, keeping: false, chunks: [])
        for chunks in [[], [1], [7, 3, 64], [4096]] {
            XCTAssertEqual(trace(log, keeping: true, chunks: chunks), expected, "chunks \(chunks)\n\(log)", file: file, line: line)
        }
        return expected
    }

    func testRecordsOfSeveralLines() {
        let p = Self.prefix, o = Self.other
        // Two stanzas over three lines, the second starting on the second line: it
        // has that line, and is handed on while the line where it ends is read.
        XCTAssertEqual(assertSame("""
            \(p)RECV: <message id='a'><body>one
            \ttwo
            \tthree</body></message>
            \(p)RECV: <message id='b'><body>x
            \t</body></message><message id='c'><body>y
            \t</body></message>
            \(o)SEND: <presence id='d'/>
            \t<presence id='e'/>
            \(o)SEND: <presence id='f'/>

            """), [
            "stanza 1 in c2s55e8a7f1c3a0 Nov 23 09:30:12 while 3: <message xmlns='jabber:client' id='a'><body>one\ntwo\nthree</body></message>",
            "stanza 4 in c2s55e8a7f1c3a0 Nov 23 09:30:12 while 5: <message xmlns='jabber:client' id='b'><body>x\n</body></message>",
            "stanza 5 in c2s55e8a7f1c3a0 Nov 23 09:30:12 while 6: <message xmlns='jabber:client' id='c'><body>y\n</body></message>",
            "stanza 7 out c2s7f3b2c0d9e11 Nov 23 09:30:13 while 7: <presence xmlns='jabber:client' id='d'/>",
            "stanza 8 out c2s7f3b2c0d9e11 Nov 23 09:30:13 while 8: <presence xmlns='jabber:client' id='e'/>",
            "stanza 9 out c2s7f3b2c0d9e11 Nov 23 09:30:13 while 9: <presence xmlns='jabber:client' id='f'/>",
        ])
        // Text before a stanza on a later line; a start tag across a line break.
        assertSame("""
            \(p)RECV: <iq id='f' type='get'/>
            \tjunk <iq id='g' type='get'/>
            \(p)RECV: <presence id='i'/> junk
            \t<presence id='j'/>
            \(p)RECV: <presence id='k'/>

            """)
        assertSame("""
            \(p)RECV: <iq id='f' type='get'/>
            \(p)RECV: <message
            \tid='h'><body>z</body></message>
            \(o)SEND: <presence id='i'/>

            """)
    }

    func testDamageOnALaterLine() {
        let p = Self.prefix
        assertSame("""
            \(p)RECV: <message id='a'><body>one
            \ttwo</bdy></message><message id='b'/>
            \t<message id='c'/>
            \(p)RECV: <message id='d'><body>one &amp
            \ttwo</body></message>
            \(p)RECV: <message id='e'><body>cut
            \(p)RECV: <message id='f'/>
            \(p)RECV: <message id='g'><body>still open
            \tat the end
            """)
    }

    func testStreamsStartingAndEndingOnALaterLine() {
        let p = Self.prefix
        assertSame("""
            \(p)RECV: <message id='a'/>
            \t</stream:stream>
            \(p)RECV: <presence id='b'/>
            \t<stream:stream xmlns='jabber:server' xmlns:stream='http://etherx.jabber.org/streams'><message id='c'/>
            \(p)RECV: <message id='d'><body>x
            \t</body></message>
            """)
        // A stream header after text on a later line starts a stream in the channel's
        // reader alone (where the channel does not look for one): a record kept next is
        // read in that stream, whose header may declare another namespace or more
        // prefixes (the log fuzzer's finding, Fuzz/regressions/log).
        let header = "<stream:stream xmlns:stream='http://etherx.jabber.org/streams'"
        XCTAssertEqual(assertSame("""
            \(p)RECV: <message id='a'/>
            \tjunk \(header) xmlns='jabber:server'>
            \(p)RECV: <presence id='b'/>
            \tjunk \(header) xmlns='jabber:client' xmlns:x='urn:x'>
            \(p)RECV: <x:presence id='c'/>

            """), [
            "stanza 1 in c2s55e8a7f1c3a0 Nov 23 09:30:12 while 1: <message xmlns='jabber:client' id='a'/>",
            "stanza 3 in c2s55e8a7f1c3a0 Nov 23 09:30:12 while 3: <presence xmlns='jabber:server' id='b'/>",
            "stanza 5 in c2s55e8a7f1c3a0 Nov 23 09:30:12 while 5: <x:presence xmlns:x='urn:x' id='c'/>",
        ])
    }

    /// Logs made at random of such lines, fed in pieces of random sizes.
    func testRandomLogs() {
        let p = Self.prefix, o = Self.other
        let lines = [
            "\(p)RECV: <message id='m'><body>one", "\ttwo</body></message>", "\t<presence id='p'/>",
            "\(o)SEND: <iq id='i' type='result'/>", "\(p)Received[c2s]: <message id='m'>",
            "\(o)Sending[c2s]: <iq id='i' type='result'>", "\tthree", "\t</body></message><message id='n'><body>",
            "\(p)Client sent opening <stream:stream> to example.com", "\t<message", "\tid='q'/>",
            "\(o)SEND: <message id='o'><body>a &amp; b", "\t&lt;</body></message>", "\t</bdy>", "\t",
            "\(p)RECV: <presence id='r'/>", "\tjunk", "\t</stream:stream>",
            "\tjunk <stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:server'>",
        ]
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<300 {
            let count = Int(generator.next() % 24) + 1
            let log = (0..<count).map { _ in lines[Int(generator.next() % UInt64(lines.count))] }.joined(separator: "\n") + "\n"
            let expected = trace(log, keeping: false, chunks: [])
            let chunks = (0..<5).map { _ in Int(generator.next() % 200) + 1 }
            XCTAssertEqual(trace(log, keeping: true, chunks: chunks), expected, "chunks \(chunks)\n\(log)")
        }
    }
}
