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
