import XCTest
import Foundation
import StanzaQuery
import StanzaqTestSupport

/// stanzaq(1), INPUT: what the reader makes of its input.
final class ReaderTests: XCTestCase {

    /// Stanzas of the shared corpus, counted independently with Python's
    /// xml.etree: every child of the stream element, but for its 50 BOSH
    /// bodies, which are transport, their children in their place
    /// (`[s for c in root for s in (list(c) if c.tag == BODY else [c])]`, with
    /// `BODY = '{http://jabber.org/protocol/httpbind}body'`). The corpus has
    /// 4,777 children of its stream.
    static let corpusStanzaCount = 4764
    /// Stanzas of the corpus whose root is {jabber:client}iq / message / presence (xml.etree).
    static let corpusIQCount = 3046
    static let corpusMessageCount = 715
    static let corpusPresenceCount = 350
    /// {jabber:client}iq stanzas with type='result' (xml.etree).
    static let corpusIQResultCount = 1043
    /// Stanzas with a {jabber:x:data}x grandchild (xml.etree).
    static let corpusFormGrandchildCount = 236
    /// The shared corpus beside the repository (`../shared`, as on CI), or `$STANZAQ_CORPUS`.
    static let corpusPath: String = {
        if let path = ProcessInfo.processInfo.environment["STANZAQ_CORPUS"], !path.isEmpty { return path }
        return PackagePaths.shared.appendingPathComponent("corpus/xep-stanzas.xml").path
    }()

    /// Skips a test when the corpus is not there (a clone without `../shared`).
    static func requireCorpus() throws {
        guard FileManager.default.fileExists(atPath: corpusPath) else {
            throw XCTSkip("the shared corpus is not at \(corpusPath) (set STANZAQ_CORPUS)")
        }
    }

    private func names(_ xml: String, defaultNamespace: String? = nil) throws -> [String] {
        try StanzaReader.stanzas(in: xml, defaultNamespace: defaultNamespace).map { "{\($0.namespace)}\($0.name)" }
    }

    /// Feeds `bytes` in chunks of `size` and returns the serialised stanzas.
    private func read(_ bytes: [UInt8], chunk size: Int) throws -> [String] {
        var result: [String] = []
        let reader = StanzaReader { result.append($0.xmlString()); return true }
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            try reader.feed(Array(bytes[start..<end]))
            start = end
        }
        try reader.finish()
        XCTAssertEqual(reader.stanzaCount, result.count)
        return result
    }

    // MARK: The four input shapes

    func testSingleElement() throws {
        XCTAssertEqual(try names("<message xmlns='jabber:client'><body>x</body></message>"), ["{jabber:client}message"])
        XCTAssertEqual(try names("<?xml version='1.0' encoding='UTF-8'?>\n<a/>\n"), ["{}a"])
    }

    func testSequenceOfTopLevelElements() throws {
        XCTAssertEqual(try names("<a/><b xmlns='urn:b'/>\n\n  <c>t</c>\t\n"), ["{}a", "{urn:b}b", "{}c"])
        XCTAssertEqual(try names("  \n<a/><!-- between --><b/>"), ["{}a", "{}b"])
    }

    func testStreamChildrenAreStanzas() throws {
        let xml = """
            <?xml version='1.0'?>
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='example.com' version='1.0'>
              <stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:features>
              <message to='a@b'><body>hi</body></message>
              <presence/>
            </stream:stream>
            """
        let stanzas = try StanzaReader.stanzas(in: xml)
        XCTAssertEqual(stanzas.map { "{\($0.namespace)}\($0.name)" },
                       ["{http://etherx.jabber.org/streams}features", "{jabber:client}message", "{jabber:client}presence"])
        for stanza in stanzas { XCTAssertNil(stanza.parent) }
        XCTAssertEqual(texts("body#", in: stanzas[1]), ["hi"])
        XCTAssertEqual(texts("{jabber:client}body#", in: stanzas[1]), ["hi"])
        XCTAssertEqual(evaluationError("..", in: stanzas[1]), "'..' at column 1 climbs above <message>, the root of the stanza")
        // The stanza is serialised standalone, with the namespaces it inherited.
        XCTAssertEqual(stanzas[0].xmlString(),
                       "<stream:features xmlns:stream='http://etherx.jabber.org/streams'><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:features>")
        XCTAssertEqual(stanzas[1].xmlString(), "<message xmlns='jabber:client' to='a@b'><body>hi</body></message>")
    }

    func testUnclosedStream() throws {
        let xml = """
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>
            <message id='1'/>
            <iq id='2' type='get'><ping xmlns='urn:xmpp:ping'/></iq>

            """
        XCTAssertEqual(try names(xml), ["{jabber:client}message", "{jabber:client}iq"])
        XCTAssertEqual(try names("<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>"), [])
    }

    func testSeveralStreams() throws {
        let xml = """
            <?xml version='1.0'?>
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>
            <message id='1'/>
            </stream:stream>
            <?xml version='1.0'?>
            <stream:stream xmlns='jabber:server' xmlns:stream='http://etherx.jabber.org/streams'>
            <message id='2'/><presence id='3'/>
            </stream:stream>
            <?xml version='1.0'?>
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>
            <iq id='4'/>
            """
        let stanzas = try StanzaReader.stanzas(in: xml)
        XCTAssertEqual(stanzas.map { "{\($0.namespace)}\($0.name)@\($0.attribute("id") ?? "")" },
                       ["{jabber:client}message@1", "{jabber:server}message@2", "{jabber:server}presence@3", "{jabber:client}iq@4"])
    }

    func testStanzaInheritsStreamPrefixes() throws {
        let xml = """
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' xmlns:db='jabber:server:dialback'>
            <stream:error><host-unknown xmlns='urn:ietf:params:xml:ns:xmpp-streams'/></stream:error>
            <db:result from='a' to='b' type='valid'/>
            </stream:stream>
            """
        let stanzas = try StanzaReader.stanzas(in: xml)
        XCTAssertEqual(stanzas.map { "{\($0.namespace)}\($0.name)" },
                       ["{http://etherx.jabber.org/streams}error", "{jabber:server:dialback}result"])
        XCTAssertEqual(stanzas[0].namespaceURI(forPrefix: "db"), "jabber:server:dialback")
        XCTAssertEqual(stanzas[0].namespaceURI(forPrefix: nil), "jabber:client")
        XCTAssertEqual(stanzas[1].xmlString(), "<db:result xmlns:db='jabber:server:dialback' from='a' to='b' type='valid'/>")
        XCTAssertEqual(texts("/{http://etherx.jabber.org/streams}error/{urn:ietf:params:xml:ns:xmpp-streams}*$", in: stanzas[0]), ["host-unknown"])
    }

    // MARK: Default namespace

    func testDefaultNamespace() throws {
        let xml = "<message to='a@b'><body>x</body><x xmlns='jabber:x:oob'><url>u</url></x></message>"
        XCTAssertEqual(try names(xml), ["{}message"])
        let stanzas = try StanzaReader.stanzas(in: xml, defaultNamespace: "jabber:client")
        XCTAssertEqual(stanzas.map(\.namespace), ["jabber:client"])
        XCTAssertEqual(texts("/{jabber:client}message/{jabber:client}body#", in: stanzas[0]), ["x"])
        XCTAssertEqual(texts("{jabber:x:oob}x/url#", in: stanzas[0]), ["u"])
        // An element that declares its namespace keeps it.
        XCTAssertEqual(try names("<iq xmlns='jabber:server'/>", defaultNamespace: "jabber:client"), ["{jabber:server}iq"])
    }

    // MARK: Text

    func testCDATAAndReferencesAreDecoded() throws {
        let s = stanza("<a v='&lt;&amp;&gt;&quot;&apos;&#65;&#x42;'>x&lt;y&amp;z<![CDATA[<b>&amp;</b>]]>&#x263A;</a>")
        XCTAssertEqual(s.attribute("v"), "<&>\"'AB")
        XCTAssertEqual(s.text, "x<y&z<b>&amp;</b>☺")
        XCTAssertEqual(s.children.count, 1)
    }

    func testCommentsAndProcessingInstructionsAreSkipped() throws {
        let s = stanza("<a>one<!-- c --><?pi data?>two<b/></a>")
        XCTAssertEqual(s.text, "onetwo")
        XCTAssertEqual(s.childElements.map(\.name), ["b"])
    }

    // MARK: Errors

    func testDTDIsRefused() {
        let (delivered, error) = readerFailure("<!DOCTYPE a [<!ENTITY e 'boom'>]>\n<a>&e;</a>")
        XCTAssertEqual(delivered, [])
        // libxml2 reports the internal subset at its '['.
        XCTAssertEqual(error, "1:13: DTD is not allowed (XMPP forbids <!DOCTYPE>)")
    }

    func testDTDAfterGoodStanzasIsRefused() {
        let (delivered, error) = readerFailure("<a/>\n<b/>\n<!DOCTYPE c SYSTEM 'http://example.com/c.dtd'>\n<c/>")
        XCTAssertEqual(delivered, ["a", "b"])
        // An external subset: reported at the end of the declaration, never fetched.
        XCTAssertEqual(error, "3:46: DTD is not allowed (XMPP forbids <!DOCTYPE>)")
    }

    func testMalformedAfterTwoGoodStanzas() {
        let (delivered, error) = readerFailure("<a/>\n<b>ok</b>\n<c><d></c>\n<e/>")
        XCTAssertEqual(delivered, ["a", "b"])
        XCTAssertEqual(error, "3:11: Opening and ending tag mismatch: d line 3 and c")
    }

    func testMalformedInsideAStream() {
        let xml = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n<message/>\n<presence/>\n<iq id='x></iq>"
        let (delivered, error) = readerFailure(xml)
        XCTAssertEqual(delivered, ["message", "presence"])
        XCTAssertEqual(error, "4:11: Unescaped '<' not allowed in attributes values")
    }

    func testTruncatedStanza() {
        let (delivered, error) = readerFailure("<a/>\n<b><c>text")
        XCTAssertEqual(delivered, ["a"])
        XCTAssertEqual(error, "2:1: <b> is not closed (the input ends at 2:11, inside <c>)")
    }

    func testTruncatedStanzaInsideAStream() {
        let (delivered, error) = readerFailure(
            "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n<message/>\n<message><body>cut")
        XCTAssertEqual(delivered, ["message"])
        XCTAssertEqual(error, "3:1: <message> is not closed (the input ends at 3:19, inside <body>)")
    }

    func testTruncatedStartTag() {
        let (delivered, error) = readerFailure("<a/><b x='1'")
        XCTAssertEqual(delivered, ["a"])
        XCTAssertEqual(error, "1:13: unexpected end of input")
    }

    func testInputCutOffAnywhereInAStanza() {
        // stanzaq(1), INPUT (an unclosed stream is fine, a cut-off stanza is not): reported
        // where the stanza was opened, with where the input ends, whatever libxml2 calls
        // the place where the input stops.
        let cases = [
            ("<a><b x='1'", "1:1: <a> is not closed (the input ends at 1:12)"),
            ("<a><b x='1", "1:1: <a> is not closed (the input ends at 1:11)"),
            // libxml2 hands over <b> before it finds its start tag unfinished.
            ("<a><b", "1:1: <a> is not closed (the input ends at 1:6, inside <b>)"),
            ("<a></a", "1:1: <a> is not closed (the input ends at 1:7)"),
            ("<a>x &amp", "1:1: <a> is not closed (the input ends at 1:10)"),
            ("<a><!-- c", "1:1: <a> is not closed (the input ends at 1:10)"),
            ("<a><![CDATA[x", "1:1: <a> is not closed (the input ends at 1:14)"),
            ("<a/><b", "1:5: <b> is not closed (the input ends at 1:7)"),
            ("<?xml version='1.0'?>\n<a", "2:1: <a> is not closed (the input ends at 2:3)"),
            ("<stream:stream xmlns:stream='http://etherx.jabber.org/streams'>\n<p:m", "2:5: unexpected end of input"),
        ]
        for (xml, expected) in cases {
            XCTAssertEqual(readerFailure(xml).error, expected, xml)
        }
        // A real error just before the end stays what it is.
        XCTAssertEqual(readerFailure("<a/>\n<b x=1").error, "2:6: AttValue: \" or ' expected")
    }

    func testErrorIsRethrownAndLaterInputIgnored() {
        var names: [String] = []
        let reader = StanzaReader { names.append($0.name); return true }
        XCTAssertThrowsError(try reader.feed(Array("<a/><b></c>".utf8)))
        XCTAssertThrowsError(try reader.feed(Array("<d/>".utf8)))
        XCTAssertThrowsError(try reader.finish())
        XCTAssertEqual(names, ["a"])
    }

    func testHandlerCanStopTheReader() throws {
        var names: [String] = []
        let reader = StanzaReader { names.append($0.name); return names.count < 2 }
        try reader.feed(Array("<a/><b/><c/><d/>".utf8))
        try reader.finish()
        XCTAssertEqual(names, ["a", "b"])
        XCTAssertTrue(reader.isStopped)
    }

    func testStanzasAreDeliveredAsSoonAsTheyEnd() throws {
        var names: [String] = []
        let reader = StanzaReader { names.append($0.name); return true }
        try reader.feed(Array("<stream:stream xmlns:stream='http://etherx.jabber.org/streams'><a/><b>".utf8))
        XCTAssertEqual(names, ["a"])
        try reader.feed(Array("</b>".utf8))
        XCTAssertEqual(names, ["a", "b"])
        try reader.finish()
    }

    // MARK: Chunking and the corpus

    func testByteAtATimeGivesTheSameStanzas() throws {
        let xml = """
            <?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><message id='1'><body>a &amp; b<![CDATA[ <c> ]]></body></message>
            <presence from='x' xml:lang='en'/></stream:stream>
            <a/> <b xmlns='urn:b'><c>☺</c></b>
            """
        let bytes = Array(xml.utf8)
        let whole = try read(bytes, chunk: bytes.count)
        XCTAssertEqual(whole, [
            "<message xmlns='jabber:client' id='1'><body>a &amp; b &lt;c&gt; </body></message>",
            "<presence xmlns='jabber:client' from='x' xml:lang='en'/>",
            "<a/>",
            "<b xmlns='urn:b'><c>☺</c></b>",
        ])
        XCTAssertEqual(try read(bytes, chunk: 1), whole)
        XCTAssertEqual(try read(bytes, chunk: 3), whole)
    }

    func testCorpusStanzaCount() throws {
        try Self.requireCorpus()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.corpusPath)))
        var count = 0, iq = 0, message = 0, presence = 0, iqResult = 0, forms = 0
        let isIQ = try Query("/{jabber:client}iq"), isMessage = try Query("/{jabber:client}message")
        let isPresence = try Query("/{jabber:client}presence"), isResult = try Query("/{jabber:client}iq<type=result>")
        let hasForm = try Query("{*}*/{jabber:x:data}x")
        let reader = StanzaReader { stanza in
            count += 1
            if (try? isIQ.check(in: stanza)) == true { iq += 1 }
            if (try? isMessage.check(in: stanza)) == true { message += 1 }
            if (try? isPresence.check(in: stanza)) == true { presence += 1 }
            if (try? isResult.check(in: stanza)) == true { iqResult += 1 }
            if (try? hasForm.check(in: stanza)) == true { forms += 1 }
            return true
        }
        try reader.feed(bytes)
        try reader.finish()
        XCTAssertEqual(count, Self.corpusStanzaCount)
        XCTAssertEqual(reader.stanzaCount, Self.corpusStanzaCount)
        XCTAssertEqual(iq, Self.corpusIQCount)
        XCTAssertEqual(message, Self.corpusMessageCount)
        XCTAssertEqual(presence, Self.corpusPresenceCount)
        XCTAssertEqual(iqResult, Self.corpusIQResultCount)
        XCTAssertEqual(forms, Self.corpusFormGrandchildCount)
    }

    func testCorpusByteAtATimeGivesIdenticalResults() throws {
        try Self.requireCorpus()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.corpusPath)))
        let whole = try read(bytes, chunk: bytes.count)
        XCTAssertEqual(whole.count, Self.corpusStanzaCount)
        let oneByte = try read(bytes, chunk: 1)
        XCTAssertEqual(oneByte.count, whole.count)
        XCTAssertTrue(oneByte == whole, "stanzas differ when the corpus is fed one byte at a time")
        let odd = try read(bytes, chunk: 4093)
        XCTAssertTrue(odd == whole, "stanzas differ when the corpus is fed in chunks of 4093 bytes")
    }

    func testReadFromFileDescriptor() throws {
        try Self.requireCorpus()
        let fd = open(Self.corpusPath, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var count = 0
        let reader = StanzaReader { _ in count += 1; return true }
        try reader.read(fileDescriptor: fd, chunkSize: 1000)
        XCTAssertEqual(count, Self.corpusStanzaCount)
    }
}
