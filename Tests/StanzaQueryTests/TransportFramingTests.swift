import XCTest
import Foundation
@testable import StanzaQuery
@testable import StanzaXML
import StanzaqTestSupport

/// stanzaq(1), INPUT: BOSH's `<body>` (XEP-0124, XEP-0206) and the WebSocket
/// binding's `<open/>` and `<close/>` (RFC 7395) are transport, as
/// `<stream:stream>` is: the stanzas are a body's children, an empty body and
/// the WebSocket framing are none. The inputs are the XEPs' and the RFC's
/// examples, shortened.
final class TransportFramingTests: XCTestCase {
    /// The stanzas of ``bosh``.
    static let boshStanzas = ["{jabber:client}iq", "{jabber:client}message", "{jabber:client}presence", "{jabber:client}presence"]

    /// The samples (``FramingSamples``), shared with the command's tests.
    static let bosh = FramingSamples.bosh
    static let webSocket = FramingSamples.webSocket

    private struct Read {
        var stanzas: [String] = []
        var lines: [Int] = []
        var damages: [String] = []
        var places: [StanzaByteRange] = []
    }

    private func read(_ text: String, chunk: Int = 1 << 16, configure: (StanzaReader) -> Void = { _ in }) throws -> Read {
        var result = Read()
        var reader: StanzaReader!
        reader = StanzaReader(recovery: .skipDamage) { stanza in
            result.stanzas.append("{\(stanza.namespace)}\(stanza.name)")
            result.lines.append(reader.stanzaLine)
            if let place = reader.currentPlace { result.places.append(place) }
            return true
        }
        reader.damageHandler = { result.damages.append($0.description); return true }
        configure(reader)
        let bytes = Array(text.utf8)
        try reader.feed(bytes, inChunksOf: chunk)
        try reader.finish()
        return result
    }

    func testTheStanzasOfBOSHBodiesAreTheirChildren() throws {
        for chunk in [1, 7, 1 << 16] {
            let result = try read(Self.bosh, chunk: chunk)
            XCTAssertEqual(result.stanzas, Self.boshStanzas, "chunk \(chunk)")
            XCTAssertEqual(result.lines, [3, 8, 9, 12], "chunk \(chunk)")
            XCTAssertEqual(result.damages, [], "chunk \(chunk)")
        }
    }

    func testAStanzaOfABodyIsTheRootOfItsTree() throws {
        let stanzas = try StanzaReader.stanzas(in: Self.bosh)
        XCTAssertEqual(stanzas.count, 4)
        XCTAssertNil(stanzas[1].parent)
        XCTAssertEqual(texts("/@to", in: stanzas[1]), ["contact@example.com"])
        XCTAssertEqual(texts("body#", in: stanzas[1]), ["I said \"Hi!\""])
        XCTAssertEqual(texts("{urn:ietf:params:xml:ns:xmpp-bind}bind/resource#", in: stanzas[0]), ["httpclient"])
    }

    /// The body's namespace declarations are in scope in its children, as a
    /// stream's are: a default namespace of `jabber:client` declared on the
    /// body, and a prefix used in a child.
    func testAStanzaInheritsTheBodysDeclarations() throws {
        let text = "<body xmlns='http://jabber.org/protocol/httpbind' xmlns:client='jabber:client' xmlns:d='urn:xmpp:delay'>"
            + "<client:message id='m1'><d:delay stamp='2002-09-10T23:08:25Z'/></client:message></body>"
        let stanzas = try StanzaReader.stanzas(in: text)
        XCTAssertEqual(stanzas.map(\.namespace), ["jabber:client"])
        XCTAssertEqual(stanzas[0].namespaceURI(forPrefix: "d"), "urn:xmpp:delay")
        XCTAssertEqual(stanzas[0].namespaceURI(forPrefix: nil), "http://jabber.org/protocol/httpbind")
        XCTAssertEqual(texts("{urn:xmpp:delay}delay@stamp", in: stanzas[0]), ["2002-09-10T23:08:25Z"])
    }

    func testAnEmptyBodyIsNoStanza() throws {
        let text = "<body xmlns='http://jabber.org/protocol/httpbind' sid='s'/>\n"
            + "<body xmlns='http://jabber.org/protocol/httpbind' sid='s'></body>\n"
            + "<body xmlns='http://jabber.org/protocol/httpbind' sid='s'>\n  <!-- nothing -->\n</body>\n"
        XCTAssertEqual(try read(text).stanzas, [])
        XCTAssertEqual(try read(text + "<iq id='after'/>\n").lines, [6])
    }

    func testWebSocketOpenAndCloseAreNoStanzas() throws {
        let result = try read(Self.webSocket)
        XCTAssertEqual(result.stanzas, ["{jabber:client}iq", "{jabber:client}message"])
        XCTAssertEqual(result.lines, [2, 3])
        XCTAssertEqual(result.damages, [])
    }

    /// A `body` that is not BOSH's is a stanza where one could start (a `<body>`
    /// of a message's, alone), and an element like any other inside a stanza.
    func testOtherBodiesAreElements() throws {
        XCTAssertEqual(try read("<body>hi</body>\n<body xmlns='jabber:client'>x</body>\n").stanzas, ["{}body", "{jabber:client}body"])
        XCTAssertEqual(try read("<open/><close xmlns='urn:x'/>").stanzas, ["{}open", "{urn:x}close"])
        let inside = stanza("<message><x xmlns='urn:x'><body xmlns='http://jabber.org/protocol/httpbind'><iq/></body></x></message>")
        // (`$` names the children: the body is built, with its `iq`.)
        XCTAssertEqual(texts("{urn:x}x/{http://jabber.org/protocol/httpbind}body/$", in: inside), ["iq"])
    }

    /// Inside a stream (a log's channel reads its records in one), a body's
    /// children are the stanzas too, in the namespaces they declare.
    func testBodiesInsideAStream() throws {
        let text = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
            + "<body xmlns='http://jabber.org/protocol/httpbind' sid='s'><message xmlns='jabber:client' id='m1'/><iq id='i1'/></body>\n"
            + "<presence id='p1'/>\n"
        let result = try read(text)
        XCTAssertEqual(result.stanzas, ["{jabber:client}message", "{http://jabber.org/protocol/httpbind}iq", "{jabber:client}presence"])
        XCTAssertEqual(result.lines, [2, 2, 3])
    }

    /// A search that builds only the stanzas' roots (`-c '/$'`) still finds
    /// the stanzas inside the bodies: the frame is not part of any stanza.
    func testDepthLimitsCountFromTheStanzaNotTheBody() throws {
        let result = try read(Self.bosh) { $0.depthLimit = 0 }
        XCTAssertEqual(result.stanzas, Self.boshStanzas)
        let whole = try read(Self.bosh) { reader in reader.wholeStanzaTest = { $0.name == "message" } }
        XCTAssertEqual(whole.stanzas, Self.boshStanzas)
    }

    /// A stanza read again from where the reader said it was (the REPL does)
    /// is the same stanza: its place holds the body's start tag to go on with.
    func testAPlaceReadAgainGivesTheSameStanza() throws {
        let bytes = Array(Self.bosh.utf8)
        let result = try read(Self.bosh)
        XCTAssertEqual(result.places.count, 4)
        var again: [String] = []
        for place in result.places {
            let reader = StanzaReader { again.append("{\($0.namespace)}\($0.name)"); return true }
            try reader.feed((place.streamHeader ?? []) + bytes[place.bytes])
            try reader.finish()
        }
        XCTAssertEqual(again, Self.boshStanzas)
        XCTAssertEqual(result.places.first?.streamHeader.map { String(decoding: $0, as: UTF8.self) },
                       "<body xmlns='http://jabber.org/protocol/httpbind'>")
    }

    /// Damage inside a body costs the damaged stanza: the body's next children
    /// are read with its namespaces, and its end tag is no damage.
    func testDamageInsideABody() throws {
        let text = "<body xmlns='http://jabber.org/protocol/httpbind' xmlns:d='urn:xmpp:delay'>\n"
            + "<message xmlns='jabber:client' id='m1'>Tom & Jerry</message>\n"
            + "<message xmlns='jabber:client' id='m2'><d:delay/></message>\n"
            + "</body>\n"
            + "<body xmlns='http://jabber.org/protocol/httpbind'><iq xmlns='jabber:client' id='i1'/></body>\n"
        for chunk in [1, 1 << 16] {
            let result = try read(text, chunk: chunk)
            XCTAssertEqual(result.stanzas, ["{jabber:client}message", "{jabber:client}iq"], "chunk \(chunk)")
            XCTAssertEqual(result.lines, [3, 5], "chunk \(chunk)")
            XCTAssertEqual(result.damages, ["2:45: xmlParseEntityRef: no name"], "chunk \(chunk)")
        }
    }

    /// A child cut off before its body's end tag: the body ends there, and
    /// what follows is read outside it.
    func testAChildCutOffBeforeTheBodysEnd() throws {
        let text = "<body xmlns='http://jabber.org/protocol/httpbind'><message xmlns='jabber:client' id='m1'><body>hi</body></body>\n"
            + "<body xmlns='http://jabber.org/protocol/httpbind'><iq xmlns='jabber:client' id='i1'/></body>\n"
            + "<presence id='p1'/>\n"
        let result = try read(text)
        XCTAssertEqual(result.stanzas, ["{jabber:client}iq", "{}presence"])
        XCTAssertEqual(result.damages, ["1:112: Opening and ending tag mismatch: message line 1 and body"])
        let inStream = try read("<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n" + text)
        XCTAssertEqual(inStream.stanzas, ["{jabber:client}iq", "{jabber:client}presence"])
    }

    /// A body left open at the end (a capture cut off) ends as a stream does:
    /// its stanzas are read, and that is no damage.
    func testAnUnclosedBodyEndsQuietly() throws {
        let text = "<body xmlns='http://jabber.org/protocol/httpbind'>\n<message xmlns='jabber:client' id='m1'/>\n"
        XCTAssertEqual(try StanzaReader.stanzas(in: text).map(\.name), ["message"])
        XCTAssertEqual(try read(text + "<iq>").damages, ["3:1: <iq> is not closed (the input ends at 3:5)"])
    }

    /// More stanzas than one parser reads (StanzaReader.restartInterval): the
    /// parser that takes over is inside the body, its namespaces in scope.
    func testABodyOfManyStanzas() throws {
        var text = "<body xmlns='http://jabber.org/protocol/httpbind' xmlns:client='jabber:client'>\n"
        for i in 0..<2500 { text += "<client:message id='m\(i)'/>\n" }
        text += "</body>\n<iq id='after'/>\n"
        let result = try read(text)
        XCTAssertEqual(result.stanzas.count, 2501)
        XCTAssertEqual(Set(result.stanzas.dropLast()), ["{jabber:client}message"])
        XCTAssertEqual(result.stanzas.last, "{}iq")
        XCTAssertEqual(result.lines.last, 2503)
        XCTAssertEqual(result.damages, [])
    }
}
