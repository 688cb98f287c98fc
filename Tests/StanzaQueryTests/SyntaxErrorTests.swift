import XCTest
import StanzaQuery

/// stanzaq-query(7), QUERY ERRORS: syntax and compile-time errors, with the column and the caret.
/// One test per error the parser (QueryParser.swift) and the compiler raise.
final class SyntaxErrorTests: XCTestCase {

    /// The full description of an error at `column` of `query`.
    private func rendered(_ message: String, _ query: String, column: Int) -> String {
        "query: \(message) at column \(column)\n  \(query)\n  " + String(repeating: " ", count: column - 1) + "^"
    }

    private func assertError(_ query: String, _ message: String, column: Int,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(syntaxError(query, file: file, line: line), rendered(message, query, column: column), file: file, line: line)
        // The parser alone reports the same (all of these are found before compiling).
        do {
            _ = try QuerySyntax(parsing: query)
            XCTFail("QuerySyntax(parsing: \(query)) accepted the query", file: file, line: line)
        } catch {
            XCTAssertEqual(error.message, message, file: file, line: line)
            XCTAssertEqual(error.column, column, file: file, line: line)
            XCTAssertEqual(error.query, query, file: file, line: line)
        }
    }

    // MARK: stanzaq-query(7)'s example of a syntax error, literally

    func testSpecExample() {
        XCTAssertEqual(syntaxError("{urn:x}item<node=a"), """
            query: expected '>' to close the attribute filter at column 19
              {urn:x}item<node=a
                                ^
            """)
    }

    func testCaretCountsUnicodeScalars() {
        XCTAssertEqual(syntaxError("{ü}a b"), """
            query: unexpected ' ': expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end at column 5
              {ü}a b
                  ^
            """)
    }

    func testCaretAtColumnOne() {
        XCTAssertEqual(syntaxError("|int"), """
            query: a conversion needs an extraction before it (@attr, # or $), as in @h|int at column 1
              |int
              ^
            """)
    }

    // MARK: Segments

    func testUnexpectedCharacterAfterASegment() {
        let expected = "expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end"
        assertError("a b", "unexpected ' ': " + expected, column: 2)
        assertError("a>b", "unexpected '>': " + expected, column: 2)
        assertError("{urn:a}b}", "unexpected '}': " + expected, column: 9)
    }

    func testParentStandsAlone() {
        assertError("..x", "'..' stands alone: it takes no name, namespace or filter", column: 1)
        assertError("a/..<b=c>", "'..' stands alone: it takes no name, namespace or filter", column: 3)
        assertError("a/..{urn:a}", "'..' stands alone: it takes no name, namespace or filter", column: 3)
    }

    func testNegationNeedsAName() {
        assertError("!", "expected an element name after '!'", column: 2)
        assertError("{urn:a}!<x=y>", "expected an element name after '!'", column: 9)
    }

    func testUnclosedNamespace() {
        assertError("{urn:a", "expected '}' to close the namespace opened at column 1", column: 7)
        assertError("a/{urn:a/b", "expected '}' to close the namespace opened at column 3", column: 11)
    }

    func testEmptyNamespace() {
        assertError("{}a", "expected a namespace between '{' and '}' ('*' for any)", column: 2)
    }

    // MARK: Filters and attribute names

    func testUnclosedFilter() {
        assertError("{urn:x}item<node=a", "expected '>' to close the attribute filter", column: 19)
        assertError("a<b~^x", "expected '>' to close the attribute filter", column: 7)
    }

    func testFilterNeedsEqualsOrTilde() {
        assertError("a<b>", "expected '=' or '~' after the attribute name in the filter, found '>'", column: 4)
        assertError("a<b", "expected '=' or '~' after the attribute name in the filter, found the end of the query", column: 4)
        assertError("a<b!c>", "expected '=' or '~' after the attribute name in the filter, found '!'", column: 4)
    }

    func testFilterNeedsARegex() {
        assertError("a<b~>", "expected a regular expression after '~'", column: 5)
    }

    func testFilterNeedsAValue() {
        // stanzaq-query(7), COMPATIBILITY, decision 4.
        assertError("a<type=>", "expected a value after '=' (to match an empty value, use <type~^$>)", column: 8)
    }

    func testFilterNeedsAnAttributeName() {
        assertError("a<=b>", "expected an attribute name after '<', found '='", column: 3)
        assertError("a<>", "expected an attribute name after '<', found '>'", column: 3)
    }

    func testExtractionNeedsAnAttributeName() {
        assertError("@", "expected an attribute name after '@', found the end of the query", column: 2)
        assertError("a@|int", "expected an attribute name after '@', found '|'", column: 3)
    }

    func testMalformedPrefixedAttributeName() {
        assertError("@p:", "'p:' is not an attribute name: write prefix:name or {namespace}name", column: 2)
        assertError("a<:x=1>", "':x' is not an attribute name: write prefix:name or {namespace}name", column: 3)
        assertError("@a:b:c", "'a:b:c' is not an attribute name: write prefix:name or {namespace}name", column: 2)
    }

    func testAttributeNamespaceNeedsAName() {
        assertError("@{urn:a}", "expected an attribute name after '{urn:a}'", column: 9)
        assertError("a<{urn:a}=1>", "expected an attribute name after '{urn:a}'", column: 10)
    }

    func testAttributeNamespaceUnclosedOrEmpty() {
        assertError("@{urn:a", "expected '}' to close the attribute namespace opened at column 2", column: 8)
        assertError("a<{}b=c>", "expected an attribute namespace between '{' and '}'", column: 4)
    }

    func testUnsupportedFormatSpecifier() {
        let supported = "(supported: %@ %s %d %i %u %ld %li %lu %lld %lli %llu %zd %zu, and %% for '%')"
        assertError("a<b=%x>", "unsupported format specifier '%x' " + supported, column: 5)
        assertError("a<b=100%>", "unsupported format specifier '%' " + supported, column: 8)
        assertError("a<b=%l>", "unsupported format specifier '%l' " + supported, column: 5)
        assertError("a<b=x%%y%5d>", "unsupported format specifier '%5' " + supported, column: 9)
    }

    func testInvalidRegularExpression() {
        XCTAssertEqual(syntaxError("a<b~(>"), rendered("invalid regular expression '('", "a<b~(>", column: 5))
        XCTAssertEqual(syntaxError("a/c<d=1><b~x[>"), rendered("invalid regular expression 'x['", "a/c<d=1><b~x[>", column: 12))
        // Regexes are compiled, not parsed: the parser alone accepts it.
        XCTAssertNoThrow(try QuerySyntax(parsing: "a<b~(>"))
    }

    // MARK: Extraction and conversion placement

    func testExtractionMustEndTheQuery() {
        let message = "an extraction (@, @@, #, $ or \\…\\) must end the query, found "
        assertError("a@b/c", message + "'/'", column: 4)
        assertError("a#/b", message + "'/'", column: 3)
        assertError("@a@b", message + "'@'", column: 3)
        assertError("$#", message + "'#'", column: 2)
        // Trailing garbage after a data-form subquery.
        assertError(#"\@a\x"#, message + "'x'", column: 5)
    }

    func testConversionMustEndTheQuery() {
        assertError("@a|int/b", "expected the end of the query after the conversion, found '/'", column: 7)
        assertError("a@b|int|bool", "expected the end of the query after the conversion, found '|'", column: 8)
    }

    func testConversionNeedsAName() {
        assertError("@a|", "expected a conversion after '|' (bool, int, uint, double, datetime, base64, uuid, uuidcast)", column: 4)
    }

    func testUnknownOrMiscasedConversion() {
        let list = "(conversions: bool, int, uint, double, datetime, base64, uuid, uuidcast)"
        assertError("@a|Int", "unknown conversion 'Int' " + list, column: 4)
        assertError("@a|integer", "unknown conversion 'integer' " + list, column: 4)
        assertError("#|date", "unknown conversion 'date' " + list, column: 3)
    }

    func testConversionNeedsAnExtraction() {
        let message = "a conversion needs an extraction before it (@attr, # or $), as in @h|int"
        assertError("a|int", message, column: 2)
        assertError("|int", message, column: 1)
        assertError("/a/b<c=d>|bool", message, column: 10)
    }

    func testConversionAfterAllAttributes() {
        assertError("@@|int", "'@@' gives all attributes at once and cannot be converted", column: 3)
        assertError("a@@|bool", "'@@' gives all attributes at once and cannot be converted", column: 4)
    }

    func testConversionAfterFieldDescription() {
        assertError(#"\%f\|int"#, "a field description (%field, &field) cannot be converted", column: 5)
        assertError(#"\&f\|int"#, "a field description (%field, &field) cannot be converted", column: 5)
    }

    func testConversionAfterWholeForm() {
        assertError(#"\result\|int"#, "a data-form subquery without @field gives the form and cannot be converted", column: 9)
        assertError(#"\\|bool"#, "a data-form subquery without @field gives the form and cannot be converted", column: 3)
    }

    // MARK: Data forms

    func testItemIndexMustBeANumber() {
        assertError(#"\[x]@a\"#, "expected an item index (0, 1, …) after '['", column: 3)
        assertError(#"\[]@a\"#, "expected an item index (0, 1, …) after '['", column: 3)
        assertError(#"\[-1]@a\"#, "expected an item index (0, 1, …) after '['", column: 3)
    }

    func testItemIndexMustBeClosed() {
        assertError(#"\[0@a\"#, "expected ']' to close the item index", column: 4)
    }

    func testFieldNameMissing() {
        assertError(#"\@\"#, "expected a field name after '@'", column: 3)
        assertError(#"\result%\"#, "expected a field name after '%'", column: 9)
        assertError(#"\&\"#, "expected a field name after '&'", column: 3)
    }

    func testUnclosedDataForm() {
        assertError(#"\@a"#, #"expected '\' to close the data-form subquery opened at column 1, found the end of the query"#, column: 4)
        assertError(#"\@a b\"#, #"expected '\' to close the data-form subquery opened at column 1, found ' '"#, column: 4)
        assertError(#"x/\\@a\"#, #"expected '\\' to close the data-form subquery opened at column 3, found '\'"#, column: 7)
    }

    func testUnclosedFormType() {
        assertError(#"\{urn:a"#, "expected '}' to close the FORM_TYPE opened at column 2", column: 8)
        assertError(#"\{}@a\"#, "expected a FORM_TYPE between '{' and '}' ('*' for any)", column: 3)
    }


    func testDataFormOnAnotherElement() {
        let message = "a data-form subquery reads {jabber:x:data}x forms, but this segment selects "
        assertError(#"{urn:a}foo\@f\"#, message + "{urn:a}foo", column: 1)
        assertError(#"y\@f\"#, message + "y", column: 1)
        assertError(#"a/{urn:a}\@f\"#, message + "{urn:a}", column: 3)
        assertError(#"a/!x\@f\"#, message + "!x", column: 3)
        assertError(#"{jabber:x:data}y\@f\"#, message + "y", column: 1)
    }

    // MARK: Format arguments (compile time)

    func testTooFewArguments() {
        XCTAssertEqual(syntaxError("a<b=%@><c=%@>", ["1"]),
                       rendered("format specifier %@ has no argument (1 given; add -a VALUE)", "a<b=%@><c=%@>", column: 11))
        XCTAssertEqual(syntaxError("a<b=%d>"),
                       rendered("format specifier %d has no argument (0 given; add -a VALUE)", "a<b=%d>", column: 5))
    }

    func testTooManyArguments() {
        XCTAssertEqual(syntaxError("a<b=%@>", ["1", "2"]), "query: 2 format arguments given, but the query has 1 format specifier")
        XCTAssertEqual(syntaxError("a", ["x"]), "query: 1 format argument given, but the query has 0 format specifiers")
        XCTAssertEqual(syntaxError("a<b=%@><c=%s>", ["1", "2", "3"]), "query: 3 format arguments given, but the query has 2 format specifiers")
    }

    func testNonIntegerForIntegerSpecifier() {
        XCTAssertEqual(syntaxError("a<b=%d>", ["x"]),
                       rendered("format specifier %d needs an integer, not 'x'", "a<b=%d>", column: 5))
        XCTAssertEqual(syntaxError("a<b=%lld>", ["1.5"]),
                       rendered("format specifier %lld needs an integer, not '1.5'", "a<b=%lld>", column: 5))
        XCTAssertEqual(syntaxError("a<b=%u>", ["-1"]),
                       rendered("format specifier %u needs a non-negative integer, not '-1'", "a<b=%u>", column: 5))
        XCTAssertEqual(syntaxError("a<b=x><c=%zu>", [""]),
                       rendered("format specifier %zu needs a non-negative integer, not ''", "a<b=x><c=%zu>", column: 10))
    }

    func testQueryErrorWithoutColumn() {
        let error = QueryError("something", column: nil, query: "a")
        XCTAssertEqual(error.description, "query: something")
    }
}
