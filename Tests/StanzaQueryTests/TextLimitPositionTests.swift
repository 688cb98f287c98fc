import StanzaXML
import XCTest

/// Where the message on a text node longer than libxml2's limit points: the
/// first byte past the limit, counted from where the text starts, however the
/// input is fed. (It was libxml2's position when its pieces of text passed the
/// limit, which moved with the reads: a file gave 1:10002433, a pipe 1:10001883,
/// 1:10003125, 1:10003982 …)
final class TextLimitPositionTests: XCTestCase {
    /// `<a>`, 10,500,000 bytes of text, `</a>`, then a stanza that is read.
    private let input: [UInt8] = Array(("<a>" + String(repeating: "x", count: 10_500_000) + "</a>\n<b/>\n").utf8)

    private func read(inPiecesOf sizes: [Int]) throws -> (stanzas: [String], damages: [String]) {
        var stanzas: [String] = [], damages: [String] = []
        let reader = StanzaReader(recovery: .skipDamage) { stanzas.append($0.name); return true }
        reader.damageHandler = { damages.append("\($0.line):\($0.column): \($0.message)"); return true }
        var offset = 0, turn = 0
        while offset < input.count {
            let size = sizes[turn % sizes.count]
            try input[offset..<min(offset + size, input.count)].withUnsafeBytes { try reader.feed($0) }
            offset += size
            turn += 1
        }
        try reader.finish()
        return (stanzas, damages)
    }

    func testTheSamePositionWhateverThePieces() throws {
        let expected = ["1:10000004: text longer than 10000000 bytes (libxml2's limit)"]
        for sizes in [[1 << 30], [65_536], [4_093, 100_003], [1, 7, 300, 1_000_001], [999_983]] {
            let result = try read(inPiecesOf: sizes)
            XCTAssertEqual(result.damages, expected, "pieces of \(sizes)")
            XCTAssertEqual(result.stanzas, ["b"], "pieces of \(sizes)")
        }
    }

    /// After an end tag, the text starts right after its `>`.
    func testTextAfterAnEndTag() throws {
        let xml = "<a><b/>" + String(repeating: "y", count: 10_000_001) + "</a>"
        var damages: [String] = []
        let reader = StanzaReader(recovery: .skipDamage) { _ in true }
        reader.damageHandler = { damages.append("\($0.line):\($0.column): \($0.message)"); return true }
        try reader.feed(Array(xml.utf8))
        try reader.finish()
        XCTAssertEqual(damages, ["1:10000008: text longer than 10000000 bytes (libxml2's limit)"])
    }
}
