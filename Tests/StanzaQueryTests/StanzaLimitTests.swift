import XCTest
import StanzaQuery

/// stanzaq's own limits on one stanza (stanzaq(1), Resource limits): attributes
/// per element, and elements, attributes and bytes per stanza. Each is damage:
/// one line with the place, the stanza skipped, the rest of the input read, and
/// the same answer whatever the read boundaries.
final class StanzaLimitTests: XCTestCase {
    /// Reads `xml` in reads of `chunk` bytes; the ids of the stanzas read, and the damages.
    private func read(_ xml: String, chunk: Int = 1 << 16, depthLimit: Int? = nil) throws -> (ids: [String], damages: [String]) {
        var ids: [String] = []
        var damages: [String] = []
        let reader = StanzaReader(recovery: .skipDamage) { ids.append($0.attribute("id") ?? "?"); return true }
        reader.damageHandler = { damages.append($0.description); return true }
        reader.depthLimit = depthLimit
        let bytes = Array(xml.utf8)
        try reader.feed(bytes, inChunksOf: chunk)
        try reader.finish()
        return (ids, damages)
    }

    /// `<m id='2' a1='' a2='' …>` with `count` attributes and declarations in all.
    private func tag(attributes: Int, declarations: Int = 0) -> String {
        "<m id='2'" + (1..<max(1, attributes)).map { " a\($0)=''" }.joined()
            + (0..<declarations).map { " xmlns:p\($0)='urn:\($0)'" }.joined()
    }

    func testAnElementMayHave1024AttributesAndDeclarations() throws {
        XCTAssertEqual(StanzaReader.maximumAttributesPerElement, 1024)
        for (attributes, declarations) in [(1024, 0), (24, 1000), (1, 1023)] {
            let xml = "<m id='1'/>\n" + tag(attributes: attributes, declarations: declarations) + "/>\n<m id='3'/>"
            let result = try read(xml)
            XCTAssertEqual(result.ids, ["1", "2", "3"])
            XCTAssertEqual(result.damages, [])
        }
    }

    func testAnElementWithMoreIsDamageWhateverTheReads() throws {
        let message = "2:1: <m> has more than 1024 attributes and namespace declarations (stanzaq's limit)"
        for (attributes, declarations) in [(1025, 0), (25, 1000), (300_000, 0), (1, 200_000)] {
            let xml = "<m id='1'/>\n" + tag(attributes: attributes, declarations: declarations) + "/>\n<m id='3'/>"
            for chunk in [1 << 16, 4096, 1000, 7] where chunk >= 1000 || xml.utf8.count < 100_000 {
                let result = try read(xml, chunk: chunk)
                XCTAssertEqual(result.ids, ["1", "3"], "\(attributes)+\(declarations) in reads of \(chunk)")
                XCTAssertEqual(result.damages, [message], "\(attributes)+\(declarations) in reads of \(chunk)")
            }
        }
        // Below a stanza's root, in a stream (which goes on after it), whatever the query builds.
        let stream = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
        let xml = stream + "<message id='1'/>\n<message id='2'>\n  <x" + (0..<1025).map { " a\($0)=''" }.joined()
            + "/>\n</message>\n<message id='3'/>\n"
        for depthLimit in [nil, 0] {
            let result = try read(xml, depthLimit: depthLimit)
            XCTAssertEqual(result.ids, ["1", "3"])
            XCTAssertEqual(result.damages, ["4:3: <x> has more than 1024 attributes and namespace declarations (stanzaq's limit)"])
        }
        // The first failure of a reader that does not recover.
        XCTAssertThrowsError(try StanzaReader.stanzas(in: tag(attributes: 2000) + "/>")) {
            XCTAssertEqual("\($0)", "1:1: <m> has more than 1024 attributes and namespace declarations (stanzaq's limit)")
        }
    }

    /// Found by the reader fuzzer: the message of a stanza cut off named the
    /// innermost element built, so it changed with what the query builds.
    func testACutOffStanzaIsNamedTheSameWhateverIsBuilt() throws {
        for depthLimit in [nil, 0, 1] {
            XCTAssertEqual(try read("<m a='1'><b><c>cut", depthLimit: depthLimit).damages,
                           ["1:1: <m> is not closed (the input ends at 1:19, inside <c>)"], "depth limit \(String(describing: depthLimit))")
        }
    }

    func testAStanzaMayHave500000Elements() throws {
        XCTAssertEqual(StanzaReader.maximumStanzaElements, 500_000)
        let body = String(repeating: "<b/>", count: 499_999)
        let result = try read("<m id='1'/>\n<m id='2'>" + body + "</m>\n<m id='3'/>", depthLimit: 0)
        XCTAssertEqual(result.ids, ["1", "2", "3"])
        XCTAssertEqual(result.damages, [])
        // One more, at any depth, built or not: the stanza is skipped.
        for depthLimit in [nil, 0] {
            let over = try read("<m id='1'/>\n<m id='2'><c>" + body + "</c></m>\n<m id='3'/>", chunk: 10_000, depthLimit: depthLimit)
            XCTAssertEqual(over.ids, ["1", "3"])
            XCTAssertEqual(over.damages, ["2:1: <m> has more than 500000 elements (stanzaq's limit)"])
        }
    }

    func testAStanzaMayHave500000Attributes() throws {
        XCTAssertEqual(StanzaReader.maximumStanzaAttributes, 500_000)
        let element = "<b a='' c='' d='' e='' f=''/>"   // 5 a piece
        let full = "<m id='1'/>\n<m id='2'>" + String(repeating: element, count: 99_999) + "<b a='' c='' d='' e=''/></m>\n<m id='3'/>"
        XCTAssertEqual(try read(full, depthLimit: 0).ids, ["1", "2", "3"])
        let over = try read("<m id='1'/>\n<m id='2' xmlns:p='urn:p'>" + String(repeating: element, count: 100_000) + "</m>\n<m id='3'/>")
        XCTAssertEqual(over.ids, ["1", "3"])
        XCTAssertEqual(over.damages, ["2:1: <m> has more than 500000 attributes and namespace declarations (stanzaq's limit)"])
    }

    func testAStanzaMayBe20000000BytesLong() throws {
        XCTAssertEqual(StanzaReader.maximumStanzaBytes, 20_000_000)
        // Two text nodes of 10,000,000 bytes (libxml2's limit for one) and their tags.
        let text = String(repeating: "x", count: 9_999_986)
        let exactly = "<m id='2'><b>" + text + "</b><b>" + text + "</b></m>"   // 20,000,000 bytes
        XCTAssertEqual(exactly.utf8.count, 20_000_000)
        for chunk in [1 << 16, 4093] {
            let result = try read("<m id='1'/>\n  " + exactly + "\n<m id='3'/>", chunk: chunk, depthLimit: 0)
            XCTAssertEqual(result.ids, ["1", "2", "3"])
            XCTAssertEqual(result.damages, [])
            let over = try read("<m id='1'/>\n  " + exactly.replacingOccurrences(of: "<m id='2'>", with: "<m id='2' >") + "\n<m id='3'/>",
                                chunk: chunk, depthLimit: 0)
            XCTAssertEqual(over.ids, ["1", "3"])
            XCTAssertEqual(over.damages, ["2:3: <m> is longer than 20000000 bytes (stanzaq's limit)"])
        }
    }
}
