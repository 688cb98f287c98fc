import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

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

    func testAnyDepthTakesNoNameOrNamespace() {
        XCTAssertEqual(syntaxError("a/**b"), """
            query: '**' takes no name or namespace: for such elements at any depth write **/b; \
            to filter every element, the context node included, **<…> at column 3
              a/**b
                ^
            """)
        XCTAssertEqual(syntaxError("**message<type=chat>"), """
            query: '**' takes no name or namespace: for such elements at any depth write **/message; \
            to filter every element, the context node included, **<…> at column 1
              **message<type=chat>
              ^
            """)
        XCTAssertEqual(syntaxError("***"), """
            query: '***' is not a segment: '**' is any depth, '*' any element; write **/* for the elements below at column 1
              ***
              ^
            """)
        XCTAssertEqual(syntaxError("{urn:x}**"), """
            query: '**' takes no namespace: for elements of a namespace at any depth write **/{namespace} at column 8
              {urn:x}**
                     ^
            """)
        XCTAssertEqual(syntaxError("a*/**"), """
            query: unexpected '*': expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end at column 2
              a*/**
               ^
            """)
    }

    // MARK: Anywhere: `**<…>` and `<*~…>`

    /// A message to a ghost, in its own `to` and in a forwarded one.
    let ghostly = """
        <message xmlns='jabber:client' to='ghost@elsinore.lit' id='m1'>\
        <forwarded xmlns='urn:xmpp:forward:0'>\
        <message xmlns='jabber:client' to='ghost@elsinore.lit/ramparts' id='m2'><body>Remember me</body></message>\
        </forwarded><body>Angels and ministers of grace</body></message>
        """

    func testFiltersAfterAnyDepthIncludeTheContextNode() {
        let s = stanza(ghostly)
        // `**/<…>` tests the children of the nodes reached: the stanza itself is not one.
        XCTAssertEqual(texts("**/<to~ghost>@id", in: s), [])
        XCTAssertEqual(texts("**/{*}<to~ghost>@id", in: s), ["m2"])
        // `**<…>` tests every node reached, whatever its name and namespace.
        XCTAssertEqual(texts("**<to~ghost>@id", in: s), ["m1", "m2"])
        XCTAssertEqual(texts("**<to~ghost><id=m2>$", in: s), ["message"])
        XCTAssertEqual(texts("**<#~remember>$", in: s), ["body"])
        XCTAssertEqual(texts("**<to~ramparts>/**/body#", in: s), ["Remember me"])
        // Further segments go on from the nodes kept.
        XCTAssertEqual(texts("**<to~ghost>/body#", in: s), ["Remember me", "Angels and ministers of grace"])
        // With '..', evaluated step by step, the same nodes.
        XCTAssertEqual(texts("**<to~ramparts>/../..@id", in: s), ["m1"])
    }

    func testAnyAttributeFilter() {
        let s = stanza(ghostly)
        XCTAssertEqual(texts("/<*~^ghost@>@id", in: s), ["m1"])
        XCTAssertEqual(texts("/<*=M1>$", in: s), ["message"])
        XCTAssertEqual(texts("/<*~^nobody>$", in: s), [])
        // The namespace is an attribute here as `@@` gives it.
        XCTAssertEqual(texts("**<*=urn:xmpp:forward:0>$", in: s), ["forwarded"])
        XCTAssertEqual(texts("**<*~ramparts>@id", in: s), ["m2"])
        // Anywhere, as `grep ghost` finds it: an attribute's value, or the text.
        XCTAssertEqual(texts("**<*~remember>$", in: s), [])
        XCTAssertEqual(texts("**<#~remember>$", in: s), ["body"])
        XCTAssertEqual(syntaxError("/<*=>"), """
            query: expected a value after '=' (to match an empty value, use <*~^$>) at column 5
              /<*=>
                  ^
            """)
        XCTAssertEqual(syntaxError("/<*>"), """
            query: expected '=' or '~' after '*' in the any-attribute filter, found '>' at column 4
              /<*>
                 ^
            """)
    }

    func testAnywhereIsAnExtension() throws {
        let used = try QuerySyntax(parsing: "**<*~a><#~b>").extensionsUsed.map(\.message)
        XCTAssertEqual(used, [
            "Monal's language has no '**' (any depth, a stanzaq extension)",
            "Monal's language has no any-attribute filter '<*~…>' (a stanzaq extension)",
            "Monal's language has no text filter '<#~…>' (a stanzaq extension)",
        ])
    }

    func testExplainedAnywhere() throws {
        XCTAssertEqual(try QuerySyntax(parsing: "**<*~ghost>@id").explanation, """
            query: **<*~ghost>@id
            start: the children of the context node
            1. any depth: the nodes reached so far and all their descendants, each once, in document order (stanzaq extension)
            2. keep: of those, the elements (any name, any namespace) that pass the filters (stanzaq extension)
               where any attribute's value (xmlns included) matches the regular expression 'ghost', ignoring case (stanzaq extension)
            extract: attribute 'id'
            """)
        XCTAssertEqual(try QuerySyntax(parsing: "**/<to~ghost>").explanation, """
            query: **/<to~ghost>
            start: the children of the context node
            1. any depth: the nodes reached so far and all their descendants, each once, in document order (stanzaq extension)
               note: the next segment's filters test the children of these nodes, not the nodes themselves: \
            '**<…>' tests them all, the context node included
            2. select: any element in the parent's namespace
               where 'to' matches the regular expression 'ghost', ignoring case
            result: the selected elements
            """)
    }

    func testParsedForm() throws {
        let syntax = try QuerySyntax(parsing: "a/**/b#")
        XCTAssertEqual(syntax.steps.count, 3)
        XCTAssertEqual(syntax.steps[1], .anyDepth(column: 3))
        XCTAssertEqual(try QuerySyntax(parsing: "**/").steps, [.anyDepth(column: 1)])
        let kept = try QuerySyntax(parsing: "**<a=b>").steps
        XCTAssertEqual(kept.count, 2)
        XCTAssertEqual(kept.first, .anyDepth(column: 1))
    }
}
