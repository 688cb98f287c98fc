import XCTest
import StanzaQuery

/// stanzaq-query(7), EXTRACTIONS: @name, @{ns}name, @p:name, @@, #, $.
final class ExtractionTests: XCTestCase {

    func testAttributeExtraction() {
        let s = stanza("<iq xmlns='jabber:client' type='get' id='q1'><query xmlns='jabber:iq:roster' ver='ver7'/></iq>")
        XCTAssertEqual(texts("/@type", in: s), ["get"])
        XCTAssertEqual(texts("{jabber:iq:roster}query@ver", in: s), ["ver7"])
        XCTAssertEqual(texts("{jabber:iq:roster}query@missing", in: s), [])
        XCTAssertEqual(texts("/@missing", in: s), [])
        // The element's namespace reads as the attribute xmlns (Monal's and
        // Prosody's models), inherited or declared.
        XCTAssertEqual(texts("/@xmlns", in: s), ["jabber:client"])
        XCTAssertEqual(texts("{jabber:iq:roster}query@xmlns", in: s), ["jabber:iq:roster"])
        XCTAssertEqual(jsons("/@id", in: s), ["\"q1\""])
    }

    func testAttributeValuesAreDecodedAndUnmodified() {
        let s = stanza("<a v=' x &amp; &lt;y&gt; &#x263A; &quot;q&quot; ' w=\"it's\"/>")
        XCTAssertEqual(texts("/@v", in: s), [" x & <y> ☺ \"q\" "])
        XCTAssertEqual(texts("/@w", in: s), ["it's"])
        XCTAssertEqual(jsons("/@v", in: s), [#"" x & <y> ☺ \"q\" ""#])
    }

    func testNamespacedAttributeExtraction() {
        let s = stanza("<a xmlns='urn:a' xmlns:e='urn:extra' e:attr='yes' attr='plain' xml:lang='en'><b xmlns:f='urn:extra' f:attr='inner'/></a>")
        XCTAssertEqual(texts("/@attr", in: s), ["plain"])
        XCTAssertEqual(texts("/@e:attr", in: s), ["yes"])
        XCTAssertEqual(texts("/@{urn:extra}attr", in: s), ["yes"])
        XCTAssertEqual(texts("/@{urn:a}attr", in: s), [])
        XCTAssertEqual(texts("/@xml:lang", in: s), ["en"])
        XCTAssertEqual(texts("/@{http://www.w3.org/XML/1998/namespace}lang", in: s), ["en"])
        XCTAssertEqual(texts("/@lang", in: s), [])
        // The prefix is resolved on the element the extraction reads.
        XCTAssertEqual(texts("b@f:attr", in: s), ["inner"])
        XCTAssertEqual(texts("b@e:attr", in: s), ["inner"])
        XCTAssertEqual(texts("b@{urn:extra}attr", in: s), ["inner"])
        XCTAssertEqual(texts("/@f:attr", in: s), [])
        XCTAssertEqual(texts("/@unbound:attr", in: s), [])
    }

    func testAllAttributesInDocumentOrderWithXmlnsFirst() throws {
        let s = stanza("<presence xmlns='jabber:client' xmlns:p='urn:p' to='a@b' from='c@d' xml:lang='en' p:x='1' type='unavailable'/>")
        let value = try Query("/@@").findFirst(in: s)
        XCTAssertEqual(value, .attributes([
            KeyValue("xmlns", "jabber:client"), KeyValue("to", "a@b"), KeyValue("from", "c@d"),
            KeyValue("xml:lang", "en"), KeyValue("p:x", "1"), KeyValue("type", "unavailable"),
        ]))
        let expected = #"{"xmlns":"jabber:client","to":"a@b","from":"c@d","xml:lang":"en","p:x":"1","type":"unavailable"}"#
        XCTAssertEqual(value?.text, expected)
        XCTAssertEqual(value?.json, expected)
    }

    func testAllAttributesOfElementWithoutNamespaceOrAttributes() {
        // The empty namespace is no xmlns attribute (as in Prosody's model).
        XCTAssertEqual(texts("/@@", in: stanza("<a/>")), [#"{}"#])
        XCTAssertEqual(texts("b@@", in: stanza("<a xmlns='urn:a'><b c='&quot;\\'/></a>")), [#"{"xmlns":"urn:a","c":"\"\\"}"#])
        XCTAssertEqual(texts("*@@", in: stanza("<a><b x='1'/><c y='2'/></a>")), [#"{"x":"1"}"#, #"{"y":"2"}"#])
    }

    func testTextIsDirectTextOnly() {
        let s = stanza("<a>one<b>two</b>three<c/>four</a>")
        XCTAssertEqual(texts("/#", in: s), ["onethreefour"])
        XCTAssertEqual(texts("#", in: s), ["onethreefour"])
        XCTAssertEqual(texts("b#", in: s), ["two"])
        XCTAssertEqual(texts("c#", in: s), [])
    }

    func testWhitespaceTextCounts() {
        XCTAssertEqual(texts("/#", in: stanza("<a> </a>")), [" "])
        XCTAssertEqual(texts("/#", in: stanza("<a>\n  <b/>\n</a>")), ["\n  \n"])
        XCTAssertEqual(texts("/#", in: stanza("<a>  padded  </a>")), ["  padded  "])
        XCTAssertEqual(jsons("/#", in: stanza("<a>\t\"x\"\n</a>")), [#""\t\"x\"\n""#])
    }

    func testNoTextIsNoResult() {
        XCTAssertEqual(texts("/#", in: stanza("<a/>")), [])
        XCTAssertEqual(texts("/#", in: stanza("<a></a>")), [])
        XCTAssertEqual(texts("/#", in: stanza("<a><b>x</b></a>")), [])
        XCTAssertEqual(texts("/#", in: stanza("<a><![CDATA[]]></a>")), [])
        XCTAssertFalse(try Query("/#").check(in: stanza("<a/>")))
    }

    func testTextWithCDATAAndReferences() {
        XCTAssertEqual(texts("/#", in: stanza("<a>x &lt; y<![CDATA[ & <z>]]>&#65;</a>")), ["x < y & <z>A"])
    }

    func testNameIsTheLocalName() {
        let s = stanza("<stream:features xmlns:stream='http://etherx.jabber.org/streams'><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/></stream:features>")
        XCTAssertEqual(texts("/$", in: s), ["features"])
        XCTAssertEqual(texts("$", in: s), ["features"])
        XCTAssertEqual(texts("{*}*$", in: s), ["starttls", "mechanisms"])
        XCTAssertEqual(jsons("{*}*$", in: s), ["\"starttls\"", "\"mechanisms\""])
    }

    func testNoExtractionGivesElements() throws {
        let s = stanza("<a><b x='1'>t</b><b/></a>")
        let results = try Query("b").find(in: s)
        XCTAssertEqual(results.count, 2)
        guard case .element(let first)? = results.first else { return XCTFail("not an element") }
        XCTAssertTrue(first === s.childElements[0])
        XCTAssertEqual(results.map(\.text), ["<b x='1'>t</b>", "<b/>"])
        XCTAssertEqual(results.map(\.json), [#""<b x='1'>t</b>""#, #""<b/>""#])
    }

    func testExtractionAfterParent() {
        // stanzaq-query(7), COMPATIBILITY: "item/../@ver" reads the parent's attribute.
        let s = stanza("<iq xmlns='jabber:client'><query xmlns='jabber:iq:roster' ver='v9'><item jid='a@b'/></query></iq>")
        XCTAssertEqual(texts("{jabber:iq:roster}query/item/../@ver", in: s), ["v9"])
        XCTAssertEqual(texts("{jabber:iq:roster}query/item/..@ver", in: s), ["v9"])
        XCTAssertEqual(texts("{jabber:iq:roster}query/item/..$", in: s), ["query"])
        XCTAssertEqual(texts("{jabber:iq:roster}query/item/..#", in: s), [])
    }
}
