import Foundation
import StanzaqTestSupport
import XCTest

/// `--unanswered` (stanzaq(1), OPTIONS, Context): the selected iq requests that
/// no response answers, at the end, in input order; a response in a later input
/// answers; in a log, only the same session and the other direction answer;
/// the recorded sessions checked against their wire.
final class UnansweredTests: CLITestCase {
    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        scratch = try ScratchDirectory()
        // q1 answered, q2 an error without request, q3 and q4 not answered (q4 is
        // answered in c.xml), a message.
        try scratch.write("a.xml", """
            <iq type='get' id='q1'/>
            <iq type='set' id='q3'/>
            <message id='m1'><body>one</body></message>
            <iq type='result' id='q1'/>
            <iq type='error' id='q2'/>
            <iq type='get' id='q4'/>

            """)
        try scratch.write("c.xml", "<iq type='result' id='q4'/>\n")
    }

    private func run(_ arguments: [String], stdin: String? = nil, stdout: String, stderr: String = "", status: Int32,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        try assertStanzaq(arguments, stdin: stdin, in: scratch.url, stdout: stdout, stderr: stderr, status: status,
                          file: file, line: line)
    }

    func testRequestsWithoutResponse() throws {
        try run(["-s", "-n", "--unanswered", "/iq", "a.xml"], stdout: """
            2:<iq type='set' id='q3'/>
            6:<iq type='get' id='q4'/>

            """, status: 0)
        // The query selects the requests looked at; responses are looked for in every stanza.
        try run(["-s", "--unanswered", "/iq<type=get>", "a.xml"], stdout: "<iq type='get' id='q4'/>\n", status: 0)
        try run(["-s", "--unanswered", "/iq<id=q1>", "a.xml"], stdout: "", status: 1)
        try run(["-s", "--unanswered", "body", "a.xml"], stdout: "", status: 1)
        // A response in a later input answers; in an earlier one it does not.
        try run(["-s", "-H", "--unanswered", "/iq", "a.xml", "c.xml"], stdout: "a.xml:<iq type='set' id='q3'/>\n", status: 0)
        try run(["-s", "-H", "--unanswered", "/iq", "c.xml", "a.xml"], stdout: """
            a.xml:<iq type='set' id='q3'/>
            a.xml:<iq type='get' id='q4'/>

            """, status: 0)
        try run(["-s", "--json", "--unanswered", "/iq<id=q3>", "-"], stdin: "<iq type='set' id='q3'/>\n", stdout: """
            "<iq type='set' id='q3'/>"

            """, status: 0)
    }

    /// In a log, the response goes the other way in the same session; a
    /// response answers the oldest request that awaits it.
    func testSessionsAndDirections() throws {
        let log = """
            Nov 23 10:02:01 c2sA\tdebug\tRECV: <iq type='get' id='r1'/>
            Nov 23 10:02:01 c2sB\tdebug\tSEND: <iq type='result' id='r1'/>
            Nov 23 10:02:02 c2sA\tdebug\tRECV: <iq type='result' id='r1'/>
            Nov 23 10:02:03 c2sA\tdebug\tRECV: <iq type='get' id='r2'/>
            Nov 23 10:02:03 c2sA\tdebug\tRECV: <iq type='get' id='r2'/>
            Nov 23 10:02:04 c2sA\tdebug\tSEND: <iq type='result' id='r2'/>
            Nov 23 10:02:05 c2sA\tdebug\tSEND: <iq type='get' id='ping'/>
            Nov 23 10:02:05 c2sA\tdebug\tRECV: <iq type='result' id='ping'/>

            """
        try run(["-s", "--line-number", "--fields", "session,direction", "--unanswered", "/iq", "-"], stdin: log, stdout: """
            1:c2sA\tin\t<iq xmlns='jabber:client' type='get' id='r1'/>
            5:c2sA\tin\t<iq xmlns='jabber:client' type='get' id='r2'/>

            """, status: 0)
        // --direction selects the requests; their responses go the other way all the same.
        try run(["-s", "--line-number", "--direction", "out", "--unanswered", "/iq", "-"], stdin: log, stdout: "", status: 1)
        try run(["-s", "--line-number", "--direction", "in", "--unanswered", "/iq", "-"], stdin: log, stdout: """
            1:<iq xmlns='jabber:client' type='get' id='r1'/>
            5:<iq xmlns='jabber:client' type='get' id='r2'/>

            """, status: 0)
    }

    func testUsageErrors() throws {
        for (arguments, message) in [
            (["--unanswered", "/iq", "a.xml"], "--unanswered prints the requests no response answers: add -s"),
            (["-c", "--unanswered", "/iq", "a.xml"], "--unanswered prints stanzas, which -c does not print"),
            (["-s", "--pair", "--unanswered", "/iq", "a.xml"], "choose one of --pair and --unanswered"),
            (["-s", "-A", "1", "--unanswered", "/iq", "a.xml"], "choose one of -A and --unanswered"),
            (["-s", "--follow", "--unanswered", "/iq", "a.xml"], "--unanswered prints at the end of the input, which --follow never reaches"),
        ] {
            try run(arguments, stdout: "",
                    stderr: "stanzaq: error: \(message)\nUsage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n",
                    status: 2)
        }
    }

    /// Every recorded session: the requests stanzaq finds unanswered are those
    /// of the wire (per connection and direction, a get or set whose id no
    /// result or error going the other way has). The sessions answered them all.
    func testRecordedSessionsAgainstTheWire() throws {
        let truths = try FileManager.default.contentsOfDirectory(atPath: RealLogTests.folder.appendingPathComponent("truth").path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix("-wire.json") }.sorted()
        XCTAssertEqual(truths.count, 27)
        for name in truths {
            let truth = try RealLogTests.Truth(String(name.dropLast(5)))
            var unanswered: [String] = []
            for connection in truth.connections {
                for (requests, responses) in [("in", "out"), ("out", "in")] {
                    var answers = Self.iqs(connection[responses], types: ["result", "error"])
                    for id in Self.iqs(connection[requests], types: ["get", "set"]) {
                        if let index = answers.firstIndex(of: id) { answers.remove(at: index) } else { unanswered.append(id) }
                    }
                }
            }
            let format = RealLogTests.fixtures.first { $0.truth == String(name.dropLast(5)) }?.format ?? ""
            let found = try InProcess.stanzaq(RealLogTests.reading(format) + ["-s", "--unanswered", "/iq", truth.log], in: RealLogTests.folder)
            XCTAssertEqual(found.status, unanswered.isEmpty ? 1 : 0, name)
            XCTAssertEqual(found.stderr, "", name)
            let ids = try InProcess.stanzaq(["/iq@id"], stdin: found.stdout)
            XCTAssertEqual(String(decoding: ids.stdout, as: UTF8.self), unanswered.map { "\($0)\n" }.joined(), name)
        }
    }

    /// Prosody's recorded log cut between a request (line 96) and its error
    /// (line 99): the first part alone leaves that request unanswered, the
    /// two parts together none, as a rotated log read in order.
    func testRecordedLogCutAfterARequest() throws {
        let lines = try String(contentsOf: RealLogTests.folder.appendingPathComponent("logs/prosody.log"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        try scratch.write("prosody.log.1", lines[..<96].joined(separator: "\n") + "\n")
        try scratch.write("prosody.log", lines[96...].joined(separator: "\n"))
        try run(["-s", "-H", "--line-number", "--fields", "session", "--unanswered", "/iq", "prosody.log.1"], stdout: """
            prosody.log.1:96:c2s55c6b4f36510\t<iq xmlns='jabber:client' type='get' xml:lang='en' to='nobody@localhost/nowhere' id='bob-err-nobody'><query xmlns='http://jabber.org/protocol/disco#info'/></iq>

            """, status: 0)
        try run(["-s", "--unanswered", "/iq", "prosody.log.1", "prosody.log"], stdout: "", status: 1)
    }

    /// The ids of the iqs of the given types in a truth's list of elements.
    private static func iqs(_ list: Any?, types: Set<String>) -> [String] {
        (list as? [[String: Any]] ?? []).compactMap { element in
            guard element["name"] as? String == "iq", let type = element["type"] as? String, types.contains(type) else { return nil }
            return element["id"] as? String
        }
    }
}
