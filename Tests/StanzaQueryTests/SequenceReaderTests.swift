import XCTest
import StanzaQuery

/// A top-level sequence of elements is read with one parser for many of them
/// (StanzaReader+Sequence.swift): what it gives — stanzas, their lines, damage,
/// its messages and places — is what a parser for each element gave, however
/// the input is fed.
final class SequenceReaderTests: XCTestCase {
    /// Each stanza (name, id, how many attributes) and each damage as described, reading `text` fed `chunk` bytes at a time.
    func read(_ text: String, chunk: Int, attributes: Bool = true) throws -> (stanzas: [String], damages: [String]) {
        var stanzas: [String] = []
        var damages: [String] = []
        let reader = StanzaReader(recovery: .skipDamage) { element in
            stanzas.append("\(element.name) \(element.attribute("id") ?? "-") \(element.attributes.count)")
            return true
        }
        reader.buildsAttributes = attributes
        reader.damageHandler = { damages.append($0.description); return true }
        let bytes = Array(text.utf8)
        try reader.feed(bytes, inChunksOf: chunk)
        try reader.finish()
        return (stanzas, damages)
    }

    /// More elements than one parser reads before another takes over, damage
    /// after them, and a stanza cut off at the end: the places are the input's.
    func testLongSequenceWithDamage() throws {
        var lines = (0..<1500).map { "<message id='\($0)'><body>b</body></message>" }
        lines += ["<message><body></message>", "<presence id='x'/>", "<message id='a'\n  <x/>", "<iq id='after'/>",
                  "<message id='last'><body>cut"]
        let text = lines.joined(separator: "\n")
        let expectedDamages = [
            "1501:26: Opening and ending tag mismatch: body line 1501 and message",
            "1504:3: error parsing attribute name",
            "1506:1: <message> is not closed (the input ends at 1506:29, inside <body>)",
        ]
        for chunk in [1, 7, 100, 4096, 1 << 20] {
            let (stanzas, damages) = try read(text, chunk: chunk)
            XCTAssertEqual(stanzas.count, 1503, "chunk \(chunk)")   // <x/> after the damaged start tag is one
            XCTAssertEqual(stanzas.last, "iq after 1", "chunk \(chunk)")
            XCTAssertEqual(damages.count, 3, "chunk \(chunk): \(damages)")
            for (damage, expected) in zip(damages, expectedDamages) {
                XCTAssertTrue(damage.contains(expected), "chunk \(chunk): \(damage)")
            }
        }
    }

    /// The depth limit counts from the element, not from the reader's own start tag.
    func testDepthLimitInASequence() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        }
        let text = "<x id='1'/>\n" + nested(256) + "\n" + nested(257) + "\n<x id='2'/>\n"
        let (stanzas, damages) = try read(text, chunk: 1 << 20)
        XCTAssertEqual(stanzas, ["x 1 1", "a - 0", "x 2 1"])
        XCTAssertEqual(damages.count, 1)
        XCTAssertTrue(damages.first?.contains("elements nested deeper than 256 levels") ?? false, "\(damages)")
    }

    /// Without attributes built, the same stanzas and the same damage.
    func testWithoutAttributes() throws {
        let text = "<message id='1' a='x'/>\n<message id='2' a='1' a='2'/>\n<iq id='3'/>\n"
        let (stanzas, damages) = try read(text, chunk: 5, attributes: false)
        XCTAssertEqual(stanzas, ["message - 0", "iq - 0"])
        XCTAssertEqual(damages.count, 1)
        XCTAssertTrue(damages.first?.contains("Attribute a redefined") ?? false, "\(damages)")
    }

    /// A reader taking up a sequence after one of its elements: the input's lines,
    /// and whether it ended cleanly after an element.
    func testContinuingASequence() throws {
        var lines: [Int] = []
        var reader: StanzaReader?
        reader = StanzaReader(continuingSequenceAt: 10, recovery: .skipDamage) { _ in lines.append(reader!.stanzaLine); return true }
        try reader!.feed(Array("<a/>\n<b>\n</b>\n<c/>\n".utf8))
        XCTAssertEqual(lines, [10, 11, 13])
        XCTAssertTrue(reader!.isAfterSequenceElement)
        try reader!.feed(Array("<d>".utf8))
        XCTAssertFalse(reader!.isAfterSequenceElement)
    }
}
