import XCTest
import Foundation
import StanzaQuery

/// The reader builds only as deep as the queries reach, and the results do not change.
final class DepthLimitTests: XCTestCase {
    func testReachOfQueries() throws {
        XCTAssertEqual(try Query("body#").reach, 1)
        XCTAssertEqual(try Query("/@id").reach, 0)
        XCTAssertEqual(try Query("@id").reach, 0)
        XCTAssertEqual(try Query("/{jabber:client}message/body#").reach, 1)
        XCTAssertEqual(try Query("{urn:xmpp:mam:2}result/{urn:xmpp:forward:0}forwarded/{urn:xmpp:delay}delay@stamp|datetime").reach, 3)
        XCTAssertEqual(try Query("a/b/../c$").reach, 2)
        XCTAssertEqual(try Query("{http://jabber.org/protocol/disco#info}query/\\@max-file-size\\").reach, 6)
        XCTAssertNil(try Query("body").reach, "element results print their whole subtree")
        XCTAssertNil(try Query("").reach)
    }

    /// To decide whether there is a result (counting, testing), an element the
    /// query gives needs only to be there: `-c '/'` needs the root alone.
    func testReachToDecide() throws {
        XCTAssertEqual(try Query("").reachToDecide, 0)
        XCTAssertEqual(try Query("/").reachToDecide, 0)
        XCTAssertEqual(try Query("body").reachToDecide, 1)
        XCTAssertEqual(try Query("a/b/../c").reachToDecide, 2)
        XCTAssertEqual(try Query("body#").reachToDecide, 1)
        XCTAssertEqual(try Query("{http://jabber.org/protocol/disco#info}query/\\@max-file-size\\").reachToDecide, 6)
        XCTAssertNil(try Query("**/body").reachToDecide)
        // The same answers with the stanza built only that deep.
        let xml = "<m><a x='1'>t<b><c/></b>u</a><d/></m>"
        for text in ["", "/", "a", "a/b", "a/b/c", "a/b/..", "d/c", "a<x=1>/b"] {
            let query = try Query(text)
            var stanzas: [Element] = []
            let reader = StanzaReader { stanzas.append($0); return true }
            reader.depthLimit = query.reachToDecide
            try reader.feed(Array(xml.utf8))
            try reader.finish()
            XCTAssertEqual(try query.check(in: stanzas[0]), try query.check(in: stanza(xml)), text)
        }
    }

    func testUnreachedElementsAreNotBuilt() throws {
        var stanzas: [Element] = []
        let reader = StanzaReader { stanzas.append($0); return true }
        reader.depthLimit = 1
        try reader.feed(Array("<m><a x='1'>t<b><c/></b>u</a><d/></m>".utf8))
        try reader.finish()
        XCTAssertEqual(stanzas.map { $0.xmlString() }, ["<m><a x='1'>tu</a><d/></m>"])
    }

    func testResultsOverTheCorpusAreTheSameWithTheLimit() throws {
        try ReaderTests.requireCorpus()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ReaderTests.corpusPath)))
        let queries = [
            "body#", "/@id", "{jabber:iq:roster}query/item@jid", "*/*/*$", "{*}*/{*}*/..$",
            "{http://jabber.org/protocol/disco#info}query/\\@muc#roominfo_occupants\\",
            "{http://jabber.org/protocol/pubsub}pubsub/items/item/{*}*/@@",
            "/<type=result>/{*}query/{*}*<var~^muc#>@var", "{urn:xmpp:delay}delay@stamp|datetime",
        ].map { try! Query($0) }
        func results(limit: Int?) throws -> [String] {
            var out: [String] = []
            let reader = StanzaReader(defaultNamespace: nil) { stanza in
                for query in queries {
                    out += ((try? query.find(in: stanza)) ?? []).map(\.json)
                }
                return true
            }
            reader.depthLimit = limit
            try reader.feed(bytes)
            try reader.finish()
            return out
        }
        let limit = queries.compactMap(\.reach).max()!
        let whole = try results(limit: nil)
        XCTAssertGreaterThan(whole.count, 3000)
        XCTAssertEqual(try results(limit: limit), whole)
    }
}
