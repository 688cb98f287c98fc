import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// The answers Monal's code and Prosody's find() give, where stanzaq once
/// gave others: the namespace as the attribute xmlns, `=` as Monal's `^v$`,
/// prefixed element names, `-N` and `xmlns=''`, format arguments across
/// several queries.
final class NamespaceAttributeTests: XCTestCase {
    let s = stanza("""
        <message xmlns='jabber:client' type='chat'><body>hi</body><x xmlns='urn:x'><y/></x><z xmlns=''><w/></z></message>
        """)

    func testXmlnsIsTheNamespaceInheritedOrDeclared() throws {
        XCTAssertEqual(texts("@xmlns", in: s), ["jabber:client"])
        XCTAssertEqual(texts("/@xmlns", in: s), ["jabber:client"])
        XCTAssertEqual(texts("body@xmlns", in: s), ["jabber:client"])
        XCTAssertEqual(texts("{urn:x}x@xmlns", in: s), ["urn:x"])
        XCTAssertEqual(texts("{urn:x}x/y@xmlns", in: s), ["urn:x"])
        XCTAssertEqual(texts("{*}*@xmlns", in: s), ["jabber:client", "urn:x"])
        XCTAssertEqual(jsons("{*}*@xmlns", in: s), [#""jabber:client""#, #""urn:x""#])
        XCTAssertEqual(try Query("{urn:x}x@xmlns").findFirst(in: s), .string("urn:x"))
        // The empty namespace is no attribute (Prosody's model has no xmlns there).
        XCTAssertEqual(texts("{*}z@xmlns", in: s), [])
        XCTAssertEqual(texts("{*}z/w@xmlns", in: s), [])
        XCTAssertEqual(texts("{*}z@@", in: s), ["{}"])
        // A declaration is not an attribute of another name.
        XCTAssertEqual(texts("{urn:x}x@{http://www.w3.org/2000/xmlns/}xmlns", in: s), [])
    }

    func testXmlnsFilters() {
        XCTAssertEqual(texts("{*}*<xmlns=urn:x>$", in: s), ["x"])
        XCTAssertEqual(texts("{*}*<xmlns=URN:X>$", in: s), ["x"])
        XCTAssertEqual(texts("{*}*<xmlns~^jabber:>$", in: s), ["body"])
        XCTAssertEqual(texts("/<xmlns=jabber:client>@type", in: s), ["chat"])
        XCTAssertEqual(texts("/<xmlns=urn:x>@type", in: s), [])
        XCTAssertEqual(texts("{*}*<xmlns~.>$", in: s), ["body", "x"])
    }
}

/// `=` gives the answers of Monal's case-insensitive ICU pattern `^value$`,
/// whose `$` also matches before one line terminator at the end.
final class EqualsFilterTests: XCTestCase {
    func testValueEndingInOneLineTerminatorMatches() {
        let terminators = ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        for terminator in terminators {
            let value = "result" + terminator
            let element = Element(name: "iq", attributes: [Attribute(name: "type", value: value)])
            XCTAssertEqual(texts("/<type=result>$", in: element), ["iq"], value.debugDescription)
            XCTAssertEqual(texts("/<type=RESULT>$", in: element), ["iq"], value.debugDescription)
        }
        for value in ["result\n\n", "result\n ", "\nresult", "result ", " result", "resul", "results", "result\r\r"] {
            let element = Element(name: "iq", attributes: [Attribute(name: "type", value: value)])
            XCTAssertEqual(texts("/<type=result>$", in: element), [], value.debugDescription)
        }
    }

    func testThroughTheReader() {
        let s = stanza("<iq type='result&#10;' id='a&#13;&#10;'/>")
        XCTAssertEqual(texts("/<type=result>@id", in: s), ["a\r\n"])
        XCTAssertEqual(texts("/<id=A>$", in: s), ["iq"])
        XCTAssertEqual(texts("/<id=a&#13;>$", in: s), [])
    }

    func testNonASCIIGoesThroughICU() {
        let element = Element(name: "a", attributes: [Attribute(name: "v", value: "Ünïcode\u{2028}")])
        XCTAssertEqual(texts("/<v=ünïCODE>$", in: element), ["a"])
        let kelvin = Element(name: "a", attributes: [Attribute(name: "v", value: "\u{212A}\n")])
        XCTAssertEqual(texts("/<v=k>$", in: kelvin), ["a"])
    }

    func testValueWithItsOwnTerminator() {
        let element = Element(name: "a", attributes: [Attribute(name: "v", value: "x\n\n")])
        // "x\n" as the value: ^x\n$ matches "x\n\n" (the last \n ends the input).
        XCTAssertEqual(texts("/<v=x\n>$", in: element), ["a"])
    }

    func testDataFormFieldNamesFollowTheSameRule() {
        let s = stanza("<m><x xmlns='jabber:x:data'><field var='a&#10;'><value>1</value></field></x></m>")
        XCTAssertEqual(texts(#"\@a\"#, in: s), ["1"])
        XCTAssertEqual(texts(#"\@A\"#, in: s), ["1"])
    }
}

/// Prefixed element names (a stanzaq extension): the prefix is resolved
/// where the element is, as `@p:name`'s is, or by an alias (`--ns`).
final class PrefixedNameTests: XCTestCase {
    let stream = """
        <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>
        <stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>
        <message><body>hi</body><p:x xmlns:p='urn:p'><p:y>1</p:y><y>2</y></p:x><q:x xmlns:q='urn:p'>3</q:x></message>
        """

    func stanzas() throws -> [Element] { try StanzaReader.stanzas(in: stream) }

    func testPrefixResolvedInTheElementsScope() throws {
        let (features, message) = try { let all = try stanzas(); return (all[0], all[1]) }()
        XCTAssertEqual(texts("/stream:features$", in: features), ["features"])
        XCTAssertEqual(texts("/stream:features/{urn:ietf:params:xml:ns:xmpp-sasl}mechanisms/mechanism#", in: features), ["PLAIN"])
        XCTAssertEqual(texts("/stream:message$", in: message), [])
        // p is bound on the element itself; q binds the same namespace: both match.
        XCTAssertEqual(texts("p:x/p:y#", in: message), ["1"])
        // An unprefixed name inherits the parent's namespace, as always.
        XCTAssertEqual(texts("p:x/y#", in: message), ["1"])
        XCTAssertEqual(texts("p:x/{jabber:client}y#", in: message), ["2"])
        // q:x is bound only on the second element: each is resolved where it is.
        XCTAssertEqual(texts("q:x#", in: message), ["3"])
        XCTAssertEqual(texts("p:x$", in: message), ["x"])
        XCTAssertEqual(texts("{urn:p}x$", in: message), ["x", "x"])
        // Unbound: no match on this stanza, not an error.
        XCTAssertEqual(texts("nowhere:x", in: message), [])
    }

    func testAliasesTakePrecedence() throws {
        let message = try stanzas()[1]
        func find(_ query: String, _ namespaces: [String: String]) throws -> [String] {
            try Query(query, options: QueryOptions(namespaces: namespaces)).find(in: message).map(\.text)
        }
        XCTAssertEqual(try find("a:x$", ["a": "urn:p"]), ["x", "x"])
        XCTAssertEqual(try find("p:x$", ["p": "urn:other"]), [])
        XCTAssertEqual(try find("q:x#", ["q": "urn:p"]), ["3"])
        XCTAssertEqual(try find("c:body#", ["c": "jabber:client"]), ["hi"])
        // Aliases apply to attribute prefixes too.
        let s = stanza("<a xmlns:e='urn:e' e:v='1'><b xmlns:f='urn:f' f:v='2'/></a>")
        XCTAssertEqual(try Query("b@z:v", options: QueryOptions(namespaces: ["z": "urn:f"])).find(in: s).map(\.text), ["2"])
        XCTAssertEqual(try Query("/@e:v", options: QueryOptions(namespaces: ["e": "urn:other"])).find(in: s).map(\.text), [])
        XCTAssertEqual(try Query("b<z:v=2>$", options: QueryOptions(namespaces: ["z": "urn:f"])).find(in: s).map(\.text), ["b"])
        // xml is always bound.
        XCTAssertEqual(try Query("/@xml:lang", options: QueryOptions(namespaces: ["xml": "urn:no"])).find(in: stanza("<a xml:lang='de'/>")).map(\.text), ["de"])
    }

    func testSyntax() throws {
        let syntax = try QuerySyntax(parsing: "/stream:features/p:x<a=b>")
        guard case .select(let first) = syntax.steps[0], case .select(let second) = syntax.steps[1] else { return XCTFail() }
        XCTAssertEqual(first.namespace, .prefix("stream"))
        XCTAssertEqual(first.name, .named("features"))
        XCTAssertEqual(second.namespace, .prefix("p"))
        XCTAssertEqual(syntax.elementPrefixes, ["stream", "p"])
        XCTAssertEqual(try QuerySyntax(parsing: "a/{urn:x}b@p:c").elementPrefixes, [])
        XCTAssertTrue(syntax.explanation.contains(
            "1. select: the context node, if it is an element named 'features' in the namespace of prefix 'stream' (resolved by --ns, else on the element; stanzaq extension)"),
            syntax.explanation)
    }
}

/// `-N NS` supplies a namespace only where none is in scope: an explicit
/// `xmlns=''` still undeclares it.
final class DefaultNamespaceTests: XCTestCase {
    func testExplicitEmptyDefaultIsKept() {
        let s = stanza("<message><body>hi</body><x xmlns=''><y/></x></message>", defaultNamespace: "jabber:client")
        XCTAssertEqual(texts("/@xmlns", in: s), ["jabber:client"])
        XCTAssertEqual(texts("body@xmlns", in: s), ["jabber:client"])
        XCTAssertEqual(texts("{*}x@xmlns", in: s), [])
        XCTAssertEqual(texts("{*}x/{*}y@xmlns", in: s), [])
        XCTAssertEqual(texts("{*}x/y$", in: s), ["y"])
        XCTAssertEqual(texts("x", in: s), [])
    }

    func testEmptyDefaultOnTheStanzaOrTheStream() throws {
        XCTAssertEqual(texts("/@xmlns", in: stanza("<a xmlns=''><b/></a>", defaultNamespace: "urn:d")), [])
        let inStream = try StanzaReader.stanzas(
            in: "<stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns=''><m><b/></m>", defaultNamespace: "urn:d")
        XCTAssertEqual(inStream.map(\.namespace), [""])
        let undeclared = try StanzaReader.stanzas(
            in: "<stream:stream xmlns:stream='http://etherx.jabber.org/streams'><m><b/></m>", defaultNamespace: "urn:d")
        XCTAssertEqual(undeclared.map(\.namespace), ["urn:d"])
        // A prefixed element keeps its namespace; its unprefixed children get -N's.
        let prefixed = stanza("<p:a xmlns:p='urn:p'><b/></p:a>", defaultNamespace: "urn:d")
        XCTAssertEqual(texts("/@xmlns", in: prefixed), ["urn:p"])
        XCTAssertEqual(texts("{*}b@xmlns", in: prefixed), ["urn:d"])
    }
}

/// Several queries share the format arguments, in order (`-a … -e … -e …`).
final class ArgumentsAcrossQueriesTests: XCTestCase {
    func testArgumentsAreConsumedInOrder() throws {
        let queries = try Query.compile(["a<v=%@>@id", "a@id", "b<w=%d><x=%@>@id"], arguments: ["x", "5", "y"])
        let s = stanza("<r><a v='x' id='1'/><a v='z' id='2'/><b w='5' x='y' id='3'/></r>")
        XCTAssertEqual(try queries.map { try $0.find(in: s).map(\.text) }, [["1"], ["1", "2"], ["3"]])
    }

    func testTooFewNamesTheQuery() {
        XCTAssertThrowsError(try Query.compile(["a<v=%@>@id", "a<w=%@>"], arguments: ["x"])) { error in
            XCTAssertEqual((error as? QueryError)?.description, """
                query: format specifier %@ has no argument (1 given, 1 taken by the queries before this one; add -a VALUE) at column 5
                  a<w=%@>
                      ^
                """)
        }
    }

    func testTooManyNamesEveryQuery() {
        XCTAssertThrowsError(try Query.compile(["a<v=%@>@id", "a@id"], arguments: ["x", "y"])) { error in
            XCTAssertEqual((error as? QueryError)?.description,
                           "query: 2 format arguments given, but the queries have 1 format specifier in all ('a<v=%@>@id' takes 1, 'a@id' takes 0)")
        }
        XCTAssertThrowsError(try Query.compile(["a@id"], arguments: ["x"])) { error in
            XCTAssertEqual((error as? QueryError)?.description, "query: 1 format argument given, but the query has 0 format specifiers")
        }
    }
}

/// With --case-sensitive, `=` is Monal's `^value$` compiled with case: a
/// trailing line terminator still matches.
final class CaseSensitiveEqualsTests: XCTestCase {
    func testTrailingLineTerminator() throws {
        let options = QueryOptions(caseSensitive: true)
        for value in ["result", "result\n", "result\r\n", "result\u{2029}"] {
            let element = Element(name: "iq", attributes: [Attribute(name: "type", value: value)])
            XCTAssertEqual(try Query("/<type=result>$", options: options).find(in: element).map(\.text), ["iq"], value.debugDescription)
            XCTAssertEqual(try Query("/<type=RESULT>$", options: options).find(in: element).map(\.text), [], value.debugDescription)
        }
        for value in ["result\n\n", "result ", "Result", "\nresult", "resul"] {
            let element = Element(name: "iq", attributes: [Attribute(name: "type", value: value)])
            XCTAssertEqual(try Query("/<type=result>$", options: options).find(in: element).map(\.text), [], value.debugDescription)
        }
    }
}
