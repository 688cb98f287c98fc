import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// `%@` and `%s` in a `~` regular expression take their argument as an
/// escaped literal (stanzaq-query(7), FORMAT ARGUMENTS and EXTENSIONS).
final class RegexArgumentTests: XCTestCase {

    let presences = """
        <list><presence from='romeo@montague.lit/orchard'/><presence from='romeo@montague.lit'/>\
        <presence from='romeo@montague.lit.evil/x'/><presence from='romeoXmontague.lit/y'/>\
        <presence from='benvolio@montague.lit/street'/><presence from='a+b@c.lit/(1)'/></list>
        """

    func testBareJIDAnyResource() {
        let s = stanza(presences)
        XCTAssertEqual(texts("presence<from~^%@(/|$)>@from", ["romeo@montague.lit"], in: s),
                       ["romeo@montague.lit/orchard", "romeo@montague.lit"])
        XCTAssertEqual(texts("presence<from~^%s(/|$)>@from", ["ROMEO@montague.lit"], in: s),
                       ["romeo@montague.lit/orchard", "romeo@montague.lit"])
        // Regex characters in the argument are literal.
        XCTAssertEqual(texts("presence<from~^%@/>@from", ["a+b@c.lit"], in: s), ["a+b@c.lit/(1)"])
        XCTAssertEqual(texts("presence<from~/%@$>@from", ["(1)"], in: s), ["a+b@c.lit/(1)"])
        XCTAssertEqual(texts("presence<from~^%@>@from", ["romeo.montague"], in: s), [])
        XCTAssertEqual(texts("presence<from~%@>@from", ["\\E.*\\Q"], in: s), [])
    }

    func testArgumentsAreConsumedInOrderAcrossEqualsAndMatches() {
        let s = stanza("<r><a id='1' v='x.y'/><a id='2' v='xzy'/><a id='3' v='x.y'/></r>")
        XCTAssertEqual(texts("a<id=%d><v~^%@$>@id", ["3", "x.y"], in: s), ["3"])
        XCTAssertEqual(texts("a<v~^%@$><id=%d>@id", ["x.y", "1"], in: s), ["1"])
        XCTAssertEqual(try QuerySyntax(parsing: "a<id=%d><v~^%@$><w~%s%s>").formatSpecifierCount, 4)
    }

    func testOtherPercentSequencesStayInThePattern() {
        let s = stanza("<r><a v='%@' w='x'/><a v='100%25' w='y'/><a v='%d' w='z'/></r>")
        // Only %@ and %s are specifiers in a pattern: %25, %d and %% are regex text.
        XCTAssertEqual(texts("a<v~%25>@w", in: s), ["y"])
        XCTAssertEqual(texts("a<v~^%d$>@w", in: s), ["z"])
        // An escaped %, or one inside \Q…\E, is not a specifier.
        XCTAssertEqual(texts("a<v~^\\%@$>@w", in: s), ["x"])
        XCTAssertEqual(texts("a<v~^\\Q%@\\E$>@w", in: s), ["x"])
        XCTAssertEqual(try QuerySyntax(parsing: "a<v~^\\Q%@\\E%@\\%s>").formatSpecifierCount, 1)
    }

    func testMissingAndExtraArguments() {
        XCTAssertEqual(syntaxError("a<v~^%@$>"), """
            query: format specifier %@ has no argument (0 given; add -a VALUE) at column 6
              a<v~^%@$>
                   ^
            """)
        XCTAssertEqual(syntaxError("a<v~^x$>", ["x"]), "query: 1 format argument given, but the query has 0 format specifiers")
    }

    func testExplained() throws {
        XCTAssertEqual(try QuerySyntax(parsing: "/<from~^%@(/|$)>").explanation, """
            query: /<from~^%@(/|$)>
            start: the context node itself (rooted query)
            1. select: the context node, if it is any element in any namespace
               where 'from' matches the regular expression '^%@(/|$)', ignoring case (format arguments filled in as literal text: stanzaq extension)
            result: the selected elements
            """)
    }
}
