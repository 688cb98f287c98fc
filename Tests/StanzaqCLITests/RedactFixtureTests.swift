import Foundation
import StanzaqTestSupport
import XCTest

/// What issue 42 asks `--redact` to show: on every log real software wrote
/// (and every sample log), whatever the output, no secret of the input is
/// left. The secrets are what stanzaq itself finds in the input without
/// `--redact`; the redacted output (`-s` as text with the log fields, and as
/// JSON) is then searched for each.
final class RedactFixtureTests: CLITestCase {
    /// Every log of real software and every sample log, relative to the package's root.
    private var fixtures: [String] {
        get throws {
            let manager = FileManager.default
            var paths: [String] = []
            for folder in ["Tests/Fixtures/real-logs/logs", "examples/logs"] {
                let names = try manager.contentsOfDirectory(atPath: PackagePaths.file(folder).path).sorted()
                paths += names.filter { $0 != "README.md" }.map { folder + "/" + $0 }
            }
            return paths + ["Tests/Fixtures/monal-rawlog/Monal 2024-10-23--07-15-02-117.rawlog"]
        }
    }

    // (Every SASL element with text at a stanza's root is a payload; XEP-0388's are named.)
    private static let saslPayloads = ["/{urn:ietf:params:xml:ns:xmpp-sasl}*#"]
        + ["initial-response", "challenge", "response", "additional-data"].map { "/**/{urn:xmpp:sasl:2}\($0)#" }
        + ["/**/{*}password#", "/**/{jabber:iq:auth}digest#", "/**/{urn:xmpp:fast:0}token@token"]
    private static let bodies = ["/**/{*}body#", "/**/{*}subject#", "/**/{jabber:client}presence/{jabber:client}status#",
                                 "/**/{eu.siacs.conversations.axolotl}payload#", "/**/{urn:xmpp:omemo:2}payload#"]
    private static let jids = ["/**@from", "/**@to", "/**@jid", "/**@by", "/**/{*}jid#"]
        + ["/**/{jabber:x:data}field<var=with>/{jabber:x:data}value#"]

    func testNoSASLPayloadOrPasswordIsLeft() throws {
        try assertNothingLeft(of: Self.saslPayloads, redacting: "auth", atLeast: 8)
    }

    func testNoBodyIsLeft() throws {
        try assertNothingLeft(of: Self.bodies, redacting: "bodies", atLeast: 20)
    }

    func testNoJIDIsLeft() throws {
        try assertNothingLeft(of: Self.jids, redacting: "jids", atLeast: 20, derive: Self.parts(ofJID:))
    }

    func testAllLeavesNothingOfAnyKind() throws {
        try assertNothingLeft(of: Self.saslPayloads + Self.bodies, redacting: "all", atLeast: 20)
        try assertNothingLeft(of: Self.jids, redacting: "all", atLeast: 20, derive: Self.parts(ofJID:))
    }

    /// The logs `--rewrite` writes back: those that write each stanza as XML
    /// in its record, and those whose every redacted value is found whole in
    /// their bytes (the archives' escaped rows). Read again, each gives the
    /// stanzas of the original, with their names, ids, types and directions.
    /// The others are refused whole.
    func testEveryLogThatWritesStanzasAsXMLIsRewritten() throws {
        var rewrittenLogs: [String] = []
        for fixture in try fixtures {
            let rewritten = try InProcess.stanzaq(["--redact=all", "--rewrite", fixture], in: PackagePaths.root)
            guard rewritten.status == 0 else {
                XCTAssertTrue(rewritten.stderr.contains(": not rewritten: "), "\(fixture): \(rewritten.stderr)")
                XCTAssertEqual(rewritten.output, "", fixture)
                continue
            }
            rewrittenLogs.append((fixture as NSString).lastPathComponent)
            // (As a log: go-xmpp's starts with `<`, and would be read as XML.)
            let view = ["--log", "--fields", "direction", "-e", "/$", "-e", "/@id", "-e", "/@type", "-e", "/@xml:lang"]
            let original = try InProcess.stanzaq(view + [fixture], in: PackagePaths.root)
            let again = try InProcess.stanzaq(view, stdin: rewritten.stdout)
            XCTAssertEqual(again.output, original.output, fixture)
            XCTAssertEqual(again.stderr, "", fixture)
            XCTAssertGreaterThan(original.output.count, 0, fixture)
        }
        XCTAssertEqual(rewrittenLogs, [
            "bosh-amy.log", "ejabberd-slixmpp-notime-frank.log", "ejabberd-slixmpp-time-erin.log", "go-sendxmpp-ulf.log",
            "goxmpp-sven.log", "libstrophe-dave.log", "nbxmpp-carol.log", "nbxmpp-pypi-paula.log", "poezio-mia.log",
            "profanity-grace.log", "prosody-web.log", "prosody.log", "qxmpp-dan.log", "sendxmpp-quinn.log",
            "slixmpp-notime-bob.log", "slixmpp-time-alice.log", "websocket-ben.log", "ejabberd-archive.tsv", "gajim-console.xml",
            "generic.log", "logxml.xml", "monal.log", "nbxmpp.log", "openfire.log", "profanity.log", "prosody-archive.json",
            "prosody-watch.log", "prosody.log", "qxmpp.log", "slixmpp.log", "strophejs.log", "tigase.log",
            "Monal 2024-10-23--07-15-02-117.rawlog",
        ])
    }

    private static let nbxmppHeaders: Set<String> = ["::::: DATA SENT ::::", "::::: DATA RECEIVED ::::"]

    /// For each fixture: the values `queries` find in it unredacted (and what
    /// `derive` makes of each) must be nowhere in the output of `--redact=KINDS`.
    /// At least `atLeast` fixtures must hold such values, lest the test pass by finding none.
    private func assertNothingLeft(of queries: [String], redacting kinds: String, atLeast: Int,
                                   derive: (String) -> [String] = { [$0] },
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        var holding = 0
        for fixture in try fixtures {
            var secrets: Set<String> = []
            for query in queries {
                secrets.formUnion(try found(query, in: fixture).flatMap(derive))
            }
            if kinds == "jids" || kinds == "all" { secrets.formUnion(try found(Self.accountSessions, in: fixture)) }
            let needles = Set(secrets.flatMap(Self.needles(for:)))
            guard !needles.isEmpty else { continue }
            holding += 1
            let fields = fixture.hasSuffix(".json") || fixture.hasSuffix(".tsv")
                ? "session,user,username,host,with,peer,bare_peer,nick,txt" : "session"
            let text = try InProcess.stanzaq(["--redact=" + kinds, "--fields", fields, "-s", "/$", fixture], in: PackagePaths.root).output
            let json = try values(["--redact=" + kinds, "--json", "-s", "/$", fixture]).joined(separator: "\n")
            XCTAssertFalse(text.isEmpty, "\(fixture): no output", file: file, line: line)
            let rewritten = try InProcess.stanzaq(["--redact=" + kinds, "--rewrite", fixture], in: PackagePaths.root)
            // (The stress bodies hold a pasted nbxmpp record header: in nbxmpp's own
            // log that text is its records' structure, which the rewrite keeps.)
            for needle in needles.sorted() where rewritten.status == 0 && !Self.nbxmppHeaders.contains(needle) {
                XCTAssertFalse(rewritten.output.contains(needle), "\(fixture) --redact=\(kinds) --rewrite leaves \(needle.debugDescription)",
                               file: file, line: line)
            }
            for needle in needles.sorted() {
                XCTAssertFalse(text.contains(needle), "\(fixture) --redact=\(kinds) -s leaves \(needle.debugDescription)", file: file, line: line)
                XCTAssertFalse(json.contains(needle), "\(fixture) --redact=\(kinds) --json -s leaves \(needle.debugDescription)",
                               file: file, line: line)
            }
        }
        XCTAssertGreaterThanOrEqual(holding, atLeast, "fixtures holding what --redact=\(kinds) removes", file: file, line: line)
    }

    /// What `query` finds in `fixture` unredacted: each is asked once of each
    /// fixture whatever the test (the tests run one after the other).
    private func found(_ query: String, in fixture: String) throws -> [String] {
        let key = query + "\n" + fixture
        if let known = Self.found[key] { return known }
        let values = query == Self.accountSessions
            ? try sessions(of: fixture).filter { $0.contains("@") } : try values(["--json", query, fixture])
        Self.found[key] = values
        return values
    }

    nonisolated(unsafe) private static var found: [String: [String]] = [:]
    /// For ``found(_:in:)``: the sessions that are JIDs, not a query's results.
    private static let accountSessions = "sessions"

    /// The JSON strings a run prints, one a line, decoded.
    private func values(_ arguments: [String]) throws -> [String] {
        let output = try InProcess.stanzaq(arguments, in: PackagePaths.root).output
        return output.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8), options: .fragmentsAllowed) as? String
        }
    }

    /// The sessions a log names its stanzas' by (Dino's is the account's JID).
    private func sessions(of fixture: String) throws -> [String] {
        let output = try InProcess.stanzaq(["--fields", "session", "-c", "/$", fixture], in: PackagePaths.root).output
        return output.split(separator: "\n").compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) }
    }

    /// A JID, its bare JID and its localpart with the domain: each must be gone.
    private static func parts(ofJID jid: String) -> [String] {
        let bare = jid.split(separator: "/", maxSplits: 1).first.map(String.init) ?? jid
        return bare == jid ? [jid] : [jid, bare]
    }

    /// What the output holds if `secret` is left: each of its lines (a value
    /// may be cut across the prefixes of `-s`) as the XML output escapes it.
    /// A line of three characters or fewer, or SASL's empty response `=`,
    /// could be anything (`bye` is also in the id `alice-bye`); a domain alone
    /// is looked for where a JID would be.
    private static func needles(for secret: String) -> [String] {
        let lines = secret.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.count > 3 }
        return lines.flatMap { line -> [String] in
            let escaped = line.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            if !line.contains("@"), !line.contains(" "), line.contains(".") || line == "localhost" {
                return ["'\(escaped)'", "'\(escaped)/", ">\(escaped)<", "@\(escaped)"]
            }
            return [escaped]
        }
    }
}
