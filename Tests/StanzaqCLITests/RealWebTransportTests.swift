import Foundation
import StanzaqTestSupport
import XCTest

/// BOSH bodies and WebSocket framing in recorded sessions (stanzaq(1), INPUT:
/// transport, not stanzas): Tests/Fixtures/real-logs' run 5 (record-web.sh),
/// Prosody's mod_bosh and mod_websocket with a Strophe.js-style client, read
/// from the client's log, from tshark's follow output of the BOSH connection
/// and from each direction's bodies and frames as XML files, against the truth
/// wire_truth.py read from the capture (its own HTTP and WebSocket framing and
/// Python's expat): the stanzas inside the bodies, none of the framing, and the
/// iqs among them.
final class RealWebTransportTests: CLITestCase {
    static let folder = RealLogTests.folder

    /// A file holding bodies or frames, and the truth of what is inside them:
    /// (direction given to `--direction`, or nil for XML input; the stanzas'
    /// names and namespaces).
    private func cases() throws -> [(path: String, parts: [(direction: String?, stanzas: [[String: Any]])])] {
        var out: [(String, [(String?, [[String: Any]])])] = []
        for name in ["bosh-amy", "websocket-ben", "bosh-follow"] {
            let truth = try RealLogTests.Truth(name)
            let connection = try XCTUnwrap(truth.connections.first)
            out.append((truth.log, ["in", "out"].map { ($0, connection[$0] as? [[String: Any]] ?? []) }))
        }
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("truth/web-wire.json"))
        let wire = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for session in try XCTUnwrap(wire["web_sessions"] as? [[String: Any]]) {
            let transport = try XCTUnwrap(session["transport"] as? String)
            for direction in ["c2s", "s2c"] {
                out.append(("xml/\(transport)-\(direction).xml", [(nil, session[direction] as? [[String: Any]] ?? [])]))
            }
        }
        return out
    }

    private func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try InProcess.stanzaq(arguments, in: Self.folder)
        XCTAssertEqual(run.stderr, "", "stanzaq \(arguments)", file: file, line: line)
        XCTAssertEqual(run.status, 0, "stanzaq \(arguments)", file: file, line: line)
        return run.output
    }

    func testTheStanzasInsideTheBodiesAndFramesAreTheWiresAndNoneOfTheFraming() throws {
        let cases = try cases()
        XCTAssertEqual(cases.count, 7)
        for (path, parts) in cases {
            var all: [String] = []
            for (direction, stanzas) in parts {
                let selection = direction.map { ["--direction", $0] } ?? []
                let names = try run(selection + ["-e", "/$", "-e", "/@xmlns", path]).split(separator: "\n").map(String.init)
                let wire = stanzas.map { "\($0["name"] as? String ?? "-")\t\($0["ns"] as? String ?? "-")" }
                XCTAssertFalse(wire.isEmpty, path)
                XCTAssertEqual(names, wire, "\(path) \(direction ?? "")")
                all += wire
            }
            // Whole stanzas: as many as the wire's, none a body or a frame's open or close.
            let whole = try run(["-s", "--compact", "/", path]).split(separator: "\n")
            XCTAssertEqual(whole.count, all.count, path)
            for stanza in whole {
                for framing in ["<body ", "<body>", "<open ", "<close "] {
                    XCTAssertFalse(stanza.hasPrefix(framing), "\(path): \(stanza.prefix(80))")
                }
            }
        }
    }

    func testTheIqsInsideTheBodiesAreCounted() throws {
        for (path, parts) in try cases() {
            let iqs = parts.flatMap(\.stanzas).filter { $0["name"] as? String == "iq" && $0["ns"] as? String == "jabber:client" }
            XCTAssertGreaterThan(iqs.count, 0, path)
            XCTAssertEqual(try run(["-c", "/{jabber:client}iq", path]), "\(iqs.count)\n", path)
        }
    }
}
