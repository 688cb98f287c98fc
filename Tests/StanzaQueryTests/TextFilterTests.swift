import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// Text filters `<#=v>` and `<#~re>` (stanzaq-query(7), EXTENSIONS): the
/// element's text as `#` reads it, compared as attribute filters compare.
final class TextFilterTests: XCTestCase {

    let chat = """
        <message xmlns='jabber:client' from='tybalt@capulet.lit' id='m1'><body>Where is Tybalt?</body>\
        <thread>t1</thread><x xmlns='urn:x'>in x<y>deep</y></x><empty/><space> </space></message>
        """

    func testEqualsIgnoringCase() {
        let s = stanza(chat)
        XCTAssertEqual(texts("body<#=Where is Tybalt?>#", in: s), ["Where is Tybalt?"])
        XCTAssertEqual(texts("body<#=WHERE IS TYBALT?>/..@id", in: s), ["m1"])
        XCTAssertEqual(jsons("body<#=where is tybalt?>#", in: s), ["\"Where is Tybalt?\""])
        XCTAssertEqual(texts("body<#=Where is>#", in: s), [])
        XCTAssertEqual(texts("/<#=x>$", in: s), [])
    }

    func testMatches() {
        let s = stanza(chat)
        XCTAssertEqual(texts("/{jabber:client}message/body<#~tybalt>/..@from", in: s), ["tybalt@capulet.lit"])
        XCTAssertEqual(texts("{*}*<#~^t\\d$>$", in: s), ["thread"])
        XCTAssertEqual(texts("{*}*<#~.>$", in: s), ["body", "thread", "x", "space"])
        // Several filters all hold; attribute and text filters mix.
        XCTAssertEqual(texts("/<from~^tybalt@>/body<#~\\?$>#", in: s), ["Where is Tybalt?"])
        XCTAssertEqual(texts("/<from~^romeo@>/body<#~\\?$>#", in: s), [])
    }

    func testTheTextIsTheDirectText() {
        let s = stanza(chat)
        // <x> holds "in x" and a child <y>: its text is its own, "in x".
        XCTAssertEqual(texts("{urn:x}x<#=in x>$", in: s), ["x"])
        XCTAssertEqual(texts("{urn:x}x<#~deep>$", in: s), [])
        XCTAssertEqual(texts("**/{urn:x}y<#=deep>$", in: s), ["y"])
        // Whitespace-only text counts; an element without text never passes.
        XCTAssertEqual(texts("space<#~^ $>$", in: s), ["space"])
        XCTAssertEqual(texts("empty<#~^>$", in: s), [])
        XCTAssertEqual(texts("empty<#~.*>$", in: s), [])
    }

    func testFormatArguments() {
        let s = stanza(chat)
        XCTAssertEqual(texts("body<#=%@>/..@id", ["where is tybalt?"], in: s), ["m1"])
        XCTAssertEqual(texts("thread<#=t%d>$", ["1"], in: s), ["thread"])
        XCTAssertEqual(texts("body<#~^%@>$", ["Where is"], in: s), ["body"])
        // The argument is a literal: its "?" is not a regex quantifier.
        XCTAssertEqual(texts("body<#~%@$>$", ["Tybalt?"], in: s), ["body"])
        XCTAssertEqual(texts("body<#~%@$>$", ["Tybalt.?"], in: s), [])
    }

    func testCaseSensitive() throws {
        let s = stanza(chat)
        let options = QueryOptions(caseSensitive: true)
        XCTAssertEqual(try Query("body<#=where is tybalt?>$", options: options).find(in: s), [])
        XCTAssertEqual(try Query("body<#=Where is Tybalt?>$", options: options).find(in: s), [.string("body")])
        XCTAssertEqual(try Query("body<#~TYBALT>$", options: options).find(in: s), [])
        XCTAssertEqual(try Query("body<#~Tybalt>$", options: options).find(in: s), [.string("body")])
    }

    func testDataForms() {
        let s = stanza("""
            <iq xmlns='jabber:client'><query xmlns='http://jabber.org/protocol/disco#info'>\
            <x xmlns='jabber:x:data' type='result'><field var='FORM_TYPE' type='hidden'><value>urn:xmpp:http:upload:0</value></field>\
            <field var='max-file-size'><value>5242880</value></field></x>\
            <x xmlns='jabber:x:data' type='result'><field var='FORM_TYPE' type='hidden'><value>urn:xmpp:dataforms:softwareinfo</value></field>\
            <field var='software'><value>Prosody</value></field></x></query></iq>
            """)
        // The form whose FORM_TYPE value is the upload namespace: its type, and the forms' fields by value.
        XCTAssertEqual(texts("{http://jabber.org/protocol/disco#info}query/{jabber:x:data}x/field<var=FORM_TYPE>/value<#=urn:xmpp:http:upload:0>/../..@type", in: s),
                       ["result"])
        XCTAssertEqual(texts("**/{jabber:x:data}value<#~^prosody$>/..@var", in: s), ["software"])
        XCTAssertEqual(texts("**/{jabber:x:data}field<#~.>@var", in: s), [])
    }

    func testTheRegexLimitNamesTheText() throws {
        let limits = EvaluationLimits.withoutTimeLimit(regularExpressionSteps: 100_000)
        let s = stanza("<m><b>" + String(repeating: "a", count: 30) + "b</b></m>")
        XCTAssertEqual(evaluationError("b<#~^(a+)+c>", in: s, limits: limits),
                       "the regular expression '^(a+)+c' backtracked more than 100000 times on the text of <b> (matching abandoned)")
    }

    func testSyntax() {
        XCTAssertEqual(syntaxError("a<#>"), """
            query: expected '=' or '~' after '#' in the text filter, found '>' at column 4
              a<#>
                 ^
            """)
        XCTAssertEqual(syntaxError("a<#=>"), """
            query: expected a value after '=' (an element without text never passes a text filter) at column 5
              a<#=>
                  ^
            """)
        XCTAssertEqual(syntaxError("a<#~x"), """
            query: expected '>' to close the text filter at column 6
              a<#~x
                   ^
            """)
        XCTAssertEqual(syntaxError("a<#~(>"), """
            query: invalid regular expression '(' at column 5
              a<#~(>
                  ^
            """)
    }

    func testParsedForm() throws {
        let syntax = try QuerySyntax(parsing: "a<#=x><b~y>")
        guard case .select(let selector) = syntax.steps[0] else { return XCTFail("not a selection") }
        XCTAssertEqual(selector.filters.map(\.subject), [.text, .attribute(.init(name: "b", namespace: .none))])
        XCTAssertEqual(selector.filters.map(\.column), [2, 7])
    }
}
