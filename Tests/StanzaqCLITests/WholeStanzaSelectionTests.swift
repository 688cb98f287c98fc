import Foundation
import StanzaqTestSupport
import XCTest

/// `-s` and `-v` print whole the stanzas that count; when the queries look at
/// a stanza's start tag only (`/<type=error>`), the reader builds whole only
/// those (stanzaq(1), OUTPUT). What is printed must not change: whole trees,
/// namespaces inherited and redeclared, context, pairs, damage.
final class WholeStanzaSelectionTests: CLITestCase {
    static let stream = """
        <?xml version='1.0'?>
        <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' xmlns:x='urn:example:x' to='capulet.lit'>
        <message type='error' id='1'><x:a><b xmlns='urn:b'><x:c>deep<d><e xmlns:x='urn:other'><x:f>1 &lt; 2 &amp; 3</x:f></e></d></x:c></b></x:a><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></message>
        <message type='chat' id='2'><body>hi</body><x:a/></message>
        <iq type='get' id='3'><query xmlns='jabber:iq:roster'/></iq>
        <iq type='error' id='3'><query xmlns='jabber:iq:roster'/><error type='cancel'/></iq>
        <presence type='error' id='4'><x:a>no end</presence>
        <message type='chat' id='5'><body>cut</x:a></message>
        <message type='ERROR' id='6'/>
        </stream:stream>

        """
    static let first = "<message xmlns='jabber:client' type='error' id='1'><x:a xmlns:x='urn:example:x'><b xmlns='urn:b'><x:c>deep<d><e xmlns:x='urn:other'><x:f>1 &lt; 2 &amp; 3</x:f></e></d></x:c></b></x:a><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></message>"
    static let second = "<message xmlns='jabber:client' type='chat' id='2'><body>hi</body><x:a xmlns:x='urn:example:x'/></message>"
    static let get = "<iq xmlns='jabber:client' type='get' id='3'><query xmlns='jabber:iq:roster'/></iq>"
    static let error = "<iq xmlns='jabber:client' type='error' id='3'><query xmlns='jabber:iq:roster'/><error type='cancel'/></iq>"
    static let last = "<message xmlns='jabber:client' type='ERROR' id='6'/>"
    static let damage = """
        stream.xml:7:53: Opening and ending tag mismatch: a line 7 and presence
        stream.xml:8:44: Opening and ending tag mismatch: body line 8 and x:a

        """

    func testSelectedStanzasArePrintedWhole() throws {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("stream.xml", Self.stream)
        try assertStanzaq(["-s", "/<type=error>", "stream.xml"], in: scratch.url,
                          stdout: [Self.first, Self.error, Self.last].map { $0 + "\n" }.joined(),
                          stderr: Self.damage, status: 2)
        try assertStanzaq(["-s", "-v", "/<type=error>", "stream.xml"], in: scratch.url,
                          stdout: [Self.second, Self.get].map { $0 + "\n" }.joined(), stderr: Self.damage, status: 2)
        try assertStanzaq(["-s", "-v", "/<id=3>", "stream.xml"], in: scratch.url,
                          stdout: [Self.first, Self.second, Self.last].map { $0 + "\n" }.joined(), stderr: Self.damage, status: 2)
        try assertStanzaq(["-s", "-H", "-n", "/@id", "stream.xml"], in: scratch.url,
                          stdout: [Self.first, Self.second, Self.get, Self.error, Self.last].enumerated()
                              .map { "stream.xml:\($0.offset + 1):\($0.element)\n" }.joined(),
                          stderr: Self.damage, status: 2)
    }

    func testContextAndPairsStillPrintTheOthersWhole() throws {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("stream.xml", Self.stream)
        try assertStanzaq(["-s", "-n", "-A", "1", "/<type=error>", "stream.xml"], in: scratch.url,
                          stdout: "1:\(Self.first)\n2-\(Self.second)\n--\n4:\(Self.error)\n5:\(Self.last)\n",
                          stderr: Self.damage, status: 2)
        try assertStanzaq(["-s", "-B", "1", "/<type=error>", "stream.xml"], in: scratch.url,
                          stdout: "\(Self.first)\n--\n\(Self.get)\n\(Self.error)\n\(Self.last)\n",
                          stderr: Self.damage, status: 2)
        try assertStanzaq(["-s", "--pair", "/<type=error>", "stream.xml"], in: scratch.url,
                          stdout: "\(Self.first)\n--\n\(Self.get)\n\(Self.error)\n\(Self.last)\n",
                          stderr: Self.damage, status: 2)
    }

    /// An evaluation error on the start tag: the stanza is built whole and
    /// evaluated again, the error reported in its place.
    func testErrorsAreReportedInOrder() throws {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("stream.xml", Self.stream)
        func notAnInteger(_ stanza: Int, _ value: String) -> String {
            "stream.xml:stanza \(stanza): query '/@type|int': '\(value)' is not an integer "
                + "from -9223372036854775808 to 9223372036854775807 (|int)\n"
        }
        try assertStanzaq(["-s", "--strict", "-e", "/@type|int", "-e", "/<id=3>", "stream.xml"], in: scratch.url,
                          stdout: "\(Self.get)\n\(Self.error)\n",
                          stderr: notAnInteger(1, "error") + notAnInteger(2, "chat") + notAnInteger(3, "get")
                              + notAnInteger(4, "error") + Self.damage + notAnInteger(5, "ERROR"),
                          status: 2)
    }

    /// The answer taken at a stanza's start tag is dropped with the stanza, even
    /// when the stanza is not evaluated (`--direction` leaves out every stanza of
    /// an XML input): kept, each would hold its root to the end of the input
    /// (40 MB more for this one than counting them takes).
    func testDecisionsAreNotKept() throws {
        let scratch = try ScratchDirectory()
        var text = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
        for index in 0..<300_000 { text += "<message type='chat' id='m\(index)'><body>hi</body></message>\n" }
        let path = try scratch.write("many.xml", text).path
        let run = try Runner.stanzaq(["--threads", "1", "--direction", "in", "-s", "/<type=error>", path])
        XCTAssertEqual(run.output, "")
        XCTAssertEqual(run.stderr, "stanzaq: warning: \(path): XML input has no direction: --direction in selects none of their stanzas\n")
        XCTAssertEqual(run.status, 1)
        // The peak of a child includes what it had before exec: compared with a run that keeps nothing.
        let counting = try Runner.stanzaq(["--threads", "1", "-c", "/<type=error>", path])
        XCTAssertEqual(counting.output, "0\n")
        XCTAssertLessThan(run.peakMemoryKiB, counting.peakMemoryKiB + 16 * 1024,
                          "peak memory in KiB (counting: \(counting.peakMemoryKiB) KiB)")
    }

    /// The same stanzas as with a query that makes the reader build every
    /// stanza whole (a `~` filter), over the corpus and a damaged stream, with
    /// one thread and with parts.
    func testSameAsBuildingEveryStanzaWhole() throws {
        let corpus = PackagePaths.shared.appendingPathComponent("corpus/xep-stanzas.xml").path
        guard FileManager.default.fileExists(atPath: corpus) else {
            throw XCTSkip("the shared corpus is not at \(corpus)")
        }
        let scratch = try ScratchDirectory()
        let damaged = try scratch.write("damaged.xml", ParallelTests.stream(stanzas: 300, damaged: true)).path
        for path in [corpus, damaged] {
            for options in [["-s"], ["-s", "-v"], ["-s", "-n", "-H"], ["-s", "--compact", "-o", "json"]] {
                for threads in ["1", "2"] {
                    let fast = try Runner.stanzaq(["--threads", threads] + options + ["-e", "/<type=error>", "-e", "/@nothing", path])
                    let whole = try Runner.stanzaq(["--threads", threads] + options + ["-e", "/<type=error>", "-e", "/<nothing~.>", path])
                    let shown = "stanzaq --threads \(threads) \(options.joined(separator: " ")) … \(path)"
                    XCTAssertFalse(fast.output.isEmpty, shown)
                    XCTAssertEqual(fast.output, whole.output, "stdout of \(shown)")
                    XCTAssertEqual(fast.stderr, whole.stderr, "stderr of \(shown)")
                    XCTAssertEqual(fast.status, whole.status, "exit status of \(shown)")
                }
            }
        }
    }
}
