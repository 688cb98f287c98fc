import Foundation
import StanzaqTestSupport
import XCTest

/// Logs that real software wrote during recorded sessions
/// (Tests/Fixtures/real-logs: Prosody, with mod_stanza_debug and with
/// mod_rawdebug, and with BOSH and WebSocket sessions; ejabberd; slixmpp in
/// two formats, Debian's and PyPI's, and poezio's; nbxmpp, Debian's and
/// PyPI's; libstrophe; Profanity; Finch's libpurple; QXmpp; a Strophe.js-style
/// web client over BOSH and over WebSocket; aioxmpp; sendxmpp's XML::Stream;
/// go-xmpp and go-sendxmpp; mcabber; tshark), read against the truth of the same session's
/// packet capture, which wire_truth.py took with Python's expat — never with
/// stanzaq (stanzaq(1), LOGS, "Recorded from real software").
///
/// For every fixture: exit 0 and no message; per session and direction, the
/// ordered stanzas (name, namespace, id) are the wire's; every chat message
/// has the wire's body, a line, a time where the format writes one, and the
/// namespace `jabber:client`; `--direction` splits them.
final class RealLogTests: CLITestCase {
    static let folder = PackagePaths.file("Tests/Fixtures/real-logs")

    /// A fixture's truth (truth/NAME.json).
    struct Truth {
        var log: String
        var role: String
        var connections: [[String: Any]]
        /// The directions the log shows: go-xmpp's debug output shows only what
        /// was received (the truth's `out` is then empty).
        var logged: [String]

        init(_ name: String) throws {
            let data = try Data(contentsOf: RealLogTests.folder.appendingPathComponent("truth/\(name).json"))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            log = try XCTUnwrap(object["fixture"] as? String)
            role = try XCTUnwrap(object["role"] as? String)
            connections = try XCTUnwrap(object["connections"] as? [[String: Any]])
            logged = object["logged"] as? [String] ?? ["in", "out"]
        }

        /// The connections by the session stanzaq gives their stanzas, in the
        /// capture's order: one each, but in a client's log of several runs of the
        /// program, which names no session (sendxmpp's), where they follow one
        /// another in one.
        var sessions: [(session: String?, connections: [[String: Any]])] {
            var grouped: [(session: String?, connections: [[String: Any]])] = []
            for connection in connections {
                let session = self.session(of: connection)
                if let index = grouped.firstIndex(where: { $0.session == session }) {
                    grouped[index].connections.append(connection)
                } else {
                    grouped.append((session, [connection]))
                }
            }
            return grouped
        }

        /// The session stanzaq gives a connection's stanzas in this fixture's log.
        func session(of connection: [String: Any]) -> String? {
            switch role {
            case "server":
                let session = connection["server_session"] as? String ?? "?"
                // ejabberd names a plaintext session by its transport and process.
                return log.contains("ejabberd") ? "tcp|" + session : session
            case "capture": return "tcp.stream eq \(connection["tcp_stream"] as? Int ?? -1)"
            // A client's log is of its one connection: nbxmpp names it by the
            // account, libpurple by the account's name (the bound JID here).
            default:
                if log.contains("finch") { return connection["bound_jid"] as? String }
                return log.contains("nbxmpp") ? (connection["user"] as? String)?.split(separator: "@").first.map(String.init) : nil
            }
        }
    }

    /// The fixtures and their logs' formats.
    static let fixtures: [(truth: String, format: String)] = [
        ("prosody", "prosody"), ("ejabberd", "ejabberd"),
        ("slixmpp-time-alice", "slixmpp"), ("slixmpp-notime-bob", "slixmpp"),
        ("ejabberd-slixmpp-time-erin", "slixmpp"), ("ejabberd-slixmpp-notime-frank", "slixmpp"),
        ("nbxmpp-carol", "nbxmpp"), ("libstrophe-dave", "libstrophe"), ("profanity-grace", "profanity"),
        ("prosody-rawdebug", "prosody"), ("finch-wanda", "libpurple"), ("aioxmpp-kim", "aioxmpp"), ("poezio-mia", "slixmpp"),
        ("slixmpp-pypi-time-olaf", "slixmpp"), ("slixmpp-pypi-notime-paula", "slixmpp"), ("nbxmpp-pypi-paula", "nbxmpp"),
        ("sendxmpp-quinn", "xmlstream"),
        ("goxmpp-sven", "goxmpp"), ("go-sendxmpp-ulf", "goxmpp"), ("mcabber-quinn", "mcabber"),
        ("prosody-follow", "tshark"), ("ejabberd-follow", "tshark"),
        ("prosody-web", "prosody"), ("bosh-amy", "strophejs"), ("websocket-ben", "strophejs"), ("bosh-follow", "tshark"),
        ("qxmpp-dan", "qxmpp"),
    ]

    /// The elements of a connection's direction that a log of `format` shows:
    /// aioxmpp mutes its log while it sends SASL's `<auth>` and `<response>`
    /// (aioxmpp/sasl.py, `xmlstream.mute()`), writing a comment in their place.
    static func logged(_ connection: [String: Any], _ direction: String, by format: String) -> [[String: Any]] {
        let elements = connection[direction] as? [[String: Any]] ?? []
        guard format == "aioxmpp", direction == "out" else { return elements }
        return elements.filter {
            !($0["ns"] as? String == "urn:ietf:params:xml:ns:xmpp-sasl" && ["auth", "response"].contains($0["name"] as? String ?? ""))
        }
    }

    /// What makes stanzaq read a fixture as its format's log: go-xmpp's starts
    /// with `<`, so that it is read as XML unless `--log` says otherwise.
    static func reading(_ format: String) -> [String] {
        format == "goxmpp" ? ["--log"] : []
    }

    /// One JSON record a line.
    private func records(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let run = try InProcess.stanzaq(arguments, in: Self.folder)
        XCTAssertEqual(run.stderr, "", "stanzaq \(arguments)", file: file, line: line)
        XCTAssertEqual(run.status, 0, "stanzaq \(arguments)", file: file, line: line)
        return try run.output.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func testEveryFixturesStanzasAreTheWiresPerSessionAndDirection() throws {
        for (name, format) in Self.fixtures {
            let truth = try Truth(name)
            let rows = try records(Self.reading(format) + ["--json", "--fields", "session,direction", "-e", "/$", "-e", "/@xmlns",
                                                           "-e", "/@id", truth.log])
            for direction in ["in", "out"] {
                let sessions = Set(rows.filter { $0["direction"] as? String == direction }.map { $0["session"] as? String ?? "-" })
                XCTAssertEqual(sessions.count, truth.logged.contains(direction) ? truth.sessions.count : 0,
                               "\(name): sessions of direction \(direction): \(sessions)")
            }
            for (session, connections) in truth.sessions {
                for direction in ["in", "out"] {
                    let wire = connections.flatMap { Self.logged($0, direction, by: format) }.map {
                        "\($0["name"] as? String ?? "-") \($0["ns"] as? String ?? "-") \($0["id"] as? String ?? "-")"
                    }
                    let read = rows.filter { ($0["session"] as? String) == session && $0["direction"] as? String == direction }.map {
                        (($0["value"] as? [Any]) ?? []).map { $0 as? String ?? "-" }.joined(separator: " ")
                    }
                    XCTAssertEqual(wire.isEmpty, !truth.logged.contains(direction),
                                   "\(name) \(session ?? "") \(direction): the truth has stanzas where the log shows them")
                    XCTAssertEqual(read, wire, "\(name) (\(format)) session \(session ?? "-") direction \(direction)")
                }
            }
        }
    }

    func testEveryChatMessageHasTheWiresBodyAndItsFields() throws {
        for (name, format) in Self.fixtures {
            let truth = try Truth(name)
            // Columns: name, namespace, type, id, body.
            let rows = try records(Self.reading(format) + ["--json", "--fields", "line,time,session,direction", "-e", "/$", "-e", "/@xmlns",
                                    "-e", "/@type", "-e", "/@id", "-e", "body#", truth.log]).filter {
                ($0["value"] as? [Any] ?? []).prefix(3).map { $0 as? String ?? "-" } == ["message", "jabber:client", "chat"]
            }
            for (session, connections) in truth.sessions {
                for direction in ["in", "out"] {
                    let wire = connections.flatMap { $0["chat_" + direction] as? [[String: Any]] ?? [] }.map {
                        "\($0["id"] as? String ?? "-"): \(Self.logged($0["body"] as? String ?? "-", by: format))"
                    }
                    let read = rows.filter { ($0["session"] as? String) == session && $0["direction"] as? String == direction }
                    XCTAssertEqual(read.map { row in
                        let columns = (row["value"] as? [Any] ?? []).map { $0 as? String ?? "-" }
                        return "\(columns[3]): \(columns[4])"
                    }, wire,
                                   "\(name) (\(format)) session \(session ?? "-") direction \(direction)")
                    for row in read {
                        XCTAssertGreaterThan(row["line"] as? Int ?? 0, 0, "\(name): a line for \(row)")
                        if ["prosody", "ejabberd", "slixmpp", "nbxmpp", "profanity", "libpurple", "qxmpp", "mcabber"].contains(format) && !name.contains("notime") {
                            XCTAssertFalse((row["time"] as? String ?? "").isEmpty, "\(name): a time for \(row)")
                        }
                    }
                }
            }
        }
    }

    /// What a log can show of a body on the wire: Prosody writes a newline and
    /// the tab after it as a newline and its own tab (util/format.lua:
    /// `gsub("\n\t?", "\n\t")`), so that tab is lost; tshark's `ascii` follow
    /// writes every byte that is not printable ASCII or a newline as `.`.
    static func logged(_ body: String, by format: String) -> String {
        switch format {
        case "prosody": return body.replacingOccurrences(of: "\n\t", with: "\n")
        case "tshark": return String(decoding: body.utf8.map { (0x20...0x7E).contains($0) || $0 == 0x0A ? $0 : 0x2E }, as: UTF8.self)
        default: return body
        }
    }

    func testDirectionSplitsEveryFixture() throws {
        for (name, format) in Self.fixtures {
            let truth = try Truth(name)
            let all = try InProcess.stanzaq(Self.reading(format) + ["-c", "/", truth.log], in: Self.folder)
            let incoming = try InProcess.stanzaq(Self.reading(format) + ["--direction", "in", "-c", "/", truth.log], in: Self.folder)
            let outgoing = try InProcess.stanzaq(Self.reading(format) + ["--direction", "out", "-c", "/", truth.log], in: Self.folder)
            let wire = truth.connections.map { (Self.logged($0, "in", by: format).count, Self.logged($0, "out", by: format).count) }
            XCTAssertEqual(incoming.output, "\(wire.map(\.0).reduce(0, +))\n", name)
            XCTAssertEqual(outgoing.output, "\(wire.map(\.1).reduce(0, +))\n", name)
            XCTAssertEqual(all.output, "\(wire.map { $0.0 + $0.1 }.reduce(0, +))\n", name)
        }
    }

    /// The real-logs issue's first example: Prosody logs each received stanza
    /// twice (Received[c2s]: its start tag, RECV: the whole of it, attributes
    /// in another order), and it is one stanza.
    func testProsodysStartTagAndWholeStanzaAreOneStanza() throws {
        // 38 chat messages on the wire from the clients, 38 to them.
        try assertStanzaq(["-c", "-e", "/{jabber:client}message<type=chat>", "logs/prosody.log"], in: Self.folder,
                          stdout: "76\n", status: 0)
        try assertStanzaq(["--direction", "in", "-c", "-e", "/{jabber:client}message<type=chat>", "logs/prosody.log"], in: Self.folder,
                          stdout: "38\n", status: 0)
        try assertStanzaq(["--direction", "in", "-c", "-e", "/{jabber:client}message<type=chat>", "logs/slixmpp-time-alice.log"],
                          in: Self.folder, stdout: "9\n", status: 0)
    }

    /// One quote flipped in a real log (the log-damage issue: in the real tshark
    /// and ejabberd logs one flipped quote lost 8 to 15 stanzas) costs at most
    /// the stanza it is in: twenty places in each fixture, chosen with a seed.
    func testAFlippedQuoteCostsOneStanza() throws {
        let scratch = try ScratchDirectory()
        for (name, format) in Self.fixtures {
            let truth = try Truth(name)
            let wire = truth.connections.map { Self.logged($0, "in", by: format).count + Self.logged($0, "out", by: format).count }.reduce(0, +)
            let original = Array(try Data(contentsOf: Self.folder.appendingPathComponent(truth.log)))
            let quotes = original.indices.filter { original[$0] == 0x27 || original[$0] == 0x22 }
            var generator = SeededGenerator(seed: 7)
            for _ in 0..<20 {
                var damaged = original
                let place = quotes[Int.random(in: 0..<quotes.count, using: &generator)]
                damaged[place] = damaged[place] == 0x27 ? 0x22 : 0x27
                try scratch.write("damaged.log", Data(damaged))
                let run = try InProcess.stanzaq(Self.reading(format) + ["-c", "/", "damaged.log"], in: scratch.url)
                let read = Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
                XCTAssertGreaterThanOrEqual(read, wire - 1, "\(name): the quote at byte \(place) flipped; \(run.stderr)")
                XCTAssertLessThanOrEqual(read, wire, "\(name): the quote at byte \(place) flipped")
            }
        }
    }
}
