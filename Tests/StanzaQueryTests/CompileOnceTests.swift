import XCTest
import Foundation
import StanzaQuery

/// stanzaq-query(7), DESCRIPTION: compile once, evaluate on every stanza.
final class CompileOnceTests: XCTestCase {

    private func corpus() throws -> [Element] {
        try ReaderTests.requireCorpus()
        let text = try String(contentsOfFile: ReaderTests.corpusPath, encoding: .utf8)
        return try StanzaReader.stanzas(in: text)
    }

    private func rendered(_ results: [QueryValue]) -> [String] { results.map(\.json) }

    func testCompiledQueryGivesTheSameResultsAsCompilingPerStanza() throws {
        let stanzas = try corpus()
        XCTAssertEqual(stanzas.count, ReaderTests.corpusStanzaCount)
        let queries: [(String, [String])] = [
            ("/<type~^(get|set)$>/{*}*$", []),
            ("/{jabber:client}iq<type=%@>@id", ["result"]),
            ("{*}*/{jabber:x:data}x\\@FORM_TYPE\\", []),
            ("{*}*<xmlns~.>", []),
            ("{urn:xmpp:delay}delay@stamp|datetime", []),
            ("{*}*/{*}*<var~^muc#>@var", []),
            ("body#", []),
            ("/@@", []),
        ]
        var total = 0
        for (text, arguments) in queries {
            let compiled = try Query(text, arguments: arguments)
            for stanza in stanzas {
                let once = rendered(try compiled.find(in: stanza))
                let fresh = rendered(try Query(text, arguments: arguments).find(in: stanza))
                XCTAssertEqual(once, fresh, text)
                total += once.count
            }
        }
        XCTAssertGreaterThan(total, ReaderTests.corpusStanzaCount)
    }

    func testCompiledRegexQueryCountsMatchesAcrossTheCorpus() throws {
        let stanzas = try corpus()
        // Counted independently with xml.etree (the stanzas as ReaderTests.corpusStanzaCount
        // says): iq stanzas whose type, lower-cased, is get or set.
        let query = try Query("/{jabber:client}iq<type~^(get|set)$>")
        XCTAssertEqual(try stanzas.filter { try query.check(in: $0) }.count, 1625)
        // Stanzas with an id attribute (xml.etree: 3292).
        let hasID = try Query("/@id")
        XCTAssertEqual(try stanzas.filter { try hasID.check(in: $0) }.count, 3292)
    }

    func testCompiledQueryIsReusableAfterAnError() throws {
        let query = try Query("a/../..$")
        let ok = stanza("<r><x><a/></x></r>")
        let bad = stanza("<x><a/></x>")
        XCTAssertEqual(try query.find(in: ok.childElements[0]).map(\.text), ["r"])
        XCTAssertThrowsError(try query.find(in: bad))
        XCTAssertEqual(try query.find(in: ok.childElements[0]).map(\.text), ["r"])
    }

    func testQueryKeepsItsText() throws {
        let query = try Query("a<b=%@>", arguments: ["c"])
        XCTAssertEqual(query.text, "a<b=%@>")
        XCTAssertEqual(query.syntax, try QuerySyntax(parsing: "a<b=%@>"))
        let again = try Query(syntax: query.syntax, arguments: ["d"])
        let s = stanza("<r><a b='c'/><a b='d'/></r>")
        XCTAssertEqual(try query.find(in: s).map(\.text), ["<a b='c'/>"])
        XCTAssertEqual(try again.find(in: s).map(\.text), ["<a b='d'/>"])
    }
}
