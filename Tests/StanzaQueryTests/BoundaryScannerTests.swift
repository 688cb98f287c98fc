import CByteSearch
import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs
import StanzaqTestSupport

/// The stanza boundary scanner (which cuts large inputs into parts read in
/// parallel) and the byte searches it is built on.
final class BoundaryScannerTests: XCTestCase {

    /// Every search of CByteSearch.h gives the offset a byte-by-byte search
    /// gives (and its count the count a loop gives), from every start, for lengths around the sixteen-byte blocks and
    /// the 64 bytes looked at before memchr takes over.
    func testByteSearchesFindWhatALoopFinds() {
        // A fixed, varied text: the wanted bytes at irregular distances, and
        // a run of 120 bytes without any of them (where memchr takes over).
        let alphabet = Array("xxxxxxxxxxxxa <>\"'".utf8)
        var state: UInt32 = 12345
        let bytes: [UInt8] = (0..<600).map { index in
            state = state &* 1_103_515_245 &+ 12345
            return (300..<420).contains(index) ? UInt8(ascii: "b") : alphabet[Int(state >> 16) % alphabet.count]
        }
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            for end in [0, 1, 15, 16, 17, 63, 64, 65, 80, 200, 600] {
                for from in 0...end {
                    let any = stanzaq_find_any4(base, from, end, 0x3E, 0x22, 0x27, 0x3C)
                    let expectedAny = (from..<end).first { [0x3E, 0x22, 0x27, 0x3C].contains(buffer[$0]) } ?? end
                    XCTAssertEqual(any, expectedAny, "any of <>\"' from \(from) to \(end)")
                    if from == 0 {
                        XCTAssertEqual(stanzaq_count_byte(base, end, 0x3C), buffer[..<end].filter { $0 == 0x3C }.count, "< in \(end)")
                    }
                    for byte: UInt8 in [0x3C, 0x27, 0x61, 0x62] {
                        let found = stanzaq_find_byte(base, from, end, byte)
                        let expected = (from..<end).first { buffer[$0] == byte } ?? end
                        XCTAssertEqual(found, expected, "\(byte) from \(from) to \(end)")
                    }
                }
            }
        }
    }

    /// The count past 127 steps of two blocks, where the lanes it sums in are emptied.
    func testTheByteCountOfALongRunOfMatches() {
        let lines = [UInt8](repeating: 0x0A, count: 5_000) + Array("x\n".utf8)
        XCTAssertEqual(lines.withUnsafeBufferPointer { stanzaq_count_byte($0.baseAddress!, $0.count, 0x0A) }, 5_001)
        // From every alignment, up to a few bytes short (AVX2's steps of 64 where the processor has it).
        for start in 0..<33 {
            for cut in 0..<3 {
                lines.withUnsafeBufferPointer { all in
                    let count = all.count - start - cut
                    XCTAssertEqual(stanzaq_count_byte(all.baseAddress! + start, count, 0x0A), 5_001 - start - (cut == 0 ? 0 : 1),
                                   "from \(start), \(count) bytes")
                }
            }
        }
    }

    /// The count against a loop, over seeded random bytes, around the lengths where it changes width.
    func testTheByteCountAgainstALoop() {
        var generator = SeededGenerator(seed: 30)
        let bytes: [UInt8] = (0..<4_000).map { _ in UInt8.random(in: 0...3, using: &generator) == 0 ? 0x0A : 0x61 }
        bytes.withUnsafeBufferPointer { all in
            for (start, count) in [(0, 0), (1, 255), (3, 256), (5, 257), (7, 1_000), (31, 3_969), (0, 4_000)] {
                XCTAssertEqual(stanzaq_count_byte(all.baseAddress! + start, count, 0x0A),
                               all[start..<(start + count)].filter { $0 == 0x0A }.count, "from \(start), \(count) bytes")
            }
        }
    }

    /// The places the scanner finds in `text`, asking each time for one past the last.
    private func boundaries(_ text: String) -> [StanzaBoundaryScanner.Result] {
        let bytes = Array(text.utf8)
        var scanner = StanzaBoundaryScanner(position: 0)
        var results: [StanzaBoundaryScanner.Result] = []
        var target = 1
        while true {
            let result = bytes.withUnsafeBufferPointer { scanner.scan($0, target: target) }
            results.append(result)
            guard case .boundary(let offset, _) = result else { return results }
            target = offset + 1
        }
    }

    /// Quoted `>` and `'`, a comment, a CDATA section and a processing
    /// instruction holding tags do not move the depth; a stanza that ends
    /// mid-line is cut at the end of its line.
    func testTheScannerCutsAtTheLinesWhereStanzasEnd() {
        let first = "<message a='x>y' b=\"it's\"><body>1 &lt; 2</body><!-- <a> --></message>\n"
        let second = "<iq><![CDATA[</iq>]]><?pi <x>?></iq> <presence/>\n"
        let third = "<presence>\n<show/>\n</presence>\n"
        XCTAssertEqual(boundaries(first + second + third + "<message>"), [
            .boundary(offset: first.utf8.count, stanzas: 1),
            .boundary(offset: first.utf8.count + second.utf8.count, stanzas: 3),
            .boundary(offset: first.utf8.count + second.utf8.count + third.utf8.count, stanzas: 4),
            .needMore,
        ])
    }

    /// What the scanner cannot follow makes it give up: the stream's end, a
    /// new stream, an XML declaration, a DTD, a `<` inside a tag.
    func testTheScannerGivesUpOnWhatItCannotFollow() {
        let stanza = "<message/>\n"
        for text in ["</stream:stream>", "<stream:stream xmlns:stream='http://etherx.jabber.org/streams'>",
                     "<?xml version='1.0'?>", "<!DOCTYPE x>", "<message a='1' <b/>"] {
            XCTAssertEqual(boundaries(stanza + text), [.boundary(offset: stanza.utf8.count, stanzas: 1), .unsure], text)
        }
    }

    /// A BOSH body or a WebSocket `<open/>` or `<close/>` where a stanza could
    /// start is a frame (its namespace declared on it), whose children the
    /// reader reads as the stanzas: they are counted, not the frame, and no
    /// cut falls inside it.
    func testTheScannerCountsTheStanzasOfAFrame() {
        let stanza = "<message/>\n"
        let s = stanza.utf8.count
        for (frame, children) in [("<body xmlns='http://jabber.org/protocol/httpbind'><message/></body>\n", 1),
                                  ("<bosh:body xmlns:bosh='http://jabber.org/protocol/httpbind'/>\n", 0),
                                  ("<body xmlns='http://jabber.org/protocol/httpbind'>\n<message/>\n<iq>\n<body/>\n</iq>\n</body>\n", 2),
                                  ("<open xmlns='urn:ietf:params:xml:ns:xmpp-framing'/>\n", 0),
                                  ("<close xmlns='urn:ietf:params:xml:ns:xmpp-framing'/>\n", 0),
                                  // Not a frame: a body of a message's, an IBB close.
                                  ("<body>hi</body>\n", 1), ("<close xmlns='http://jabber.org/protocol/ibb' sid='s'/>\n", 1)] {
            let f = frame.utf8.count
            XCTAssertEqual(boundaries(stanza + frame + stanza), [.boundary(offset: s, stanzas: 1),
                                                                 .boundary(offset: s + f, stanzas: 1 + children),
                                                                 .boundary(offset: s + f + s, stanzas: 2 + children), .needMore], frame)
        }
        // A body inside a body is a stanza; a new stream inside one is not followed.
        let nested = "<body xmlns='http://jabber.org/protocol/httpbind'><body/><body><x/></body></body>\n"
        XCTAssertEqual(boundaries(nested), [.boundary(offset: nested.utf8.count, stanzas: 2), .needMore])
        XCTAssertEqual(boundaries(stanza + "<body xmlns='http://jabber.org/protocol/httpbind'>\n<stream:stream>"),
                       [.boundary(offset: s, stanzas: 1), .unsure])
    }
}
