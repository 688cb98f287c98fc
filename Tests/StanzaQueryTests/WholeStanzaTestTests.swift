import XCTest
import StanzaQuery

/// ``StanzaReader/wholeStanzaTest`` decides, at each stanza's start tag, which
/// stanzas are built whole; of the others, only the root's start tag is.
final class WholeStanzaTestTests: XCTestCase {
    func testOnlyStanzasTheTestChoosesAreBuiltWhole() throws {
        let xml = """
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' xmlns:p='urn:p'>\
            <message type='error'>a<p:x><y xmlns:p='urn:q'><p:z>deep</p:z></y></p:x>b</message>\
            <message type='chat'>c<p:x><y/></p:x>d</message>\
            <iq type='error'><query xmlns='jabber:iq:roster'/></iq>
            """
        var roots: [String] = []
        var stanzas: [String] = []
        let reader = StanzaReader { stanzas.append($0.xmlString()); return true }
        reader.depthLimit = 1   // the test overrides it both ways
        reader.wholeStanzaTest = { root in
            // The start tag only: no children, no text yet; the stream's namespaces in scope.
            roots.append("\(root.name) \(root.children.count) \(root.namespaceURI(forPrefix: "p") ?? "-")")
            return root.attribute("type") == "error"
        }
        try reader.feed(Array(xml.utf8))
        try reader.finish()
        XCTAssertEqual(roots, ["message 0 urn:p", "message 0 urn:p", "iq 0 urn:p"])
        XCTAssertEqual(stanzas, [
            "<message xmlns='jabber:client' type='error'>a<p:x xmlns:p='urn:p'><y xmlns:p='urn:q'><p:z>deep</p:z></y></p:x>b</message>",
            "<message xmlns='jabber:client' type='chat'/>",
            "<iq xmlns='jabber:client' type='error'><query xmlns='jabber:iq:roster'/></iq>",
        ])
    }

    func testQueriesDecidedByTheStartTag() throws {
        for text in ["/<type=error>", "/{jabber:client}message<type=error><id=%@>", "@id", "/@from", "/@@", "/$", "", "/",
                     "/@stamp|datetime", "/<xml:lang=en>"] {
            XCTAssertTrue(try Query(text, arguments: text.contains("%@") ? ["1"] : []).isDecidedByStartTag, text)
        }
        for text in ["body", "/body#", "/#", "/<#=hi>", "/<type~err>", "..", "**", "/\\@FORM_TYPE\\", "/{*}*/x"] {
            XCTAssertFalse(try Query(text).isDecidedByStartTag, text)
        }
    }
}
