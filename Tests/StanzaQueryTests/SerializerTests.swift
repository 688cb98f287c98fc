import XCTest
import StanzaQuery

/// stanzaq(1), OUTPUT, Text: XML serialised standalone.
final class SerializerTests: XCTestCase {

    func testRoundTripOfAStanza() {
        let xml = "<message xmlns='jabber:client' to='juliet@example.com' type='chat'><body>hi</body><x xmlns='urn:a'><y/></x></message>"
        XCTAssertEqual(stanza(xml).xmlString(), xml)
    }

    func testChildDeclaresItsInheritedNamespace() throws {
        let s = stanza("<message xmlns='jabber:client'><body>hi</body><x xmlns='urn:a'><y z='1'/></x></message>")
        XCTAssertEqual(texts("body", in: s), ["<body xmlns='jabber:client'>hi</body>"])
        XCTAssertEqual(texts("{urn:a}x/y", in: s), ["<y xmlns='urn:a' z='1'/>"])
    }

    func testElementWithoutNamespaceDeclaresNothing() {
        XCTAssertEqual(stanza("<a><b/></a>").xmlString(), "<a><b/></a>")
        // …unless its parent's default namespace has to be undone.
        let s = stanza("<a xmlns='urn:a'><b xmlns=''><c/></b></a>")
        XCTAssertEqual(s.xmlString(), "<a xmlns='urn:a'><b xmlns=''><c/></b></a>")
        XCTAssertEqual(texts("{*}b", in: s), ["<b><c/></b>"])
    }

    func testInheritedPrefixesAreDeclared() {
        let s = stanza("<a xmlns:p='urn:p' xmlns:q='urn:q'><p:b q:attr='1'><p:c/></p:b></a>")
        XCTAssertEqual(texts("{urn:p}b", in: s), ["<p:b xmlns:p='urn:p' xmlns:q='urn:q' q:attr='1'><p:c/></p:b>"])
        XCTAssertEqual(texts("{urn:p}b/c", in: s), ["<p:c xmlns:p='urn:p'/>"])
        // The default namespace in scope is declared as well as the prefix.
        let t = stanza("<a xmlns='urn:d' xmlns:p='urn:p'><p:b><c/></p:b></a>")
        XCTAssertEqual(texts("{urn:p}b", in: t), ["<p:b xmlns:p='urn:p'><c xmlns='urn:d'/></p:b>"])
    }

    func testDeclarationsOnlyWhereTheyChange() {
        let s = stanza("<a xmlns='urn:a' xmlns:p='urn:p'><b xmlns='urn:a'><c xmlns:p='urn:p' p:x='1'/><d xmlns='urn:d'><e/></d><f xmlns:p='urn:other' p:x='2'/></b></a>")
        XCTAssertEqual(s.xmlString(), "<a xmlns='urn:a' xmlns:p='urn:p'><b><c p:x='1'/><d xmlns='urn:d'><e/></d><f xmlns:p='urn:other' p:x='2'/></b></a>")
    }

    func testUnusedDeclarationsOfTheElementAreKept() {
        let xml = "<iq xmlns='jabber:client' xmlns:unused='urn:unused' type='get'/>"
        XCTAssertEqual(stanza(xml).xmlString(), xml)
    }

    func testXmlPrefixIsNeverDeclared() {
        let xml = "<body xml:lang='en'>hi</body>"
        XCTAssertEqual(stanza(xml).xmlString(), xml)
    }

    func testSingleQuotesAndEscaping() {
        let s = stanza("<a v=\"it's &lt;&amp;&gt; &quot;q&quot;\" w='&#10;&#9;&#13;'>x &lt; y &amp; z &gt; w ' \" &#13;</a>")
        XCTAssertEqual(s.xmlString(), "<a v='it&apos;s &lt;&amp;> \"q\"' w='&#10;&#9;&#13;'>x &lt; y &amp; z &gt; w ' \" &#13;</a>")
    }

    func testEscapedOutputReadsBackToTheSameValues() throws {
        let s = stanza("<a v=\"it's &lt;&amp;&gt; &quot;q&quot;\" w='&#10;&#9;&#13;'>x &lt; y &amp; z &gt; w ' \" &#13;</a>")
        let again = stanza(s.xmlString())
        XCTAssertEqual(again.attribute("v"), "it's <&> \"q\"")
        XCTAssertEqual(again.attribute("w"), "\n\t\r")
        XCTAssertEqual(again.text, "x < y & z > w ' \" \r")
    }

    func testPrettyPrinting() {
        let s = stanza("<iq xmlns='jabber:client' type='result'><query xmlns='jabber:iq:roster'><item jid='a@b'><group>Friends</group></item><item jid='c@d'/></query></iq>")
        XCTAssertEqual(s.xmlString(pretty: true), """
            <iq xmlns='jabber:client' type='result'>
              <query xmlns='jabber:iq:roster'>
                <item jid='a@b'>
                  <group>Friends</group>
                </item>
                <item jid='c@d'/>
              </query>
            </iq>
            """)
    }

    func testPrettyPrintingReindentsWhitespaceOnlyText() {
        let s = stanza("<a>\n\t\t<b>x</b>\n      <c/>\n</a>")
        XCTAssertEqual(s.xmlString(pretty: true), "<a>\n  <b>x</b>\n  <c/>\n</a>")
        // Without --pretty the whitespace is written as read.
        XCTAssertEqual(s.xmlString(), "<a>\n\t\t<b>x</b>\n      <c/>\n</a>")
    }

    func testPrettyPrintingLeavesMixedContentAlone() {
        let s = stanza("<p><q>text <b>bold</b> more</q><r/></p>")
        XCTAssertEqual(s.xmlString(pretty: true), "<p>\n  <q>text <b>bold</b> more</q>\n  <r/>\n</p>")
    }

    func testPrettyRenderingOfQueryValues() throws {
        let s = stanza("<a><b><c/></b></a>")
        let value = try XCTUnwrap(try Query("b").findFirst(in: s))
        var out: [UInt8] = []
        value.writeText(into: &out, options: RenderOptions(pretty: true))
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "<b>\n  <c/>\n</b>")
        var json: [UInt8] = []
        value.writeJSON(into: &json, options: RenderOptions(pretty: true))
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #""<b>\n  <c/>\n</b>""#)
        XCTAssertEqual(value.json, #""<b><c/></b>""#)
    }

    /// Leaving an element undoes its declarations: a sibling sees its parent's
    /// bindings again, and a prefix the element introduced is unbound again.
    func testDeclarationsEndWithTheirElement() {
        let xml = "<a xmlns='urn:a' xmlns:p='urn:p'><b xmlns='urn:b' xmlns:p='urn:q' xmlns:r='urn:r'><p:c r:x='1'/></b>"
            + "<p:d/><e xmlns:r='urn:r' r:y='2'/><b xmlns='urn:b'/></a>"
        XCTAssertEqual(stanza(xml).xmlString(), xml)
        XCTAssertEqual(texts("{*}*", in: stanza(xml)).last, "<b xmlns='urn:b'/>")
    }

    /// Past 32 bindings the scope keeps a map as well: declarations still appear
    /// only where they change, and leaving an element still undoes its own.
    func testManyDeclarations() {
        let many = (0..<40).map { " xmlns:p\($0)='urn:\($0)'" }.joined()
        let redeclared = (30..<36).map { " xmlns:p\($0)='urn:other\($0)'" }.joined()
        let xml = "<a xmlns='urn:a'\(many)><b\(redeclared)><p33:c p1:x='1'/></b><p33:d p39:y='2'/><e xmlns='urn:e'/><b/></a>"
        XCTAssertEqual(stanza(xml).xmlString(), xml)
        XCTAssertEqual(texts("b/{urn:other33}c", in: stanza(xml)), ["<p33:c xmlns:p33='urn:other33' xmlns:p1='urn:1' p1:x='1'/>"])
    }

    /// A built tree whose attribute rebinds its element's prefix (which parsed
    /// XML never does): the children declare the element's binding again.
    func testAttributeRebindingTheElementsPrefix() {
        let root = Element(name: "a", namespace: "urn:a", prefix: "p",
                           attributes: [Attribute(name: "x", prefix: "p", namespace: "urn:other", value: "1")])
        root.append(Element(name: "b", namespace: "urn:a", prefix: "p"))
        let same = Element(name: "c", namespace: "urn:a", prefix: "p")
        same.append(Element(name: "d", namespace: "urn:a", prefix: "p"))
        root.append(same)
        XCTAssertEqual(root.xmlString(), "<p:a xmlns:p='urn:a' xmlns:p='urn:other' p:x='1'><p:b xmlns:p='urn:a'/>"
                       + "<p:c xmlns:p='urn:a'><p:d/></p:c></p:a>")
    }

    func testHighlight() {
        let s = stanza("<a x='1'/>")
        let colours = XMLHighlight(tag: "[T]", attributeName: "[N]", attributeValue: "[V]", reset: "[R]")
        XCTAssertEqual(XMLSerializer(options: .init(highlight: colours)).string(for: s), "<[T]a[R] [N]x[R]=[V]'1'[R]/>")
    }

    func testBuiltTree() {
        let root = Element(name: "message", namespace: "jabber:client")
        let body = Element(name: "body", namespace: "jabber:client")
        body.appendText("a")
        body.appendText("b")
        root.append(body)
        root.append(Element(name: "x", namespace: "urn:x", attributes: [Attribute(name: "id", value: "1")]))
        XCTAssertEqual(root.xmlString(), "<message xmlns='jabber:client'><body>ab</body><x xmlns='urn:x' id='1'/></message>")
        XCTAssertEqual(body.children.count, 1)
        XCTAssertTrue(body.parent === root)
        XCTAssertEqual(texts("body#", in: root), ["ab"])
    }
}
