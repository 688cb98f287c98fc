import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// `QuerySyntax.explanation` (stanzaq --explain) and the parsed form of queries.
final class ExplainTests: XCTestCase {

    private func explain(_ query: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            return try QuerySyntax(parsing: query).explanation
        } catch {
            XCTFail("\(query): \(error)", file: file, line: line)
            return ""
        }
    }

    func testDocumentedExample() {
        XCTAssertEqual(explain("{urn:xmpp:delay}delay@stamp|datetime"), """
            query: {urn:xmpp:delay}delay@stamp|datetime
            start: the children of the context node
            1. select: elements named 'delay' in namespace 'urn:xmpp:delay'
            extract: attribute 'stamp'
            convert: datetime (XEP-0082 date and time; no result if invalid)
            """)
    }

    func testEmptyQuery() {
        XCTAssertEqual(explain(""), """
            query: (empty: the context node itself)
            start: the context node itself
            result: the selected elements
            """)
    }

    func testRootedQueryWithFilters() {
        XCTAssertEqual(explain("/<type=result>/{http://jabber.org/protocol/pubsub}pubsub/subscription<node=%@><jid~^juliet>@subscription"), """
            query: /<type=result>/{http://jabber.org/protocol/pubsub}pubsub/subscription<node=%@><jid~^juliet>@subscription
            start: the context node itself (rooted query)
            1. select: the context node, if it is any element in any namespace
               where 'type' equals 'result', ignoring case
            2. select: elements named 'pubsub' in namespace 'http://jabber.org/protocol/pubsub'
            3. select: elements named 'subscription' in the parent's namespace
               where 'node' equals '%@', ignoring case (format arguments filled in)
               where 'jid' matches the regular expression '^juliet', ignoring case
            extract: attribute 'subscription'
            """)
    }

    func testRootedNamedFirstSegment() {
        XCTAssertEqual(explain("/message/body#"), """
            query: /message/body#
            start: the context node itself (rooted query)
            1. select: the context node, if it is an element named 'message' in its parent's namespace (any, on a stanza)
            2. select: elements named 'body' in the parent's namespace
            extract: the text
            """)
    }

    func testParentNegationAndAllAttributes() {
        XCTAssertEqual(explain("a/../{*}!b@@"), """
            query: a/../{*}!b@@
            start: the children of the context node
            1. select: elements named 'a' in the parent's namespace
            2. up: the parent of each node reached so far
            3. select: elements not named 'b' in any namespace
            extract: all attributes, as a map (with xmlns)
            """)
    }

    func testAttributeNameForms() {
        XCTAssertEqual(explain("*<xml:lang=de><{urn:x}a~.>@{urn:y}b"), """
            query: *<xml:lang=de><{urn:x}a~.>@{urn:y}b
            start: the children of the context node
            1. select: any element in the parent's namespace
               where 'xml:lang' (prefix resolved by --ns, else on the element) equals 'de', ignoring case
               where 'a' in namespace 'urn:x' matches the regular expression '.', ignoring case
            extract: attribute 'b' in namespace 'urn:y'
            """)
        XCTAssertEqual(explain("@p:a"), """
            query: @p:a
            start: the context node itself
            extract: attribute 'p:a' (prefix resolved by --ns, else on the element)
            """)
    }

    func testBareNameWithConversion() {
        XCTAssertEqual(explain("$|uuidcast"), """
            query: $|uuidcast
            start: the context node itself
            extract: the element name
            convert: uuidcast (the UUID, or one made from the SHA-256 of the text)
            """)
    }

    func testDataForm() {
        XCTAssertEqual(explain(#"{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}result[0]@max-file-size\|int"#), #"""
            query: {http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}result[0]@max-file-size\|int
            start: the children of the context node
            1. select: elements named 'query' in namespace 'http://jabber.org/protocol/disco#info'
            2. select: elements named 'x' in namespace 'jabber:x:data'
            extract: data form (XEP-0004)
               FORM_TYPE: 'urn:xmpp:http:upload:0'
               form type: 'result'
               item: 0 (0-based)
               result: the first value of field 'max-file-size'
            convert: int (leading integer, saturating; 0 if none)
            """#)
        XCTAssertEqual(explain(#"\%f\"#), #"""
            query: \%f\
            start: the children of the context node
            1. select: elements named 'x' in namespace 'jabber:x:data'
            extract: data form (XEP-0004)
               FORM_TYPE: any
               form type: any
               result: a description of field 'f'
            """#)
        XCTAssertEqual(explain(#"\{*}*\"#), #"""
            query: \{*}*\
            start: the children of the context node
            1. select: elements named 'x' in namespace 'jabber:x:data'
            extract: data form (XEP-0004)
               FORM_TYPE: any
               form type: any
               result: the form element
            """#)
    }

    func testEveryConversionSummary() {
        let summaries = [
            "bool": "bool (true for 'true' or '1', else false)",
            "int": "int (leading integer, saturating; 0 if none)",
            "uint": "uint (the int, reinterpreted as unsigned)",
            "double": "double (leading decimal number; 0 if none)",
            "datetime": "datetime (XEP-0082 date and time; no result if invalid)",
            "base64": "base64 (decoded bytes; no result if invalid)",
            "uuid": "uuid (no result if not a UUID)",
            "uuidcast": "uuidcast (the UUID, or one made from the SHA-256 of the text)",
        ]
        XCTAssertEqual(Set(summaries.keys), Set(Conversion.allCases.map(\.rawValue)))
        for (name, summary) in summaries {
            XCTAssertEqual(explain("#|\(name)"), "query: #|\(name)\nstart: the context node itself\nextract: the text\nconvert: \(summary)")
        }
    }

    // MARK: The parsed form

    func testParsedSyntax() throws {
        let syntax = try QuerySyntax(parsing: "/{urn:a}b<c=d><{urn:e}f~g>/../*@h:i|int")
        XCTAssertTrue(syntax.rooted)
        XCTAssertEqual(syntax.steps, [
            .select(.init(namespace: .uri("urn:a"), name: .named("b"), filters: [
                .init(subject: .attribute(.init(name: "c", namespace: .none)), test: .equals([.literal("d")]), column: 10),
                .init(subject: .attribute(.init(name: "f", namespace: .uri("urn:e"))), test: .matches(pattern: [.literal("g")], column: 25),
                      column: 15),
            ], column: 2)),
            .parent(column: 28),
            .select(.init(namespace: .inherited, name: .any, filters: [], column: 31)),
        ])
        XCTAssertEqual(syntax.extraction, .attribute(.init(name: "i", namespace: .prefix("h"))))
        XCTAssertEqual(syntax.conversion?.conversion, .int)
        XCTAssertEqual(syntax.conversion?.column, 37)
    }

    func testParsedDataForm() throws {
        let syntax = try QuerySyntax(parsing: #"\\{urn:f}submit[3]&field\\"#)
        XCTAssertEqual(syntax.extraction, .dataForm(.init(formType: "urn:f", type: "submit", index: 3, field: .description("field"), column: 1)))
        XCTAssertEqual(try QuerySyntax(parsing: #"\{*}*@x\"#).extraction,
                       .dataForm(.init(formType: nil, type: nil, index: nil, field: .value("x"), column: 1)))
    }
}
