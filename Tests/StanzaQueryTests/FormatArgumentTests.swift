import XCTest
import StanzaQuery

/// stanzaq-query(7), FORMAT ARGUMENTS: format arguments in the values of `=` filters (and `%@` in `~`).
final class FormatArgumentTests: XCTestCase {

    let items = """
        <list><item n='42' s='abc'/><item n='-7' s='a b'/><item n='5' s='100%'/><item n='0' s='%@'/><item n='9' s='a&gt;b'/></list>
        """

    func testStringSpecifiers() {
        let s = stanza(items)
        XCTAssertEqual(texts("item<s=%@>@n", ["abc"], in: s), ["42"])
        XCTAssertEqual(texts("item<s=%s>@n", ["ABC"], in: s), ["42"])
        XCTAssertEqual(texts("item<s=%@>@n", ["a b"], in: s), ["-7"])
        XCTAssertEqual(texts("item<s=a%@>@n", ["bc"], in: s), ["42"])
        XCTAssertEqual(texts("item<s=%@%@%@>@n", ["a", "b", "c"], in: s), ["42"])
    }

    func testEveryIntegerSpecifier() {
        let s = stanza(items)
        for specifier in ["d", "i", "ld", "li", "lld", "lli", "zd"] {
            XCTAssertEqual(texts("item<n=%\(specifier)>@s", ["-7"], in: s), ["a b"], specifier)
            XCTAssertEqual(texts("item<n=%\(specifier)>@s", ["42"], in: s), ["abc"], specifier)
        }
        for specifier in ["u", "lu", "llu", "zu"] {
            XCTAssertEqual(texts("item<n=%\(specifier)>@s", ["42"], in: s), ["abc"], specifier)
        }
    }

    func testIntegerArgumentsArePrintedInDecimal() {
        let s = stanza(items)
        XCTAssertEqual(texts("item<n=%d>@s", ["+5"], in: s), ["100%"])
        XCTAssertEqual(texts("item<n=%d>@s", ["0005"], in: s), ["100%"])
        XCTAssertEqual(texts("item<n=%u>@s", ["+42"], in: s), ["abc"])
        XCTAssertEqual(texts("item<n=%d>@s", ["-0"], in: s), ["%@"])
    }

    func testPercentPercentIsALiteralPercent() {
        let s = stanza(items)
        XCTAssertEqual(texts("item<s=100%%>@n", in: s), ["5"])
        XCTAssertEqual(texts("item<s=%d%%>@n", ["100"], in: s), ["5"])
        XCTAssertEqual(texts("item<s=%%@>@n", in: s), ["0"])
    }

    func testArgumentsAreNotReparsed() {
        let s = stanza(items)
        // An argument holding '>' or a specifier is just text.
        XCTAssertEqual(texts("item<s=%@>@n", ["a>b"], in: s), ["9"])
        XCTAssertEqual(texts("item<s=%@>@n", ["%@"], in: s), ["0"])
        XCTAssertEqual(texts("item<s=%@>@n", ["%%@"], in: s), [])
        // Not a regex either.
        XCTAssertEqual(texts("item<s=%@>@n", ["a.c"], in: s), [])
    }

    func testOnlyFilterValuesAreInterpolated() {
        let s = stanza("<r><a v='%@' w='x'/><b xmlns='urn:%40'/></r>")
        // In a ~ regex, "%@" takes an argument (as a literal: RegexArgumentTests);
        // escaped, it is the text "%@".
        XCTAssertEqual(texts("a<v~^%@$>@w", ["%@"], in: s), ["x"])
        XCTAssertEqual(texts("a<v~^\\%@$>@w", in: s), ["x"])
        // In a namespace, "%40" is part of the namespace, not a (bad) specifier.
        XCTAssertEqual(texts("{urn:%40}b$", in: s), ["b"])
        XCTAssertEqual(syntaxError("{%@}b", ["x"]), "query: 1 format argument given, but the query has 0 format specifiers")
    }

    func testSignedArgumentsMustBeIntegers() {
        XCTAssertEqual(syntaxError("a<b=%d>", ["+-5"]), """
            query: format specifier %d needs an integer, not '+-5' at column 5
              a<b=%d>
                  ^
            """)
        XCTAssertEqual(syntaxError("a<b=%u>", ["++5"]), """
            query: format specifier %u needs a non-negative integer, not '++5' at column 5
              a<b=%u>
                  ^
            """)
        XCTAssertEqual(syntaxError("a<b=%i>", [" 5"]), """
            query: format specifier %i needs an integer, not ' 5' at column 5
              a<b=%i>
                  ^
            """)
        XCTAssertEqual(syntaxError("a<b=%d>", ["99999999999999999999"]), """
            query: format specifier %d needs an integer, not '99999999999999999999' at column 5
              a<b=%d>
                  ^
            """)
    }

    func testArgumentsInOrderAcrossTheWholeQuery() throws {
        let s = stanza("""
            <iq xmlns='jabber:client' type='result'><pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='n1'><item id='i1'>one</item><item id='i2'>two</item></items><items node='n2'><item id='i1'>three</item></items></pubsub></iq>
            """)
        let query = "/<type=%@>/{http://jabber.org/protocol/pubsub}pubsub/items<node=%@>/item<id=%@>#"
        XCTAssertEqual(texts(query, ["result", "n1", "i2"], in: s), ["two"])
        XCTAssertEqual(texts(query, ["result", "n2", "i1"], in: s), ["three"])
        XCTAssertEqual(texts(query, ["RESULT", "N1", "I1"], in: s), ["one"])
        XCTAssertEqual(texts(query, ["get", "n1", "i1"], in: s), [])
    }

    func testArgumentsAreSubstitutedOnce() throws {
        // Two nodes match the first segment; Monal's code would read the
        // argument of the second filter anew for each of them.
        let s = stanza("<r><a k='1'><b n='x'>first</b></a><a k='1'><b n='x'>second</b><b n='1'>wrong</b></a></r>")
        XCTAssertEqual(texts("a<k=%@>/b<n=%@>#", ["1", "x"], in: s), ["first", "second"])
        // And across several stanzas the compiled query keeps its arguments.
        let query = try Query("a<k=%@>/b<n=%@>#", arguments: ["1", "x"])
        XCTAssertEqual(try query.find(in: s).map(\.text), ["first", "second"])
        XCTAssertEqual(try query.find(in: s).map(\.text), ["first", "second"])
        let t = stanza("<r><a k='1'><b n='x'>third</b></a></r>")
        XCTAssertEqual(try query.find(in: t).map(\.text), ["third"])
    }

    func testSpecifierInTheRootedFirstSegment() {
        let s = stanza("<message xmlns='jabber:client' type='chat' id='abc'><body>b</body></message>")
        XCTAssertEqual(texts("/<type=%@><id=%@>/body#", ["chat", "abc"], in: s), ["b"])
        XCTAssertEqual(texts("/<type=%@><id=%@>/body#", ["chat", "abd"], in: s), [])
    }

    func testSyntaxKeepsTheSpecifiers() throws {
        let syntax = try QuerySyntax(parsing: "a<b=x%dy%%z%@>")
        guard case .select(let selector)? = syntax.steps.first, case .equals(let parts)? = selector.filters.first?.test else {
            return XCTFail("unexpected syntax \(syntax)")
        }
        XCTAssertEqual(parts, [.literal("x"), .specifier(.d, column: 6), .literal("y%z"), .specifier(.object, column: 12)])
    }
}
