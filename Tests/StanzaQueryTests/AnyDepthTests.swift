import XCTest
@testable import StanzaQuery

/// `**`, the any-depth segment (stanzaq-query(7), EXTENSIONS): the nodes
/// reached so far and all their descendants, each once, in document order.
final class AnyDepthTests: XCTestCase {

    /// A MAM result: the archived message is three levels below the stanza.
    let mamResult = """
        <message xmlns='jabber:client' id='aeb213'>\
        <result xmlns='urn:xmpp:mam:2' queryid='f27' id='28482-98726-73623'>\
        <forwarded xmlns='urn:xmpp:forward:0'>\
        <delay xmlns='urn:xmpp:delay' stamp='2010-07-10T23:08:25Z'/>\
        <message xmlns='jabber:client' from='romeo@montague.lit/orchard' type='chat'><body>Call me but love</body></message>\
        </forwarded></result></message>
        """

    /// A carbon whose own body comes after the forwarded one: document order is inner, outer.
    let carbon = """
        <message xmlns='jabber:client' from='juliet@capulet.lit'>\
        <sent xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'>\
        <message xmlns='jabber:client' from='juliet@capulet.lit/balcony'><body>inner</body></message>\
        </forwarded></sent><body>outer</body></message>
        """

    func testAnyDepthFindsWhatIsWrapped() {
        let s = stanza(mamResult)
        XCTAssertEqual(texts("body#", in: s), [])
        XCTAssertEqual(texts("**/body#", in: s), ["Call me but love"])
        XCTAssertEqual(jsons("**/body#", in: s), ["\"Call me but love\""])
        XCTAssertEqual(texts("{urn:xmpp:mam:2}result/**/{jabber:client}body#", in: s), ["Call me but love"])
        XCTAssertEqual(jsons("**/{urn:xmpp:delay}delay@stamp|datetime", in: s), ["\"2010-07-10T23:08:25Z\""])
        XCTAssertEqual(texts("**/{jabber:client}message@from", in: s), ["romeo@montague.lit/orchard"])
        XCTAssertEqual(texts("**/{jabber:client}message", in: s), [
            "<message xmlns='jabber:client' from='romeo@montague.lit/orchard' type='chat'><body>Call me but love</body></message>",
        ])
    }

    func testEveryElementOnceInDocumentOrder() {
        let s = stanza(carbon)
        XCTAssertEqual(texts("**$", in: s), ["message", "sent", "forwarded", "message", "body", "body"])
        XCTAssertEqual(texts("/**$", in: s), ["message", "sent", "forwarded", "message", "body", "body"])
        // `**` twice, or after `*`, still reaches each element once.
        XCTAssertEqual(texts("**/**$", in: s), ["message", "sent", "forwarded", "message", "body", "body"])
        XCTAssertEqual(texts("{*}*/**$", in: s), ["sent", "forwarded", "message", "body", "body"])
        // The steps after `**` give their results in document order too.
        XCTAssertEqual(texts("**/{jabber:client}body#", in: s), ["inner", "outer"])
        XCTAssertEqual(texts("**/{*}*/{jabber:client}body#", in: s), ["inner"])
        XCTAssertEqual(texts("**/{jabber:client}message@from", in: s), ["juliet@capulet.lit/balcony"])
    }

    func testTheSegmentAfterAnyDepthInheritsItsParentsNamespace() {
        let s = stanza("""
            <message xmlns='jabber:client'><body>a</body><x xmlns='urn:x'><body>b</body>\
            <body xmlns='jabber:client'>c</body><y><body>d</body></y></x></message>
            """)
        // Each body is matched against its own parent's namespace, as any segment is.
        XCTAssertEqual(texts("**/body#", in: s), ["a", "b", "d"])
        XCTAssertEqual(texts("**/{jabber:client}body#", in: s), ["a", "c"])
        XCTAssertEqual(texts("**/{*}body#", in: s), ["a", "b", "c", "d"])
        XCTAssertEqual(texts("{urn:x}x/**/body#", in: s), ["b", "d"])
        XCTAssertEqual(texts("{urn:x}x/**/y$", in: s), ["y"])
        // A rooted `**` starts from the context node as well.
        XCTAssertEqual(texts("/**/body#", in: s), ["a", "b", "d"])
        // On an element inside the stanza, the inherited namespace is still its parent's.
        let x = s.childElements[1]
        XCTAssertEqual(texts("**/body#", in: x), ["b", "d"])
        XCTAssertEqual(texts("**$", in: x), ["x", "body", "body", "y", "body"])
    }

    func testAnyDepthLastAndWithFilters() {
        let s = stanza(carbon)
        XCTAssertEqual(texts("**@from", in: s), ["juliet@capulet.lit", "juliet@capulet.lit/balcony"])
        XCTAssertEqual(texts("**/{*}*<from~/>$", in: s), ["message"])
        XCTAssertEqual(texts("**/", in: s).count, 6)
        XCTAssertEqual(texts("**/@from", in: s), ["juliet@capulet.lit", "juliet@capulet.lit/balcony"])
    }

    func testFirstAndCheckStopEarly() throws {
        let s = stanza(carbon)
        XCTAssertEqual(try Query("**/{jabber:client}body#").findFirst(in: s), .string("inner"))
        XCTAssertEqual(try Query("**/{jabber:client}body").check(in: s), true)
        XCTAssertEqual(try Query("**/{urn:x}body").check(in: s), false)
    }

    // MARK: With `..`

    func testAnyDepthWithParent() {
        let s = stanza(carbon)
        // The parents of the bodies in document order: the inner message, then the stanza.
        XCTAssertEqual(texts("**/{jabber:client}body/..@from", in: s), ["juliet@capulet.lit/balcony", "juliet@capulet.lit"])
        XCTAssertEqual(texts("**/{jabber:client}body<#=inner>/../..$", in: s), ["forwarded"])
        // `..` reaches the stanza once per child (duplicates kept); `**` then reaches each element once.
        XCTAssertEqual(texts("{*}*/..$", in: s), ["message", "message"])
        XCTAssertEqual(texts("{*}*/../**$", in: s), ["message", "sent", "forwarded", "message", "body", "body"])
        XCTAssertEqual(texts("{*}*/../**/{jabber:client}body#", in: s), ["inner", "outer"])
        // Every element but the stanza is a child: their parents, in the children's order, duplicates kept.
        XCTAssertEqual(texts("**/{*}*/..$", in: s), ["message", "sent", "forwarded", "message", "message"])
        // `**` includes the stanza itself, which has no parent.
        XCTAssertEqual(evaluationError("**/..", in: s), "'..' at column 4 climbs above <message>, the root of the stanza")
        XCTAssertEqual(evaluationError("**/{jabber:client}body/../..", in: s),
                       "'..' at column 27 climbs above <message>, the root of the stanza")
        // From an element inside the stanza, `..` may climb out of it and `**` come back down.
        let sent = s.childElements[0]
        XCTAssertEqual(texts("../**/{jabber:client}body#", in: sent), ["inner", "outer"])
        XCTAssertEqual(texts("../**$", in: sent), ["message", "sent", "forwarded", "message", "body", "body"])
    }

    /// With and without `..`, a path with `**` reaches the same elements.
    func testBothEvaluationsAgree() throws {
        let stanzas = [stanza(carbon), stanza(mamResult), stanza("<a><b><a><b/><c><b/></c></a></b><c/></a>")]
        let queries = ["**", "**/{*}*", "**/**", "{*}*/**", "**/b", "**/{*}b/**", "**/a/**/b", "**/{*}*/**/{*}c"]
        for element in stanzas {
            for text in queries {
                let query = try Query(text)
                var traversed: [ObjectIdentifier] = []
                try query.evaluate(on: element, strict: false, limits: .default) { value in
                    if case .element(let found) = value { traversed.append(ObjectIdentifier(found)) }
                    return true
                }
                let stepwise = try query.select(from: element, limits: .default).map(ObjectIdentifier.init)
                XCTAssertEqual(Set(traversed), Set(stepwise), text)
                XCTAssertEqual(traversed.count, Set(traversed).count, "\(text): each element once")
                XCTAssertEqual(stepwise.count, Set(stepwise).count, "\(text): each element once, step by step")
            }
        }
    }

    // MARK: Limits and reach

    func testTheNodeLimitIsReachedThroughAnyDepth() throws {
        let limits = EvaluationLimits(elementsReached: 99)
        // 1 + 60 + 60 elements: `**` reaches all 121.
        let wide = stanza("<m>" + String(repeating: "<c><d/></c>", count: 60) + "</m>")
        XCTAssertEqual(evaluationError("**$", in: wide, limits: limits),
                       "the path reaches more than 99 elements at column 1, counting duplicates (evaluation abandoned)")
        XCTAssertEqual(evaluationError("**/d$", in: wide, limits: limits),
                       "the path reaches more than 99 elements at column 1, counting duplicates (evaluation abandoned)")
        XCTAssertEqual(evaluationError("/m/**/d$", in: wide, limits: limits),
                       "the path reaches more than 99 elements at column 4, counting duplicates (evaluation abandoned)")
        // Step by step (with `..`): `**` reaches each element once, however often `..` reached it.
        XCTAssertEqual(evaluationError("c/../**$", in: wide, limits: limits),
                       "the path reaches more than 99 elements at column 6, counting duplicates (evaluation abandoned)")
        XCTAssertEqual(evaluationError("c/d/../**$", in: wide, limits: limits),
                       "the path reaches more than 99 elements at column 8, counting duplicates (evaluation abandoned)")
        // Below the limit, the same stanza is fine.
        XCTAssertEqual(try Query("c/d/**$").find(in: wide, limits: limits).count, 60)
        XCTAssertEqual(try Query("c/d/**/..$").find(in: wide, limits: limits).count, 60)
        XCTAssertEqual(try Query("c<i=1>/**$").find(in: wide, limits: limits).count, 0)
    }

    func testAnyDepthNeedsTheWholeStanza() throws {
        XCTAssertNil(try Query("**/body#").reach)
        XCTAssertNil(try Query("a/**@id").reach)
        XCTAssertEqual(try Query("a/b@id").reach, 2)
    }

    // MARK: Data forms

    func testAnyDepthAndDataForms() {
        let s = stanza("""
            <iq xmlns='jabber:client' type='result'><query xmlns='http://jabber.org/protocol/disco#info'>\
            <x xmlns='jabber:x:data' type='result'><field var='FORM_TYPE' type='hidden'><value>urn:xmpp:http:upload:0</value></field>\
            <field var='max-file-size'><value>5242880</value></field></x></query></iq>
            """)
        XCTAssertEqual(texts(#"**/\{urn:xmpp:http:upload:0}result@max-file-size\|int"#, in: s), ["5242880"])
        XCTAssertEqual(texts("**/{jabber:x:data}field<var=max-file-size>/value#|int", in: s), ["5242880"])
        XCTAssertEqual(syntaxError(#"**\@max-file-size\"#), #"""
            query: a data-form subquery after '**' would read every element as a form: write **/\…\ for the forms at any depth at column 3
              **\@max-file-size\
                ^
            """#)
    }

    // MARK: Syntax

    func testAnyDepthStandsAlone() {
        let message = "'**' stands alone: it takes no name, namespace or filter"
        XCTAssertEqual(syntaxError("**<type=chat>"), "query: \(message) at column 1\n  **<type=chat>\n  ^")
        XCTAssertEqual(syntaxError("a/**b"), "query: \(message) at column 3\n  a/**b\n    ^")
        XCTAssertEqual(syntaxError("***"), "query: \(message) at column 1\n  ***\n  ^")
        XCTAssertEqual(syntaxError("{urn:x}**"), "query: \(message) at column 8\n  {urn:x}**\n         ^")
        XCTAssertEqual(syntaxError("a*/**"), """
            query: unexpected '*': expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end at column 2
              a*/**
               ^
            """)
    }

    func testParsedForm() throws {
        let syntax = try QuerySyntax(parsing: "a/**/b#")
        XCTAssertEqual(syntax.steps.count, 3)
        XCTAssertEqual(syntax.steps[1], .anyDepth(column: 3))
        XCTAssertEqual(try QuerySyntax(parsing: "**/").steps, [.anyDepth(column: 1)])
    }
}
