import XCTest
import StanzaQuery

/// stanzaq-query(7), PATH SEGMENTS: how a path selects elements.
final class SelectionTests: XCTestCase {

    let message = """
        <message xmlns='jabber:client' id='m1' type='chat'><body>hi</body><x xmlns='urn:a' n='1'><y n='2'/><body>in a</body></x><thread>t1</thread></message>
        """

    // MARK: Relative and rooted

    func testRelativeQueryMatchesChildren() {
        let s = stanza(message)
        XCTAssertEqual(texts("body#", in: s), ["hi"])
        XCTAssertEqual(texts("thread#", in: s), ["t1"])
        // The context node is not one of its children.
        XCTAssertEqual(texts("message", in: s), [])
        XCTAssertEqual(texts("message/body#", in: s), [])
    }

    func testRootedQueryMatchesTheContextNode() {
        let s = stanza(message)
        XCTAssertEqual(texts("/message/body#", in: s), ["hi"])
        XCTAssertEqual(texts("/message@id", in: s), ["m1"])
        XCTAssertEqual(texts("/body#", in: s), [])
        XCTAssertEqual(texts("/iq@id", in: s), [])
    }

    func testEmptyQueryIsTheContextNode() {
        let s = stanza("<a xmlns='urn:a'><b/></a>")
        XCTAssertEqual(texts("", in: s), ["<a xmlns='urn:a'><b/></a>"])
        XCTAssertEqual(texts("/", in: s), ["<a xmlns='urn:a'><b/></a>"])
    }

    // MARK: Namespaces

    func testOmittedNamespaceIsTheParentsNamespace() {
        let s = stanza(message)
        // <x> is in urn:a, not in jabber:client.
        XCTAssertEqual(texts("x@n", in: s), [])
        XCTAssertEqual(texts("{urn:a}x@n", in: s), ["1"])
        // Below <x>, the inherited namespace is urn:a: <y> and the urn:a <body> match.
        XCTAssertEqual(texts("{urn:a}x/y@n", in: s), ["2"])
        XCTAssertEqual(texts("{urn:a}x/body#", in: s), ["in a"])
        XCTAssertEqual(texts("{urn:a}x/{jabber:client}body#", in: s), [])
        XCTAssertEqual(texts("{jabber:client}body#", in: s), ["hi"])
    }

    func testEmptyNamespaceIsInheritedLikeAnyOther() {
        let s = stanza("<a><b>1</b><c xmlns='urn:c'>2</c><d xmlns=''>3</d></a>")
        XCTAssertEqual(texts("b#", in: s), ["1"])
        XCTAssertEqual(texts("c#", in: s), [])
        XCTAssertEqual(texts("d#", in: s), ["3"])
        XCTAssertEqual(texts("*#", in: s), ["1", "3"])
        XCTAssertEqual(texts("{urn:c}c#", in: s), ["2"])
        XCTAssertEqual(texts("{*}*#", in: s), ["1", "2", "3"])
        // An undeclared default namespace below a namespaced parent: the child is in "".
        let t = stanza("<a xmlns='urn:a'><b xmlns=''><c>x</c></b><b>y</b></a>")
        XCTAssertEqual(texts("b#", in: t), ["y"])
        XCTAssertEqual(texts("{*}b/c#", in: t), ["x"])
        XCTAssertEqual(texts("{*}b/{*}c#", in: t), ["x"])
    }

    func testRootedQueryOnAStanzaMatchesAnyNamespace() {
        for xml in ["<message xmlns='jabber:client'/>", "<message xmlns='jabber:server'/>", "<message/>"] {
            XCTAssertEqual(texts("/message$", in: stanza(xml)), ["message"], xml)
        }
        XCTAssertEqual(texts("/{jabber:server}message$", in: stanza("<message xmlns='jabber:client'/>")), [])
        XCTAssertEqual(texts("/{jabber:client}message$", in: stanza("<message xmlns='jabber:client'/>")), ["message"])
    }

    func testRootedQueryOnAChildUsesItsParentsNamespace() throws {
        let s = stanza(message)
        let children = s.childElements
        let body = children[0], x = children[1]
        XCTAssertEqual(texts("/body#", in: body), ["hi"])
        XCTAssertEqual(texts("/{jabber:client}body#", in: body), ["hi"])
        // <x> is in urn:a, its parent in jabber:client.
        XCTAssertEqual(texts("/x@n", in: x), [])
        XCTAssertEqual(texts("/{urn:a}x@n", in: x), ["1"])
        XCTAssertEqual(texts("/{*}x@n", in: x), ["1"])
        // The rooted empty segment never inherits: Monal's "/@attr".
        XCTAssertEqual(texts("/@n", in: x), ["1"])
        XCTAssertEqual(texts("/<n=1>$", in: x), ["x"])
        // Relative queries on the child work from its own namespace.
        XCTAssertEqual(texts("y@n", in: x), ["2"])
    }

    func testStarNamespaceAndName() {
        let s = stanza(message)
        XCTAssertEqual(texts("*$", in: s), ["body", "thread"])
        XCTAssertEqual(texts("{*}*$", in: s), ["body", "x", "thread"])
        XCTAssertEqual(texts("{*}body#", in: s), ["hi"])
        XCTAssertEqual(texts("{*}*/{*}*$", in: s), ["y", "body"])
        XCTAssertEqual(texts("/{*}*@id", in: s), ["m1"])
    }

    func testNamespaceWithoutName() {
        let s = stanza(message)
        XCTAssertEqual(texts("{urn:a}$", in: s), ["x"])
        XCTAssertEqual(texts("{jabber:client}$", in: s), ["body", "thread"])
        XCTAssertEqual(texts("{urn:a}/*$", in: s), ["y", "body"])
        // Before '$' an empty segment is a step to the children (in the
        // inherited namespace), as before '#'.
        XCTAssertEqual(texts("{urn:a}/$", in: s), ["y", "body"])
        XCTAssertEqual(texts("{urn:b}$", in: s), [])
    }

    func testNegatedNameSelectsEveryOtherName() {
        let s = stanza("<a><b/><c/><d/><c/><e xmlns='urn:e'/></a>")
        XCTAssertEqual(texts("!c$", in: s), ["b", "d"])
        XCTAssertEqual(texts("{*}!c$", in: s), ["b", "d", "e"])
        XCTAssertEqual(texts("{urn:e}!e$", in: s), [])
        XCTAssertEqual(texts("!z$", in: s), ["b", "c", "d", "c"])
        XCTAssertEqual(texts("/!a$", in: s), [])
        XCTAssertEqual(texts("/!b$", in: s), ["a"])
    }

    // MARK: Filters

    let roster = """
        <query xmlns='jabber:iq:roster'><item jid='romeo@example.net' name='Romeo' subscription='both'/><item jid='mercutio@example.com' name='Mercutio' subscription='from'/><item jid='benvolio@example.net' subscription='none'/></query>
        """

    func testEqualsFilterIsCaseInsensitiveAndWhole() {
        let s = stanza(roster)
        XCTAssertEqual(texts("item<subscription=both>@jid", in: s), ["romeo@example.net"])
        XCTAssertEqual(texts("item<subscription=BOTH>@jid", in: s), ["romeo@example.net"])
        XCTAssertEqual(texts("item<name=romeo>@jid", in: s), ["romeo@example.net"])
        XCTAssertEqual(texts("item<subscription=bot>@jid", in: s), [])
        XCTAssertEqual(texts("item<subscription=both >@jid", in: s), [])
        // A missing attribute never equals anything.
        XCTAssertEqual(texts("item<name=benvolio>@jid", in: s), [])
    }

    func testEqualsFilterValueIsLiteralNotARegex() {
        let s = stanza("<a><b v='a.c'/><b v='abc'/><b v='x*'/></a>")
        XCTAssertEqual(texts("b<v=a.c>@v", in: s), ["a.c"])
        XCTAssertEqual(texts("b<v=x*>@v", in: s), ["x*"])
    }

    func testEqualsFilterNonASCIICaseInsensitive() {
        let s = stanza("<a><b v='ÄRGER'/><b v='Straße'/></a>")
        XCTAssertEqual(texts("b<v=ärger>@v", in: s), ["ÄRGER"])
        XCTAssertEqual(texts("b<v=straße>@v", in: s), ["Straße"])
    }

    func testRegexFilterIsUnanchoredAndCaseInsensitive() {
        let s = stanza(roster)
        XCTAssertEqual(texts("item<jid~example>@jid", in: s), ["romeo@example.net", "mercutio@example.com", "benvolio@example.net"])
        XCTAssertEqual(texts("item<jid~EXAMPLE\\.NET$>@jid", in: s), ["romeo@example.net", "benvolio@example.net"])
        XCTAssertEqual(texts("item<jid~^example>@jid", in: s), [])
        XCTAssertEqual(texts("item<jid~^m>@jid", in: s), ["mercutio@example.com"])
        XCTAssertEqual(texts("item<name~.>@jid", in: s), ["romeo@example.net", "mercutio@example.com"])
        XCTAssertEqual(texts("item<name~^.*$>@jid", in: s), ["romeo@example.net", "mercutio@example.com"])
        // ICU syntax.
        XCTAssertEqual(texts("item<jid~^\\p{L}{5}@>@jid", in: s), ["romeo@example.net"])
        XCTAssertEqual(texts("item<subscription~^(?:both|none)$>@jid", in: s), ["romeo@example.net", "benvolio@example.net"])
    }

    func testSeveralFiltersMustAllHold() {
        let s = stanza(roster)
        XCTAssertEqual(texts("item<jid~\\.net$><subscription=none>@jid", in: s), ["benvolio@example.net"])
        XCTAssertEqual(texts("item<jid~\\.net$><subscription=from>@jid", in: s), [])
        XCTAssertEqual(texts("item<subscription~o><jid~\\.net$><name~^r>@jid", in: s), ["romeo@example.net"])
    }

    func testFilterAttributeNameForms() {
        let s = stanza("""
            <a xmlns:p='urn:p' xmlns:q='urn:p'><b xml:lang='de'>Hallo</b><b xml:lang='en'>Hello</b><c p:v='1' v='2'/><c q:v='3'/><c xmlns:p='urn:other' p:v='4'/></a>
            """)
        XCTAssertEqual(texts("b<xml:lang=de>#", in: s), ["Hallo"])
        XCTAssertEqual(texts("b<{http://www.w3.org/XML/1998/namespace}lang=EN>#", in: s), ["Hello"])
        XCTAssertEqual(texts("b<lang=de>#", in: s), [])
        // {ns}a: by namespace, whatever the prefix.
        XCTAssertEqual(texts("c<{urn:p}v~.>@@", in: s), [#"{"p:v":"1","v":"2"}"#, #"{"q:v":"3"}"#])
        XCTAssertEqual(texts("c<{urn:p}v=3>@{urn:p}v", in: s), ["3"])
        // p:a: the prefix resolved on each element.
        XCTAssertEqual(texts("c<p:v~.>@{urn:other}v", in: s), ["4"])
        XCTAssertEqual(texts("c<p:v=1>@v", in: s), ["2"])
        XCTAssertEqual(texts("c<q:v=1>@v", in: s), ["2"])
        // No prefix: the attribute without a namespace.
        XCTAssertEqual(texts("c<v~.>@v", in: s), ["2"])
        XCTAssertEqual(texts("c<nope:v~.>@v", in: s), [])
    }

    // MARK: ..

    func testParentOfAChild() {
        let s = stanza("<iq xmlns='jabber:client' type='result'><query xmlns='jabber:iq:version' ver='1'><name>x</name><version>2</version></query></iq>")
        XCTAssertEqual(texts("{jabber:iq:version}query/name/..@ver", in: s), ["1"])
        XCTAssertEqual(texts("{jabber:iq:version}query/name/../@ver", in: s), ["1"])
        XCTAssertEqual(texts("{jabber:iq:version}query/name/../version#", in: s), ["2"])
        XCTAssertEqual(texts("{jabber:iq:version}query/name/../../@type", in: s), ["result"])
        XCTAssertEqual(texts("{jabber:iq:version}query/name/../..$", in: s), ["iq"])
        // From a leaf: Monal's code only climbs from nodes with children; the document says any node.
        XCTAssertEqual(texts("{jabber:iq:version}query/version/..$", in: s), ["query"])
    }

    func testParentKeepsDuplicates() {
        let s = stanza("<a><b n='1'/><b n='2'/><c/></a>")
        XCTAssertEqual(texts("b/..$", in: s), ["a", "a"])
        XCTAssertEqual(texts("b/../c$", in: s), ["c", "c"])
        XCTAssertEqual(texts("b/../b@n", in: s), ["1", "2", "1", "2"])
        XCTAssertEqual(texts("*/..", in: s), ["<a><b n='1'/><b n='2'/><c/></a>", "<a><b n='1'/><b n='2'/><c/></a>", "<a><b n='1'/><b n='2'/><c/></a>"])
    }

    func testParentAboveTheRootIsAnError() {
        let s = stanza("<a><b/></a>")
        XCTAssertEqual(evaluationError("..", in: s), "'..' at column 1 climbs above <a>, the root of the stanza")
        XCTAssertEqual(evaluationError("/..", in: s), "'..' at column 2 climbs above <a>, the root of the stanza")
        XCTAssertEqual(evaluationError("b/../..", in: s), "'..' at column 6 climbs above <a>, the root of the stanza")
        // The prefix is named as written.
        let e = stanza("<stream:error xmlns:stream='http://etherx.jabber.org/streams'/>")
        XCTAssertEqual(evaluationError("/../@x", in: e), "'..' at column 2 climbs above <stream:error>, the root of the stanza")
        // No node reached: nothing to climb from, no error.
        XCTAssertEqual(texts("nothing/../..", in: s), [])
    }

    func testParentOfADetachedChildElement() throws {
        // An element taken out of a stanza still knows its parent.
        let s = stanza("<a><b><c/></b></a>")
        let b = s.childElements[0]
        XCTAssertEqual(texts("..$", in: b), ["a"])
        XCTAssertEqual(texts("/../..$", in: b.childElements[0]), ["a"])
    }

    // MARK: Order

    func testResultsComeInDocumentOrder() {
        let s = stanza("<a><b n='1'><c n='1.1'/><c n='1.2'/></b><c n='2'/><b n='3'><c n='3.1'/></b></a>")
        XCTAssertEqual(texts("*@n", in: s), ["1", "2", "3"])
        XCTAssertEqual(texts("b/c@n", in: s), ["1.1", "1.2", "3.1"])
        XCTAssertEqual(texts("*/*@n", in: s), ["1.1", "1.2", "3.1"])
        XCTAssertEqual(try Query("*/*@n").findFirst(in: s)?.text, "1.1")
        XCTAssertEqual(try Query("c@n").findFirst(in: s)?.text, "2")
    }

    func testFindFirstAndCheck() throws {
        let s = stanza(roster)
        XCTAssertEqual(try Query("item@jid").findFirst(in: s), .string("romeo@example.net"))
        XCTAssertNil(try Query("item@nothing").findFirst(in: s))
        XCTAssertTrue(try Query("item<name=mercutio>").check(in: s))
        XCTAssertFalse(try Query("item<name=tybalt>").check(in: s))
        // check is true for a result even if it is "false".
        XCTAssertTrue(try Query("item@jid|bool").check(in: s))
    }
}
