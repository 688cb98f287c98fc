import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// What the XML text of an element a query has a result on must contain
/// (``Query/requiredLiterals``): the prefilter skips the log records without it.
final class RequiredLiteralTests: XCTestCase {
    private func literals(_ text: String, arguments: [String] = [], caseSensitive: Bool = false) throws -> [String] {
        try Query(text, arguments: arguments, options: QueryOptions(caseSensitive: caseSensitive)).requiredLiterals.map { literal in
            literal.description + (literal.caseless ? " (any case)" : "")
                + literal.standIns.map { " | " + String(decoding: $0, as: UTF8.self) }.joined()
        }
    }

    func testNamesAndValues() throws {
        XCTAssertEqual(try literals("/iq<type=error>@id"), ["iq", "type", "error (any case) | &#", "id"])
        XCTAssertEqual(try literals("{urn:xmpp:delay}delay@stamp|datetime"), ["delay", "stamp"])
        XCTAssertEqual(try literals("/message/body#"), ["message", "body"])
        XCTAssertEqual(try literals("/iq<type=%@>", arguments: ["result"]), ["iq", "type", "result (any case) | &# | \u{17F}"])
        XCTAssertEqual(try literals("/iq<type=error>", caseSensitive: true), ["iq", "type", "error | &#"])
    }

    /// The longest piece of a value its attribute's text holds as it is.
    func testValuePieces() throws {
        XCTAssertEqual(try literals("/<to=a b&c'dd>"), ["to", "dd (any case) | &#"])
        XCTAssertEqual(try literals("/<id=x>"), ["id"])
        XCTAssertEqual(try literals("/<id=caf\u{E9}-au-lait>"), ["id", "-au-lait (any case) | &#"])
        XCTAssertEqual(try literals("/<id=kiss>"), ["id", "kiss (any case) | &# | \u{212A} | \u{17F} | \u{DF} | \u{1E9E}"])
        XCTAssertEqual(try literals("/<id=first>"),
                       ["id", "first (any case) | &# | \u{17F} | \u{FB05} | \u{FB06} | \u{FB00} | \u{FB01} | \u{FB02} | \u{FB03} | \u{FB04}"])
    }

    /// Nothing decided after the first `~`: a regular expression's abandoned
    /// matches count across a run, so every element it is tried on is read.
    func testNothingAfterARegularExpression() throws {
        XCTAssertEqual(try literals("/iq<type=error><id~a+>/query@node"), ["iq", "type", "error (any case) | &#"])
        XCTAssertEqual(try literals("/iq<id~a+><type=error>"), ["iq"])
    }

    /// Namespaces (a stream's header may declare them), text (CDATA splits it),
    /// `xmlns` and any attribute's value (the namespace among them) are left out.
    func testLeftOut() throws {
        XCTAssertEqual(try literals("{jabber:client}message<xmlns=jabber:client>"), ["message"])
        XCTAssertEqual(try literals("body<#=hello>"), ["body"])
        XCTAssertEqual(try literals("**<*=ghost>"), [])
        XCTAssertEqual(try literals("*@@"), [])
        XCTAssertEqual(try literals("!body"), [])
        XCTAssertEqual(try literals("/{*}"), [])
    }

    func testBest() throws {
        XCTAssertEqual(try Query("/iq<type=error>@id").bestRequiredLiteral?.description, "error")
        XCTAssertEqual(try Query("/message/body#").bestRequiredLiteral?.description, "message")
        XCTAssertNil(try Query("/<id~x>").bestRequiredLiteral)
    }
}
