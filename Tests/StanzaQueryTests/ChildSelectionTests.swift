import XCTest
import Foundation
import StanzaQuery

/// The reader builds only the children of a stanza's root that the queries'
/// paths can select, and the results do not change.
final class ChildSelectionTests: XCTestCase {
    private func read(_ xml: String, selection: ChildSelection?, depth: Int? = nil) throws -> [Element] {
        var stanzas: [Element] = []
        let reader = StanzaReader { stanzas.append($0); return true }
        reader.childSelection = selection
        reader.depthLimit = depth
        try reader.feed(Array(xml.utf8))
        try reader.finish()
        return stanzas
    }

    func testOnlySelectedChildrenAreBuilt() throws {
        let xml = "<m xmlns='jabber:client'>s<a x='1'>t<body/></a>u<body>hi<b/></body><body xmlns='other'/><d/>v</m>"
        let selection = try XCTUnwrap(ChildSelection(queries: [Query("body#")], deciding: false))
        XCTAssertEqual(try read(xml, selection: selection).map { $0.xmlString() },
                       ["<m xmlns='jabber:client'>su<body>hi<b/></body>v</m>"], "a segment without {ns} is in the root's namespace")
        let namespaced = try XCTUnwrap(ChildSelection(queries: [Query("{other}body"), Query("/@x")], deciding: false))
        XCTAssertEqual(try read(xml, selection: namespaced).map { $0.xmlString() },
                       ["<m xmlns='jabber:client'>su<body xmlns='other'/>v</m>"])
        let inherited = try XCTUnwrap(ChildSelection(queries: [Query("*")], deciding: false))
        XCTAssertEqual(try read("<m><a/><b xmlns='x'/></m>", selection: inherited).map { $0.xmlString() }, ["<m><a/></m>"])
    }

    func testQueriesThatMayNeedAnyChild() throws {
        XCTAssertNil(ChildSelection(queries: [try Query("a/../b#")], deciding: false), "'..' climbs back to the root")
        XCTAssertNil(ChildSelection(queries: [try Query("**/body#")], deciding: false), "'**' looks at any depth")
        XCTAssertNil(ChildSelection(queries: [try Query("/")], deciding: false), "the root is printed whole")
        XCTAssertNil(ChildSelection(queries: [try Query("body#"), try Query("")], deciding: false))
        XCTAssertNil(ChildSelection(queries: [try Query("/\\@FORM_TYPE\\")], deciding: false), "a form on the root reads below it")
        // Deciding whether the root is a result needs no child; its attributes and text need none either.
        XCTAssertNotNil(ChildSelection(queries: [try Query("/")], deciding: true))
        XCTAssertNotNil(ChildSelection(queries: [try Query("/@id"), try Query("/#"), try Query("/$"), try Query("/@@")], deciding: false))
    }

    /// Every query, alone and all together, gives the same results over the
    /// corpus with the stanzas built only as far as their paths go.
    func testResultsOverTheCorpusAreTheSame() throws {
        try ReaderTests.requireCorpus()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ReaderTests.corpusPath)))
        let texts = [
            "body#", "/@id", "/#", "{jabber:iq:roster}query/item@jid", "*/*/*$", "{*}*/{*}*$", "*$",
            "{http://jabber.org/protocol/disco#info}query/\\@muc#roominfo_occupants\\",
            "{http://jabber.org/protocol/disco#info}query/\\{*}result@FORM_TYPE\\",
            "{http://jabber.org/protocol/pubsub}pubsub/items/item/{*}*/@@", "{http://jabber.org/protocol/pubsub}pubsub",
            "/<type=result>/{*}query/{*}*<var~^muc#>@var", "{urn:xmpp:delay}delay@stamp|datetime",
            "/{jabber:client}message<type=chat>/body#", "{urn:xmpp:delay}*@from", "{*}error/{*}*$",
        ]
        func results(_ queries: [Query], deciding: Bool, selection: ChildSelection?, depth: Int?) throws -> [String] {
            var out: [String] = []
            let reader = StanzaReader(defaultNamespace: nil, recovery: .skipDamage) { stanza in
                for query in queries {
                    if deciding {
                        out.append(String(describing: try? query.check(in: stanza)))
                    } else {
                        out += ((try? query.find(in: stanza)) ?? []).map(\.json)
                    }
                }
                return true
            }
            reader.childSelection = selection
            reader.depthLimit = depth
            try reader.feed(bytes)
            try reader.finish()
            return out
        }
        var selected = 0
        let all = try texts.map { try Query($0) }
        for queries in all.map({ [$0] }) + [all] {
            for deciding in [false, true] {
                let reaches = queries.map { deciding ? $0.reachToDecide : $0.reach }
                let depth = reaches.contains(nil) ? nil : reaches.compactMap { $0 }.max()
                guard let selection = ChildSelection(queries: queries, deciding: deciding) else { continue }
                selected += 1
                let whole = try results(queries, deciding: deciding, selection: nil, depth: nil)
                XCTAssertEqual(try results(queries, deciding: deciding, selection: selection, depth: depth), whole,
                               "\(queries.map(\.text)), deciding: \(deciding)")
            }
        }
        XCTAssertGreaterThan(selected, 25)
    }
}
