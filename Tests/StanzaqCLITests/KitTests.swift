import StanzaQuery
import StanzaqTestSupport
import XCTest
@testable import StanzaqKit

/// StanzaqKit on its own: the three shapes of a diagnostic, the REPL's word
/// splitting, and a search into an in-memory output with each sink.
final class KitTests: XCTestCase {
    func testDiagnosticShapes() {
        XCTAssertEqual(Diagnostic("missing QUERY").description, "stanzaq: error: missing QUERY")
        XCTAssertEqual(Diagnostic(.input("a.xml"), "No such file or directory").description,
                       "stanzaq: error: a.xml: No such file or directory")
        XCTAssertEqual(Diagnostic(.position(file: "a.xml", line: 3, column: 7), "bad").description, "a.xml:3:7: bad")
        XCTAssertEqual(Diagnostic(.stanza(file: "a.xml", number: 2), "query 'x': bad").description,
                       "a.xml:stanza 2: query 'x': bad")
        XCTAssertEqual(Diagnostic.reading("-", StanzaReaderError.malformed(line: 1, column: 2, message: "m")).description, "-:1:2: m")
        XCTAssertEqual(OutputError.failed(errno: ENOSPC).diagnostic.description, "stanzaq: error: write error: No space left on device")
    }

    func testShellWords() throws {
        XCTAssertEqual(try shellWords(""), [])
        XCTAssertEqual(try shellWords("  a  b\tc "), ["a", "b", "c"])
        XCTAssertEqual(try shellWords(#"'a b' "c \"d\" \\ \x" e\ f g''h """#), ["a b", #"c "d" \ \x"#, "e f", "gh", ""])
        XCTAssertThrowsError(try shellWords("'open"))
        XCTAssertThrowsError(try shellWords("\"open"))
    }

    func testEachSinkIntoMemory() throws {
        let input = "<m id='1'><b>one</b></m><m id='2'/><m id='3'><b>three</b></m>"
        func search(_ configure: (inout SearchOptions) -> Void, queries: [String] = ["b#"]) throws -> (String, Int32) {
            let scratch = try ScratchDirectory()
            let file = try scratch.write("in.xml", input)
            var options = SearchOptions(queries: try queries.map { try Query($0) })
            configure(&options)
            let output = Output.inMemory()
            let searcher = Searcher(options: options, sink: options.makeSink(output: output), diagnostics: .inMemory())
            try searcher.run(paths: [file.path])
            return (output.text, searcher.status)
        }
        XCTAssertEqual(try search { _ in }.0, "one\nthree\n")
        XCTAssertEqual(try search({ _ in }, queries: ["/@id", "b#"]).0, "1\tone\n2\t\n3\tthree\n")
        XCTAssertEqual(try search { $0.report = .stanzas; $0.invert = true }.0, "<m id='2'/>\n")
        XCTAssertEqual(try search { $0.report = .count }.0, "2\n")
        XCTAssertEqual(try search { $0.report = .quiet }.0, "")
        XCTAssertEqual(try search { $0.report = .quiet }.1, 0)
        XCTAssertEqual(try search({ _ in }, queries: ["x#"]).1, 1)
    }

    /// Completion reads the REPL's command table: names, and what each command takes.
    func testCompletionFromTheCommandTable() {
        XCTAssertEqual(Completion.complete(":ou", stanza: nil).candidates, [":output"])
        XCTAssertEqual(Completion.complete(":output j", stanza: nil).candidates, ["json"])
        XCTAssertEqual(Completion.complete(":first o", stanza: nil).candidates, ["off", "on"])
        XCTAssertEqual(Completion.complete(":use 1", stanza: nil).candidates, [])
        XCTAssertEqual(Completion.complete(":output ", stanza: nil).candidates, ["json", "text", "tsv"])
        let message = Element(name: "message", namespace: "jabber:client")
        XCTAssertEqual(Completion.complete(":all /me", stanza: message).candidates, ["message"])
        XCTAssertEqual(Completion.complete(":direction ", stanza: nil).candidates, ["both", "in", "out"])
        XCTAssertEqual(REPLSession.commands.map(\.name), [":help", ":load", ":list", ":use", ":show", ":fields", ":args", ":output",
                                                          ":first", ":default-namespace", ":direction", ":explain", ":all", ":quit"])
    }

    /// Completion by position: the children of what the path so far selects (in the
    /// namespace given), the attributes of the element before `@` or `<`, the
    /// namespaces of every loaded stanza after `{`.
    func testCompletionByPosition() throws {
        var stanzas: [Element] = []
        let reader = StanzaReader { stanzas.append($0); return true }
        try reader.feed(Array("""
            <iq xmlns='jabber:client' type='error' id='x'><query xmlns='http://jabber.org/protocol/disco#info'/>\
            <error type='cancel'><service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>\
            <text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas' xml:lang='en'>t</text></error></iq>
            """.utf8))
        try reader.finish()
        let stanza = try XCTUnwrap(stanzas.first)
        func candidates(_ line: String) -> [String] {
            Completion.complete(line, stanza: stanza, namespaces: ["jabber:client", "urn:other"]).candidates
        }
        // A name without {ns} matches children in their parent's namespace only;
        // those in another namespace are offered with theirs.
        XCTAssertEqual(candidates(""), ["**", "error", "{http://jabber.org/protocol/disco#info}query"])
        XCTAssertEqual(candidates("/"), ["**", "iq"])
        XCTAssertEqual(candidates("error/"), ["**", "{urn:ietf:params:xml:ns:xmpp-stanzas}service-unavailable",
                                              "{urn:ietf:params:xml:ns:xmpp-stanzas}text"])
        XCTAssertEqual(candidates("error/s"), [])
        XCTAssertEqual(candidates("error/{"), ["jabber:client}", "urn:other}"])
        XCTAssertEqual(candidates("error/{urn:ietf:params:xml:ns:xmpp-stanzas}"), ["service-unavailable", "text"])
        XCTAssertEqual(candidates("error/{*}"), ["service-unavailable", "text"])
        XCTAssertEqual(candidates("error/{jabber:client}"), [])
        XCTAssertEqual(candidates("{http://jabber.org/protocol/disco#info}q"), ["query"])
        XCTAssertEqual(candidates("error@"), ["type"])
        XCTAssertEqual(candidates("/@"), ["id", "type"])
        XCTAssertEqual(candidates("error/{urn:ietf:params:xml:ns:xmpp-stanzas}text<"), ["xml:lang"])
        XCTAssertEqual(candidates("{urn:o"), ["urn:other}"])
        XCTAssertEqual(candidates("**/{urn:ietf:params:xml:ns:xmpp-stanzas}te"), ["text"])
        XCTAssertEqual(candidates(":all error/{*}s"), ["service-unavailable"])
    }
    /// The start tag's answers are taken in order; those of stanzas never
    /// handed over are dropped with the next one taken, and none is kept once taken.
    func testStartTagDecisions() {
        let decisions = StartTagDecisions()
        let stanzas = (0..<200).map { Element(name: "m\($0)") }
        XCTAssertTrue(decisions.isEmpty)
        decisions.record(stanzas[0], hasResult: true)
        decisions.record(stanzas[1], hasResult: false)   // damaged: never taken
        decisions.record(stanzas[2], hasResult: false)
        XCTAssertNil(decisions.take(stanzas[3]), "not recorded")
        XCTAssertEqual(decisions.take(stanzas[0]), true)
        XCTAssertEqual(decisions.take(stanzas[2]), false)
        XCTAssertTrue(decisions.isEmpty)
        XCTAssertNil(decisions.take(stanzas[1]), "dropped with the one after it")
        weak var released: Element?
        do {
            let last = Element(name: "last")
            released = last
            for stanza in stanzas[3...] { decisions.record(stanza, hasResult: stanza.name.hasSuffix("7")) }
            decisions.record(last, hasResult: true)
            for stanza in stanzas[3...] { XCTAssertEqual(decisions.take(stanza), stanza.name.hasSuffix("7")) }
            XCTAssertFalse(decisions.isEmpty)
            XCTAssertEqual(decisions.take(last), true)
        }
        XCTAssertNil(released, "a stanza taken up is not kept")
        XCTAssertTrue(decisions.isEmpty)
    }
}

