import XCTest
import StanzaQuery
import StanzaqTestSupport

/// stanzaq(1), LOGS, "Formats": the format detected in every log the tests
/// hold — each format's sample (examples/logs) and each log real software wrote
/// (Tests/Fixtures/real-logs) — is the format that wrote it: no format takes
/// another's log, however much of its lines they share (slixmpp's `RECV: <` is
/// in Profanity's and Monal's lines too).
final class FormatDetectionTests: XCTestCase {
    static let expected: [(path: String, format: LogFormat)] = [
        ("examples/logs/conversations.log", .conversations), ("examples/logs/dino.log", .dino),
        ("examples/logs/ejabberd-archive.tsv", .tsv), ("examples/logs/ejabberd.log", .ejabberd),
        ("examples/logs/gajim-console.xml", .gajim), ("examples/logs/generic.log", .generic),
        ("examples/logs/monal.log", .monal), ("examples/logs/mongooseim.log", .mongooseim),
        ("examples/logs/nbxmpp.log", .nbxmpp), ("examples/logs/profanity.log", .profanity),
        ("examples/logs/prosody-archive.json", .json), ("examples/logs/prosody-syslog.log", .prosody),
        ("examples/logs/prosody.log", .prosody),
        ("examples/logs/prosody-watch.log", .prosodyWatch), ("examples/logs/logxml.xml", .logxml),
        ("examples/logs/openfire.log", .openfire), ("examples/logs/slixmpp.log", .slixmpp),
        ("examples/logs/smack.log", .smack), ("examples/logs/tshark-follow.txt", .tshark),
        ("examples/logs/qxmpp.log", .qxmpp), ("examples/logs/strophejs.log", .strophejs),
        ("examples/logs/xmppjs.log", .xmppjs), ("examples/logs/tigase.log", .tigase),
        ("examples/logs/jabberd2.log", .jabberd2),
        ("Tests/Fixtures/real-logs/logs/aioxmpp-kim.log", .aioxmpp),
        ("Tests/Fixtures/real-logs/logs/ejabberd-slixmpp-notime-frank.log", .slixmpp),
        ("Tests/Fixtures/real-logs/logs/ejabberd-slixmpp-time-erin.log", .slixmpp),
        ("Tests/Fixtures/real-logs/logs/ejabberd.log", .ejabberd),
        ("Tests/Fixtures/real-logs/logs/finch-wanda.log", .libpurple),
        ("Tests/Fixtures/real-logs/logs/go-sendxmpp-ulf.log", .goxmpp),
        ("Tests/Fixtures/real-logs/logs/goxmpp-sven.log", .goxmpp),
        ("Tests/Fixtures/real-logs/logs/libstrophe-dave.log", .libstrophe),
        ("Tests/Fixtures/real-logs/logs/mcabber-quinn.log", .mcabber),
        ("Tests/Fixtures/real-logs/logs/nbxmpp-carol.log", .nbxmpp),
        ("Tests/Fixtures/real-logs/logs/nbxmpp-pypi-paula.log", .nbxmpp),
        ("Tests/Fixtures/real-logs/logs/poezio-mia.log", .slixmpp),
        ("Tests/Fixtures/real-logs/logs/profanity-grace.log", .profanity),
        ("Tests/Fixtures/real-logs/logs/prosody-rawdebug.log", .prosody),
        ("Tests/Fixtures/real-logs/logs/prosody.log", .prosody),
        ("Tests/Fixtures/real-logs/logs/sendxmpp-quinn.log", .xmlstream),
        ("Tests/Fixtures/real-logs/logs/slixmpp-notime-bob.log", .slixmpp),
        ("Tests/Fixtures/real-logs/logs/slixmpp-pypi-notime-paula.log", .slixmpp),
        ("Tests/Fixtures/real-logs/logs/slixmpp-pypi-time-olaf.log", .slixmpp),
        ("Tests/Fixtures/real-logs/logs/slixmpp-time-alice.log", .slixmpp),
        ("Tests/Fixtures/real-logs/tshark/ejabberd-follow.txt", .tshark),
        ("Tests/Fixtures/real-logs/tshark/prosody-follow.txt", .tshark),
        ("Tests/Fixtures/real-logs/logs/bosh-amy.log", .strophejs),
        ("Tests/Fixtures/real-logs/logs/websocket-ben.log", .strophejs),
        ("Tests/Fixtures/real-logs/logs/prosody-web.log", .prosody),
        ("Tests/Fixtures/real-logs/logs/qxmpp-dan.log", .qxmpp),
        ("Tests/Fixtures/real-logs/tshark/bosh-follow.txt", .tshark),
    ]

    /// The table holds every sample and every real log.
    func testTheTableHoldsEveryLog() throws {
        var paths: [String] = []
        for folder in ["examples/logs", "Tests/Fixtures/real-logs/logs"] {
            paths += try FileManager.default.contentsOfDirectory(atPath: PackagePaths.file(folder).path)
                .filter { $0 != "README.md" }.map { folder + "/" + $0 }
        }
        paths += try FileManager.default.contentsOfDirectory(atPath: PackagePaths.file("Tests/Fixtures/real-logs/tshark").path)
            .filter { $0.hasSuffix("-follow.txt") }.map { "Tests/Fixtures/real-logs/tshark/" + $0 }
        XCTAssertEqual(paths.sorted(), Self.expected.map(\.path).sorted())
    }

    func testEveryLogIsDetectedAsTheFormatThatWroteIt() throws {
        for (path, format) in Self.expected {
            let reader = LogReader(format: nil, handler: { _, _ in true }, damage: { _ in })
            reader.feed(Array(try Data(contentsOf: PackagePaths.file(path))))
            reader.finish()
            XCTAssertEqual(reader.format, format, path)
        }
    }
}
