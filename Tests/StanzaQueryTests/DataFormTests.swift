import XCTest
@testable import StanzaQuery

/// SPEC 3.6: data-form (XEP-0004) subqueries.
final class DataFormTests: XCTestCase {

    let single = """
        <message xmlns='jabber:client' id='f1'><x xmlns='jabber:x:data' type='submit'><field var='FORM_TYPE' type='hidden'><value>urn:example:form</value></field><field var='Color' type='list-single' label='Colour'><desc>Pick one</desc><required/><value>red</value><option label='Red'><value>red</value></option><option><value>blue</value></option></field><field var='count'><value>42</value></field><field var='tags' type='list-multi'><value>a</value><value>b</value></field><field var='empty'><value></value></field><field var='novalue' type='text-single'/><field var='when'><value>2002-09-10T23:08:25Z</value></field></x></message>
        """

    let multi = """
        <iq xmlns='jabber:client' type='result' id='search2'><query xmlns='jabber:iq:search'><x xmlns='jabber:x:data' type='result'><field var='FORM_TYPE' type='hidden'><value>jabber:iq:search</value></field><reported><field var='first' label='Given Name' type='text-single'/><field var='jid' label='JID' type='jid-single'/></reported><item><field var='first'><value>Benvolio</value></field><field var='jid' type='text-single'><value>benvolio@montague.net</value></field><field var='extra' type='boolean'><value>1</value></field></item><item><field var='first'><value>Romeo</value></field><field var='jid'><value>romeo@montague.net</value></field></item></x></query></iq>
        """

    // MARK: @field

    func testFieldValue() {
        let s = stanza(single)
        XCTAssertEqual(texts(#"\@count\"#, in: s), ["42"])
        XCTAssertEqual(texts(#"{jabber:x:data}x\@count\"#, in: s), ["42"])
        XCTAssertEqual(texts(#"x\@count\"#, in: s), [])   // <x> inherits jabber:client: no form there
        XCTAssertEqual(texts(#"{jabber:x:data}\@count\"#, in: s), ["42"])
        XCTAssertEqual(texts(#"\@tags\"#, in: s), ["a"])
        XCTAssertEqual(texts(#"\@FORM_TYPE\"#, in: s), ["urn:example:form"])
        XCTAssertEqual(jsons(#"\@count\"#, in: s), ["\"42\""])
    }

    func testFieldNamesCompareCaseInsensitively() {
        let s = stanza(single)
        XCTAssertEqual(texts(#"\@color\"#, in: s), ["red"])
        XCTAssertEqual(texts(#"\@COLOR\"#, in: s), ["red"])
        XCTAssertEqual(texts(#"\@Count\"#, in: s), ["42"])
    }

    func testMissingFieldOrValueIsNoResult() {
        let s = stanza(single)
        XCTAssertEqual(texts(#"\@missing\"#, in: s), [])
        XCTAssertEqual(texts(#"\@novalue\"#, in: s), [])
        // Decision 5: an empty first value is no value.
        XCTAssertEqual(texts(#"\@empty\"#, in: s), [])
        XCTAssertEqual(texts(#"\@coun\"#, in: s), [])
    }

    func testConversionsOnFieldValues() {
        let s = stanza(single)
        XCTAssertEqual(texts(#"\@count\|int"#, in: s), ["42"])
        XCTAssertEqual(texts(#"\@count\|double"#, in: s), ["42"])
        XCTAssertEqual(texts(#"\@count\|bool"#, in: s), ["false"])
        XCTAssertEqual(texts(#"\@when\|datetime"#, in: s), ["2002-09-10T23:08:25Z"])
        XCTAssertEqual(texts(#"\@color\|datetime"#, in: s), [])
        XCTAssertEqual(texts(#"\@color\|uuidcast"#, in: s), [uuidCast("red").uuidString])
        XCTAssertEqual(evaluationError(#"\@color\|int"#, in: s, strict: true),
                       "'red' is not an integer from -9223372036854775808 to 9223372036854775807 (|int)")
        XCTAssertEqual(texts(#"\@count\|int"#, in: s, strict: true), ["42"])
    }

    // MARK: FORM_TYPE and type

    func testFormTypeSelection() {
        let s = stanza(single)
        XCTAssertEqual(texts(#"\{urn:example:form}@count\"#, in: s), ["42"])
        XCTAssertEqual(texts(#"\{urn:example:other}@count\"#, in: s), [])
        XCTAssertEqual(texts(#"\{*}@count\"#, in: s), ["42"])
        // FORM_TYPE compares exactly (decision 6).
        XCTAssertEqual(texts(#"\{URN:EXAMPLE:FORM}@count\"#, in: s), [])
        // A form without FORM_TYPE never matches a FORM_TYPE.
        let plain = stanza("<m><x xmlns='jabber:x:data' type='form'><field var='a'><value>1</value></field></x></m>")
        XCTAssertEqual(texts(#"\{urn:example:form}@a\"#, in: plain), [])
        XCTAssertEqual(texts(#"\{*}@a\"#, in: plain), ["1"])
        XCTAssertEqual(texts(#"\@a\"#, in: plain), ["1"])
    }

    func testFormTypeComesFromTheFormNotFromItems() {
        let s = stanza(multi)
        XCTAssertEqual(texts(#"{jabber:iq:search}query/\{jabber:iq:search}@first\"#, in: s), ["Benvolio"])
        XCTAssertEqual(texts(#"{jabber:iq:search}query/\{jabber:iq:search}[1]@first\"#, in: s), ["Romeo"])
        // A FORM_TYPE inside an item is not the form's.
        let inItem = stanza("""
            <q><x xmlns='jabber:x:data' type='result'><item><field var='FORM_TYPE'><value>urn:inner</value></field><field var='a'><value>1</value></field></item></x></q>
            """)
        XCTAssertEqual(texts(#"\{urn:inner}@a\"#, in: inItem), [])
        XCTAssertEqual(texts(#"\@a\"#, in: inItem), ["1"])
        XCTAssertEqual(texts(#"\@FORM_TYPE\"#, in: inItem), ["urn:inner"])
    }

    func testTypeSelection() {
        let s = stanza(single)
        XCTAssertEqual(texts(#"\submit@count\"#, in: s), ["42"])
        XCTAssertEqual(texts(#"\SUBMIT@count\"#, in: s), ["42"])
        XCTAssertEqual(texts(#"\result@count\"#, in: s), [])
        XCTAssertEqual(texts(#"\*@count\"#, in: s), ["42"])
        XCTAssertEqual(texts(#"\{urn:example:form}submit@count\"#, in: s), ["42"])
        XCTAssertEqual(texts(#"\{urn:example:form}form@count\"#, in: s), [])
        XCTAssertEqual(texts(#"\{*}*@count\"#, in: s), ["42"])
        let untyped = stanza("<m><x xmlns='jabber:x:data'><field var='a'><value>1</value></field></x></m>")
        XCTAssertEqual(texts(#"\form@a\"#, in: untyped), [])
        XCTAssertEqual(texts(#"\*@a\"#, in: untyped), ["1"])
    }

    func testEveryFormIsTried() {
        let s = stanza("""
            <m><x xmlns='jabber:x:data' type='form'><field var='a'><value>1</value></field></x><x xmlns='jabber:x:data' type='result'><field var='a'><value>2</value></field></x><x xmlns='jabber:x:data' type='result'><field var='b'><value>3</value></field></x></m>
            """)
        XCTAssertEqual(texts(#"\@a\"#, in: s), ["1", "2"])
        XCTAssertEqual(texts(#"\result@a\"#, in: s), ["2"])
        XCTAssertEqual(texts(#"\result@b\"#, in: s), ["3"])
    }

    // MARK: Items

    func testItemIndex() {
        let s = stanza(multi)
        let q = "{jabber:iq:search}query/"
        XCTAssertEqual(texts(q + #"\[0]@first\"#, in: s), ["Benvolio"])
        XCTAssertEqual(texts(q + #"\[1]@first\"#, in: s), ["Romeo"])
        XCTAssertEqual(texts(q + #"\[1]@JID\"#, in: s), ["romeo@montague.net"])
        XCTAssertEqual(texts(q + #"\result[1]@first\"#, in: s), ["Romeo"])
        // n ≥ number of items: no result (Monal's bound check is off by one).
        XCTAssertEqual(texts(q + #"\[2]@first\"#, in: s), [])
        XCTAssertEqual(texts(q + #"\[99]@first\"#, in: s), [])
        // Without an index, the first item.
        XCTAssertEqual(texts(q + #"\@first\"#, in: s), ["Benvolio"])
        // Fields of the form itself are not in any item.
        XCTAssertEqual(texts(q + #"\@FORM_TYPE\"#, in: s), [])
        XCTAssertEqual(texts(q + #"\[0]@FORM_TYPE\"#, in: s), [])
    }

    func testIndexOnAFormWithoutItemsIsNoResult() {
        let s = stanza(single)
        XCTAssertEqual(texts(#"\[0]@count\"#, in: s), [])
        XCTAssertEqual(texts(#"\[0]\"#, in: s), [])
        XCTAssertEqual(texts(#"\[0]%count\"#, in: s), [])
    }

    // MARK: %field and &field

    func testFieldDescription() {
        let s = stanza(single)
        let color = #"{"name":"Color","type":"list-single","value":"red","values":["red"],"options":{"red":"Red","blue":"blue"},"desc":"Pick one","required":true}"#
        XCTAssertEqual(texts(#"\%Color\"#, in: s), [color])
        XCTAssertEqual(texts(#"\&color\"#, in: s), [color])
        XCTAssertEqual(jsons(#"\%COLOR\"#, in: s), [color])
        XCTAssertEqual(texts(#"\%count\"#, in: s), [#"{"name":"count","value":"42","values":["42"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(#"\&tags\"#, in: s), [#"{"name":"tags","type":"list-multi","value":"a","values":["a","b"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(#"\%empty\"#, in: s), [#"{"name":"empty","values":[""],"options":{},"required":false}"#])
        XCTAssertEqual(texts(#"\%novalue\"#, in: s), [#"{"name":"novalue","type":"text-single","values":[],"options":{},"required":false}"#])
        XCTAssertEqual(texts(#"\%missing\"#, in: s), [])
        XCTAssertEqual(texts(#"\{urn:example:form}submit%FORM_TYPE\"#, in: s),
                       [#"{"name":"FORM_TYPE","type":"hidden","value":"urn:example:form","values":["urn:example:form"],"options":{},"required":false}"#])
    }

    func testFieldDescriptionValue() throws {
        let s = stanza(single)
        let value = try Query(#"\%Color\"#).findFirst(in: s)
        XCTAssertEqual(value, .field(FieldDescription(
            name: "Color", type: "list-single", value: "red", values: ["red"],
            options: [KeyValue("red", "Red"), KeyValue("blue", "blue")], desc: "Pick one", required: true)))
    }

    func testFieldDescriptionInItemsTakesTypeFromReported() {
        let s = stanza(multi)
        let q = "{jabber:iq:search}query/"
        XCTAssertEqual(texts(q + #"\[0]%first\"#, in: s),
                       [#"{"name":"first","type":"text-single","value":"Benvolio","values":["Benvolio"],"options":{},"required":false}"#])
        // <reported/> wins over the field's own type (decision 7)…
        XCTAssertEqual(texts(q + #"\[0]%jid\"#, in: s),
                       [#"{"name":"jid","type":"jid-single","value":"benvolio@montague.net","values":["benvolio@montague.net"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(q + #"\[1]&jid\"#, in: s),
                       [#"{"name":"jid","type":"jid-single","value":"romeo@montague.net","values":["romeo@montague.net"],"options":{},"required":false}"#])
        // …and the field's own type is the fallback.
        XCTAssertEqual(texts(q + #"\[0]%extra\"#, in: s),
                       [#"{"name":"extra","type":"boolean","value":"1","values":["1"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(q + #"\[1]%extra\"#, in: s), [])
        // Unindexed: the first item, never the form's own fields.
        XCTAssertEqual(texts(q + #"\%first\"#, in: s),
                       [#"{"name":"first","type":"text-single","value":"Benvolio","values":["Benvolio"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(q + #"\%FORM_TYPE\"#, in: s), [])
        XCTAssertEqual(texts(q + #"\[2]%first\"#, in: s), [])
    }

    func testDescriptionEscapesJSON() {
        let s = stanza("""
            <m><x xmlns='jabber:x:data'><field var='q' type='text-multi'><desc>Say "hi"\\</desc><value>line1</value><value>line2&#10;more</value><option label='A &amp; B'><value>a</value></option><option label=''><value>e</value></option></field></x></m>
            """)
        XCTAssertEqual(texts(#"\%q\"#, in: s),
                       [#"{"name":"q","type":"text-multi","value":"line1","values":["line1","line2\nmore"],"options":{"a":"A & B","e":""},"desc":"Say \"hi\"\\","required":false}"#])
    }

    // MARK: Whole form

    func testWholeForm() {
        let s = stanza("<message xmlns='jabber:client'><x xmlns='jabber:x:data' type='form'><field var='a'><value>1</value></field></x><x xmlns='jabber:x:data' type='result'/></message>")
        let form = "<x xmlns='jabber:x:data' type='form'><field var='a'><value>1</value></field></x>"
        XCTAssertEqual(texts(#"\\"#, in: s), [form, "<x xmlns='jabber:x:data' type='result'/>"])
        XCTAssertEqual(texts(#"\form\"#, in: s), [form])
        XCTAssertEqual(texts(#"\*\"#, in: s), [form, "<x xmlns='jabber:x:data' type='result'/>"])
        XCTAssertEqual(texts(#"\submit\"#, in: s), [])
        XCTAssertEqual(texts(#"{jabber:x:data}x\form\"#, in: s), [form])
        XCTAssertEqual(jsons(#"\form\"#, in: s), [#""<x xmlns='jabber:x:data' type='form'><field var='a'><value>1</value></field></x>""#])
    }

    func testWholeFormWithFormTypeAndIndex() {
        let s = stanza(multi)
        let results = texts(#"{jabber:iq:search}query/\{jabber:iq:search}result[1]\"#, in: s)
        XCTAssertEqual(results.count, 1)
        XCTAssertTrue(results.first?.hasPrefix("<x xmlns='jabber:x:data' type='result'><field var='FORM_TYPE'") ?? false, results.first ?? "")
        XCTAssertEqual(texts(#"{jabber:iq:search}query/\{jabber:iq:search}result[2]\"#, in: s), [])
    }

    // MARK: Where the subquery applies

    func testBareSubqueryReadsTheContextNodesForms() {
        // Decision 2.
        let s = stanza(single)
        XCTAssertEqual(texts(#"\@count\"#, in: s), ["42"])
        // A rooted empty segment: the context node itself, when it is a form.
        let form = s.childElements[0]
        XCTAssertEqual(texts(#"/\@count\"#, in: form), ["42"])
        XCTAssertEqual(texts(#"\@count\"#, in: form), [])
    }

    func testSubqueryOnNonFormElementIsAnEvaluationError() {
        let s = stanza("<message xmlns='jabber:client'><body>hi</body><x xmlns='jabber:x:data'/></message>")
        XCTAssertEqual(
            evaluationError(#"*\@count\"#, in: s),
            "the data-form subquery at column 2 met <body> in namespace 'jabber:client', which is not a {jabber:x:data}x form")
        XCTAssertEqual(
            evaluationError(#"{*}*\@count\"#, in: s),
            "the data-form subquery at column 5 met <body> in namespace 'jabber:client', which is not a {jabber:x:data}x form")
        let other = stanza("<message xmlns='jabber:client'><x xmlns='urn:not:a:form'/></message>")
        XCTAssertEqual(
            evaluationError(#"{*}x\@count\"#, in: other),
            "the data-form subquery at column 5 met <x> in namespace 'urn:not:a:form', which is not a {jabber:x:data}x form")
        // A rooted empty segment before the subquery selects the context node only if it is a form.
        XCTAssertEqual(texts(#"/\@count\"#, in: other), [])
    }

    func testFieldNameCharacters() {
        let s = stanza("<m><x xmlns='jabber:x:data'><field var='muc#roomconfig_room-name.2:x'><value>v</value></field></x></m>")
        XCTAssertEqual(texts(#"\@muc#roomconfig_room-name.2:x\"#, in: s), ["v"])
    }
}
