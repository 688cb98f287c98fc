import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS: how a log's format is decided, and the namespace of a
/// client log's stanzas.
final class LogDetectionTests: CLITestCase {
    private let monal = """
        2024-11-23 10:14:00:305 [Info] x.m:1 SEND: <message xmlns="jabber:client" id="a"/>
        2024-11-23 10:14:01:305 [Info] x.m:1 RECV Stanza: <iq xmlns="jabber:client" id="b"/>

        """

    /// A `SEND: <` line is slixmpp's and Monal's alike: it does not decide the
    /// format, and the `RECV Stanza:` line after it does.
    func testAMonalLogStartingWithASentStanzaIsReadWhole() throws {
        try assertStanzaq(["-e", "/$", "-e", "/@id"], stdin: monal, stdout: "message\ta\niq\tb\n", status: 0)
        try assertStanzaq(["--json", "--fields", "direction", "-e", "/@id"], stdin: monal,
                          stdout: "{\"direction\":\"out\",\"value\":\"a\"}\n{\"direction\":\"in\",\"value\":\"b\"}\n", status: 0)
    }

    /// What only suggests a format is taken when no line typical of another
    /// comes within the 64 lines after it: a Monal log whose first RECV Stanza:
    /// line comes later is read as slixmpp's, and that line is no record of it.
    func testALineOnlySuggestingAFormatIsTakenWithoutAnotherWithinSixtyFourLines() throws {
        let send = "2024-11-23 10:14:00:305 [Info] x.m:1 SEND: <message xmlns=\"jabber:client\" id=\"a\"/>\n"
        let receive = "2024-11-23 10:14:01:305 [Info] x.m:1 RECV Stanza: <iq xmlns=\"jabber:client\" id=\"b\"/>\n"
        let filler = "2024-11-23 10:14:00:305 [Info] x.m:1 connected\n"
        try assertStanzaq(["-e", "/$", "-e", "/@id"], stdin: send + String(repeating: filler, count: 63) + receive,
                          stdout: "message\ta\niq\tb\n", status: 0)
        try assertStanzaq(["-e", "/$", "-e", "/@id"], stdin: send + String(repeating: filler, count: 64) + receive,
                          stdout: "message\ta\n", status: 0)
    }

    /// slixmpp logs the stanzas it receives without the namespace of their stream.
    func testAClientLogsStanzasAreInJabberClientUnlessItsStreamSaysOtherwise() throws {
        let log = """
            2026-11-23 09:30:12,510 DEBUG    RECV: <message from="romeo@montague.lit/orchard" id="m1" type="chat"><body>hi</body></message>
            2026-11-23 09:30:13,001 DEBUG    SEND: <message to="romeo@montague.lit" id="m2" type="chat" xmlns="jabber:client"><body>x</body></message>

            """
        try assertStanzaq(["--direction", "in", "-c", "-e", "/{jabber:client}message"], stdin: log, stdout: "1\n", status: 0)
        try assertStanzaq(["-e", "/@id", "-e", "/@xmlns"], stdin: log, stdout: "m1\tjabber:client\nm2\tjabber:client\n", status: 0)
        let component = """
            DEBUG    RECV: <stream:stream xmlns="jabber:component:accept" xmlns:stream="http://etherx.jabber.org/streams" id="c1">
            DEBUG    RECV: <message id="m3"/>

            """
        try assertStanzaq(["-e", "/@id", "-e", "/@xmlns"], stdin: component, stdout: "m3\tjabber:component:accept\n", status: 0)
    }

    /// MongooseIM's flatlog lines (`when=` and a date, then ` level=`) decide its
    /// format from the first one, its startup messages, long before a stanza.
    func testAMongooseIMLogIsRecognisedByItsFirstLine() throws {
        let notice = "when=2026-11-23T09:30:11.902113+00:00 level=notice what=mongooseim_node_started pid=<0.1123.0> "
            + "at=ejabberd_app:do_start/0:84 version=6.8.0 node=mongooseim@localhost \n"
        let read = "when=2026-11-23T09:30:12.240385+00:00 level=debug what=received_xml_on_stream pid=<0.1745.0> "
            + "at=mongoose_c2s:handle_socket_packet/2:240 packet=<presence/> c2s_pid=<0.1745.0> \n"
        try assertStanzaq(["--json", "--fields", "line,session", "-e", "/$"], stdin: notice + String(repeating: notice, count: 1200) + read,
                          stdout: "{\"line\":1202,\"session\":\"<0.1745.0>\",\"value\":\"presence\"}\n", status: 0)
    }

    /// `--log=NAME` that the log's first lines do not fit: one warning naming
    /// the format detection picks, and the search as asked.
    func testANamedFormatThatDoesNotFitIsWarnedAbout() throws {
        try assertStanzaq(["--log=ejabberd", "-c", "/", "logs/prosody.log"], stdout: "0\n", stderr: """
            stanzaq: warning: logs/prosody.log: no record of the ejabberd format in its first lines; it reads as prosody (--log=prosody, or no --log)

            """, status: 1)
        try assertStanzaq(["--log=prosody", "-c", "/"], stdin: monal, stdout: "0\n", stderr: """
            stanzaq: warning: (standard input): no record of the prosody format in its first lines; it reads as monal (--log=monal, or no --log)

            """, status: 1)
        // A format that reads a line as a record fits, though detection would pick another.
        try assertStanzaq(["--log=slixmpp", "-c", "/"], stdin: monal, stdout: "1\n", status: 0)
        // Lines no format is typical of: generic, no warning.
        try assertStanzaq(["--log=prosody", "-c", "/"], stdin: "starting\n<message/>\n", stdout: "0\n", status: 1)
    }

    /// Every example log read with its own format's name: no warning.
    func testEveryExampleLogFitsItsOwnFormat() throws {
        for (file, format) in [("prosody.log", "prosody"), ("ejabberd.log", "ejabberd"), ("mongooseim.log", "mongooseim"),
                               ("smack.log", "smack"), ("slixmpp.log", "slixmpp"), ("nbxmpp.log", "nbxmpp"), ("dino.log", "dino"),
                               ("gajim-console.xml", "gajim"), ("monal.log", "monal"), ("conversations.log", "conversations"),
                               ("tshark-follow.txt", "tshark"), ("prosody-archive.json", "json"), ("ejabberd-archive.tsv", "tsv"),
                               ("generic.log", "generic"), ("prosody-syslog.log", "prosody"), ("prosody-watch.log", "prosody-watch"),
                               ("logxml.xml", "logxml"), ("openfire.log", "openfire"),
                               ("profanity.log", "profanity"), ("qxmpp.log", "qxmpp"), ("strophejs.log", "strophejs"),
                               ("jabberd2.log", "jabberd2")] {
            let run = try InProcess.stanzaq(["--log=\(format)", "-c", "/", "logs/\(file)"])
            XCTAssertEqual(run.stderr, "", file)
            XCTAssertEqual(run.status, 0, file)
        }
    }
}
