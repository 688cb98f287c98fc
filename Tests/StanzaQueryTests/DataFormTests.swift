import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// stanzaq-query(7), DATA FORMS: data-form (XEP-0004) subqueries.
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
        // stanzaq-query(7), COMPATIBILITY, decision 5: an empty value is no value.
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
        // FORM_TYPE compares exactly (stanzaq-query(7), COMPATIBILITY, decision 6).
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
        // The type compares exactly, as Monal's isEqualToString: does.
        XCTAssertEqual(texts(#"\SUBMIT@count\"#, in: s), [])
        XCTAssertEqual(texts(#"\Submit@count\"#, in: s), [])
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
        // An empty <value/> is no value, as # of an empty element is no text.
        XCTAssertEqual(texts(#"\%empty\"#, in: s), [#"{"name":"empty","values":[],"options":{},"required":false}"#])
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
        // Indexed, <reported/> gives the type when it has the field…
        XCTAssertEqual(texts(q + #"\[0]%jid\"#, in: s),
                       [#"{"name":"jid","type":"jid-single","value":"benvolio@montague.net","values":["benvolio@montague.net"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(q + #"\[1]&jid\"#, in: s),
                       [#"{"name":"jid","type":"jid-single","value":"romeo@montague.net","values":["romeo@montague.net"],"options":{},"required":false}"#])
        // …and the field's own type when it does not have it.
        XCTAssertEqual(texts(q + #"\[0]%extra\"#, in: s),
                       [#"{"name":"extra","type":"boolean","value":"1","values":["1"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(q + #"\[1]%extra\"#, in: s), [])
        // Unindexed: the first item, never the form's own fields, and the
        // field's own type (none here), never <reported/>'s.
        XCTAssertEqual(texts(q + #"\%first\"#, in: s),
                       [#"{"name":"first","value":"Benvolio","values":["Benvolio"],"options":{},"required":false}"#])
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
        // stanzaq-query(7), COMPATIBILITY, decision 2.
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

/// Data forms as Monal's code reads them (stanzaq-query(7), DATA FORMS).
final class DataFormFidelityTests: XCTestCase {

    func testFieldIsTheFirstNonEmptyValueAmongFieldsOfThatName() throws {
        // Monal: findFirst:@"field<var=%@>/value#".
        let s = stanza("""
            <m><x xmlns='jabber:x:data'><field var='a'><value/><value></value></field><field var='A'><value>second</value><value>third</value></field><field var='b'><value/></field></x></m>
            """)
        XCTAssertEqual(texts(#"\@a\"#, in: s), ["second"])
        XCTAssertEqual(texts(#"\@b\"#, in: s), [])
        XCTAssertEqual(jsons(#"\%a\"#, in: s), [#"{"name":"a","values":[],"options":{},"required":false}"#])
        XCTAssertEqual(jsons(#"\%b\"#, in: s), [#"{"name":"b","values":[],"options":{},"required":false}"#])
        let mixed = stanza("<m><x xmlns='jabber:x:data'><field var='c' type='list-multi'><value/><value>2</value><value></value><value>3</value></field></x></m>")
        XCTAssertEqual(texts(#"\@c\"#, in: mixed), ["2"])
        XCTAssertEqual(jsons(#"\%c\"#, in: mixed),
                       [#"{"name":"c","type":"list-multi","value":"2","values":["2","3"],"options":{},"required":false}"#])
    }

    func testOptionsHaveOneKeyPerValue() throws {
        let s = stanza("""
            <m><x xmlns='jabber:x:data'><field var='o' type='list-single'><option label='One'><value>1</value></option><option label='Two'><value>2</value></option><option label='Uno'><value>1</value></option><option><value>2</value></option></field></x></m>
            """)
        XCTAssertEqual(jsons(#"\%o\"#, in: s),
                       [#"{"name":"o","type":"list-single","values":[],"options":{"1":"Uno","2":"2"},"required":false}"#])
        XCTAssertEqual(try Query(#"\%o\"#).findFirst(in: s), .field(FieldDescription(
            name: "o", type: "list-single", value: nil, values: [],
            options: [KeyValue("1", "Uno"), KeyValue("2", "2")], desc: nil, required: false)))
    }

    func testTypeComesFromReportedOnlyWhenIndexed() {
        let s = stanza("""
            <q><x xmlns='jabber:x:data' type='result'><reported><field var='a' type='text-single'/><field var='b'/></reported><item><field var='a' type='hidden'><value>1</value></field><field var='b' type='boolean'><value>0</value></field><field var='c' type='fixed'><value>x</value></field></item></x></q>
            """)
        // Indexed: <reported/>'s type, none when <reported/> has the field without one…
        XCTAssertEqual(texts(#"\[0]%a\"#, in: s), [#"{"name":"a","type":"text-single","value":"1","values":["1"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(#"\[0]%b\"#, in: s), [#"{"name":"b","value":"0","values":["0"],"options":{},"required":false}"#])
        // …the field's own when <reported/> lacks the field.
        XCTAssertEqual(texts(#"\[0]%c\"#, in: s), [#"{"name":"c","type":"fixed","value":"x","values":["x"],"options":{},"required":false}"#])
        // Unindexed: the field's own.
        XCTAssertEqual(texts(#"\%a\"#, in: s), [#"{"name":"a","type":"hidden","value":"1","values":["1"],"options":{},"required":false}"#])
        XCTAssertEqual(texts(#"\%b\"#, in: s), [#"{"name":"b","type":"boolean","value":"0","values":["0"],"options":{},"required":false}"#])
    }

    func testTypeComparesExactly() {
        let s = stanza("<m><x xmlns='jabber:x:data' type='Result'><field var='a'><value>1</value></field></x></m>")
        XCTAssertEqual(texts(#"\result@a\"#, in: s), [])
        XCTAssertEqual(texts(#"\Result@a\"#, in: s), ["1"])
        XCTAssertEqual(texts(#"\*@a\"#, in: s), ["1"])
    }

    func testHugeIndexIsNoResult() throws {
        let s = stanza("<q><x xmlns='jabber:x:data'><item><field var='a'><value>1</value></field></item></x></q>")
        XCTAssertEqual(texts(#"\[0]@a\"#, in: s), ["1"])
        XCTAssertEqual(texts(#"\[99999999999999999999999999]@a\"#, in: s), [])
        XCTAssertEqual(texts(#"\[9223372036854775807]%a\"#, in: s), [])
    }

    func testSubqueryAfterParent() throws {
        let s = stanza("<m><x xmlns='jabber:x:data' type='form'><field var='a'><value>1</value></field></x><b><c/></b></m>")
        XCTAssertEqual(texts(#"{jabber:x:data}x/field/..\@a\"#, in: s), ["1"])
        XCTAssertEqual(texts(#"{jabber:x:data}x/field/..\form\"#, in: s).count, 1)
        XCTAssertEqual(texts(#"{jabber:x:data}x/field/..\@a\|int"#, in: s), ["1"])
        XCTAssertEqual(evaluationError(#"b/c/..\@a\"#, in: s),
                       "the data-form subquery at column 7 met <b> in namespace '', which is not a {jabber:x:data}x form")
        // The reader builds deep enough for it.
        XCTAssertEqual(try Query(#"{jabber:x:data}x/field/..\@a\"#).reach, 5)
        XCTAssertEqual(try Query(#"\@a\"#).reach, 5)
    }
}
