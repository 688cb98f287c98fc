import XCTest
import StanzaQuery

/// stanzaq-query(7), COMPATIBILITY (Prosody): every query Prosody's `stanza:find()` accepts gives Prosody's answer
/// as the first result. The first two tests mirror Prosody's own spec
/// (spec/util_stanza_spec.lua, describe "find").
final class ProsodyCompatibilityTests: XCTestCase {

    let root = "<root attr='value'><child xmlns='urn:example:not:same' childattr='thisvalue'><nested>text</nested></child></root>"

    func testProsodyFindWorks() throws {
        let s = stanza(root)
        // finds attr
        XCTAssertEqual(try Query("@attr").findFirst(in: s), .string("value"))
        // equivalent to get_child
        let child = try Query("{urn:example:not:same}child").findFirst(in: s)
        guard case .element(let element)? = child else { return XCTFail("no child") }
        XCTAssertTrue(element === s.childElements[0])
        XCTAssertEqual(child?.text, "<child xmlns='urn:example:not:same' childattr='thisvalue'><nested>text</nested></child>")
        // finds child attr
        XCTAssertEqual(try Query("{urn:example:not:same}child@childattr").findFirst(in: s), .string("thisvalue"))
        // finds nested text
        XCTAssertEqual(try Query("{urn:example:not:same}child/nested#").findFirst(in: s), .string("text"))
        // respects namespaces
        XCTAssertNil(try Query("child").findFirst(in: s))
        XCTAssertEqual(texts("child", in: s), [])
    }

    func testProsodyFindHandlesNamespacedAttributes() throws {
        let s = stanza("<root xmlns:e='urn:example:namespace' e:attr='value'/>")
        // finds prefixed attr
        XCTAssertEqual(try Query("@e:attr").findFirst(in: s), .string("value"))
        // finds clark attr
        XCTAssertEqual(try Query("@{urn:example:namespace}attr").findFirst(in: s), .string("value"))
        XCTAssertNil(try Query("@attr").findFirst(in: s))
    }

    func testBareAttributeIsOnTheContextNode() {
        let s = stanza("<message xmlns='jabber:client' type='chat' to='a@b'><body type='inner'>x</body></message>")
        XCTAssertEqual(texts("@type", in: s), ["chat"])
        XCTAssertEqual(texts("@to", in: s), ["a@b"])
        XCTAssertEqual(texts("@from", in: s), [])
        XCTAssertEqual(texts("body@type", in: s), ["inner"])
    }

    func testNoNamespaceMeansTheParents() {
        let s = stanza("<iq xmlns='jabber:client'><query xmlns='jabber:iq:version'><name>stanzaq</name></query><error/></iq>")
        XCTAssertEqual(texts("error", in: s), ["<error xmlns='jabber:client'/>"])
        XCTAssertEqual(texts("query/name#", in: s), [])
        XCTAssertEqual(texts("{jabber:iq:version}query/name#", in: s), ["stanzaq"])
    }

    func testEmptySegmentIsAnyElementInTheInheritedNamespace() throws {
        let s = stanza("<r><a><x><b>1</b></x><y xmlns='urn:y'><b>2</b></y><z><b>3</b></z></a></r>")
        // Prosody: a, then the first child of a in a's namespace, then b.
        XCTAssertEqual(try Query("a//b#").findFirst(in: s), .string("1"))
        XCTAssertEqual(texts("a//b#", in: s), ["1", "3"])
        XCTAssertEqual(texts("a/{urn:y}/b#", in: s), ["2"])
    }

    func testNamespaceOnlySegment() throws {
        let s = stanza("<r><n xmlns='urn:n'><b>3</b></n><m xmlns='urn:n'><b>4</b><c>5</c></m><o xmlns='urn:o'><b>6</b></o></r>")
        XCTAssertEqual(try Query("{urn:n}/b#").findFirst(in: s), .string("3"))
        XCTAssertEqual(texts("{urn:n}/b#", in: s), ["3", "4"])
        XCTAssertEqual(texts("{urn:o}/b#", in: s), ["6"])
        XCTAssertEqual(texts("{urn:n}/c#", in: s), ["5"])
    }

    func testNestedText() throws {
        let s = stanza("<a><b>outer<c>inner</c></b><b>second</b></a>")
        XCTAssertEqual(try Query("b#").findFirst(in: s), .string("outer"))
        XCTAssertEqual(try Query("b/c#").findFirst(in: s), .string("inner"))
        XCTAssertEqual(texts("b#", in: s), ["outer", "second"])
    }

    func testTrailingEmptySegmentIsTheNodeReachedBeforeAttributes() throws {
        // stanzaq-query(7), GRAMMAR: before '@' and at the end, as in Prosody.
        let s = stanza("<a><b x='1' y='2'>t</b></a>")
        XCTAssertEqual(texts("b/@x", in: s), ["1"])
        XCTAssertEqual(texts("b/@x", in: s), texts("b@x", in: s))
        XCTAssertEqual(texts("b/@@", in: s), [#"{"x":"1","y":"2"}"#])
        XCTAssertEqual(texts("b/", in: s), ["<b x='1' y='2'>t</b>"])
        XCTAssertEqual(texts("b/", in: s), texts("b", in: s))
        XCTAssertEqual(try QuerySyntax(parsing: "b/@x").steps, try QuerySyntax(parsing: "b@x").steps)
    }

    func testMonalMeaningWinsWhereTheyDisagree() {
        // A leading "/" roots the query.
        let s = stanza("<a><a><b>inner</b></a><b>outer</b></a>")
        XCTAssertEqual(texts("/a/b#", in: s), ["outer"])
        XCTAssertEqual(texts("a/b#", in: s), ["inner"])
        // A bare "#" is the context node's text.
        let t = stanza("<a>own<b>child</b></a>")
        XCTAssertEqual(texts("#", in: t), ["own"])
        // "#" of an element without text: no result (Prosody: "").
        XCTAssertEqual(texts("b/#", in: stanza("<a><b/></a>")), [])
    }
}

/// The empty segment before '#' is a step to the children, as in Prosody's
/// find ("a/#" is get_child_text of a: the text of a's first child in a's
/// namespace), and `--first` gives Prosody's answer.
final class EmptySegmentBeforeTextTests: XCTestCase {
    let pass = stanza("""
        <iq xmlns='jabber:client' type='set'><query xmlns='jabber:iq:pass'><expire>600</expire><close/><proxy port='43253'>1.2.3.4</proxy></query></iq>
        """)

    func testSlashHashIsTheTextOfTheChildren() throws {
        XCTAssertEqual(try Query("{jabber:iq:pass}query/#").findFirst(in: pass), .string("600"))
        XCTAssertEqual(texts("{jabber:iq:pass}query/#", in: pass), ["600", "1.2.3.4"])
        // expire has no element children: "expire/#" is nothing.
        XCTAssertEqual(texts("{jabber:iq:pass}query/expire/#", in: pass), [])
        XCTAssertEqual(texts("{jabber:iq:pass}query/expire#", in: pass), ["600"])
    }

    func testDoubleSlashHashIsTheTextOfTheGrandchildren() {
        let s = stanza("<r><a><x><b>1</b></x><y xmlns='urn:y'><b>2</b></y><z>3<b>4</b></z></a></r>")
        XCTAssertEqual(texts("a//#", in: s), ["1", "4"])
        XCTAssertEqual(texts("a/#", in: s), ["3"])
        XCTAssertEqual(texts("a/{urn:y}/#", in: s), ["2"])
    }

    func testSlashDollarIsTheChildrensNames() {
        XCTAssertEqual(texts("{jabber:iq:pass}query/$", in: pass), ["expire", "close", "proxy"])
    }

    func testParentThenEmptySegment() {
        // ".." then an empty segment: the children of the parent.
        XCTAssertEqual(texts("{jabber:iq:pass}query/proxy/../#", in: pass), ["600", "1.2.3.4"])
        XCTAssertEqual(texts("{jabber:iq:pass}query/proxy/..@xmlns", in: pass), ["jabber:iq:pass"])
        XCTAssertEqual(texts("{jabber:iq:pass}query/proxy/../@xmlns", in: pass), ["jabber:iq:pass"])
    }

    func testRootedEmptySegmentIsTheContextNode() {
        let s = stanza("<a>own<b>child</b></a>")
        XCTAssertEqual(texts("/#", in: s), ["own"])
        XCTAssertEqual(texts("/$", in: s), ["a"])
        XCTAssertEqual(texts("b/", in: s), ["<b>child</b>"])
    }
}
