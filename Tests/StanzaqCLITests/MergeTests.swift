import Foundation
import StanzaqTestSupport
import XCTest

/// `--merge` (stanzaq(1), OPTIONS, LOGS "Times"): the records of several
/// inputs on one time line, each with its file name, ties in input order.
final class MergeTests: CLITestCase {
    /// Two logs of different formats and zones, interleaved by their instants;
    /// a tie keeps input order, a stanza without a time follows the one before it.
    func testRecordsInTimeOrder() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("client.log", """
            2026-11-23 09:30:12,100 DEBUG    SEND: <iq type='get' id='q1'/>
            2026-11-23 09:30:12,400 DEBUG    RECV: <iq type='result' id='q1'/>
            2026-11-23 09:30:13,000 DEBUG    SEND: <message id='m1'/>

            """)
        try scratch.write("server.log", """
            2026-11-23 10:30:12.200000+01:00 [debug] <0.1.0> (tcp|<0.1.0>) Received XML on stream = <<"<iq type='get' id='q1'/>">>
            2026-11-23 10:30:12.300000+01:00 [debug] <0.1.0> (tcp|<0.1.0>) Send XML on stream = <<"<iq type='result' id='q1'/>">>
            2026-11-23 10:30:13.000000+01:00 [debug] <0.1.0> (tcp|<0.1.0>) Received XML on stream = <<"<message id='m1'/>">>

            """)
        try assertStanzaq(["--merge", "--tz=UTC", "--fields", "direction", "-e", "/$", "-e", "/@id", "client.log", "server.log"],
                          in: scratch.url, stdout: """
            client.log:out\tiq\tq1
            server.log:in\tiq\tq1
            server.log:out\tiq\tq1
            client.log:in\tiq\tq1
            client.log:out\tmessage\tm1
            server.log:in\tmessage\tm1

            """, status: 0)
        // XML input has no times: its records come first, in input order.
        try scratch.write("a.xml", "<presence id='p1'/>\n")
        try assertStanzaq(["--merge", "--tz=UTC", "-e", "/@id", "server.log", "a.xml"], in: scratch.url, stdout: """
            a.xml:p1
            server.log:q1
            server.log:q1
            server.log:m1

            """, status: 0)
    }

    /// The recorded ejabberd session and its client's log: every stanza once,
    /// and each iq the client sent before the server received it. (Not each the
    /// server sent before the client received it: slixmpp writes milliseconds,
    /// ejabberd microseconds, and a reception in the same millisecond sorts first.)
    func testAClientAndItsServerOnOneTimeLine() throws {
        let arguments = ["--tz=UTC", "--fields", "direction", "-e", "/$", "-e", "/@id"]
        let client = "logs/ejabberd-slixmpp-time-erin.log", server = "logs/ejabberd.log"
        let merged = try InProcess.stanzaq(["--merge"] + arguments + [client, server], in: RealLogTests.folder)
        XCTAssertEqual(merged.status, 0)
        XCTAssertEqual(merged.stderr, "")
        let lines = String(decoding: merged.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        var separately = 0
        for file in [client, server] {
            separately += String(decoding: try InProcess.stanzaq(arguments + [file], in: RealLogTests.folder).stdout, as: UTF8.self)
                .split(separator: "\n").count
        }
        XCTAssertEqual(lines.count, separately)
        var checked = 0
        for (index, line) in lines.enumerated() where line.hasPrefix(client + ":out\tiq\t") {
            let id = String(line.dropFirst((client + ":out\tiq\t").count))
            guard let received = lines.firstIndex(of: server + ":in\tiq\t" + id) else { continue }
            XCTAssertLessThan(index, received, id)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 5)
    }

    func testUsageErrors() throws {
        for (arguments, message) in [
            (["--merge", "-c", "/", "a.xml"], "--merge orders records, which -c does not print"),
            (["--merge", "--follow", "/", "a.xml"], "--merge writes at the end of the inputs, which --follow never reaches"),
            (["--merge", "-s", "--unanswered", "/iq", "a.xml"], "choose one of --merge and --unanswered"),
        ] {
            try assertStanzaq(arguments, stdout: "",
                              stderr: "stanzaq: error: \(message)\nUsage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n",
                              status: 2)
        }
    }
}
