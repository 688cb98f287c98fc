import Foundation
import StanzaqTestSupport
import XCTest

/// The REPL reads logs as the command line does (stanzaq(1), REPL): recognised or
/// named (`-i --log[=FORMAT]`, `:load --log`), gzip undone, each stanza keeping
/// its fields, which `:all` and `:list` show and `:direction` filters by.
final class REPLLogTests: XCTestCase {
    private let realLog = "Tests/Fixtures/real-logs/logs/prosody.log"

    private func repl(_ arguments: [String], _ lines: String, in directory: URL = PackagePaths.root) throws -> RunResult {
        try Runner.stanzaq(["-i"] + arguments, stdin: .text(lines), in: directory)
    }

    /// Issue 31: `stanzaq -i prosody.log` said the input is not XML and loaded nothing.
    func testRealProsodyLogIsLoadedWithItsFields() throws {
        let result = try repl([realLog], """
            :use 51
            /@id
            :direction in
            :all /message<id~^alice-(muc-msg|multiline)$>@id
            :direction
            :direction both
            :all /message<id~^alice-(muc-msg|multiline)$>@id

            """)
        XCTAssertEqual(result.output, """
            alice-multiline
            \(realLog):47:171:Nov 25 19:05:14\tin\tc2s55c6b4d72ef0\talice-muc-msg
            \(realLog):51:188:Nov 25 19:05:14\tin\tc2s55c6b4d72ef0\talice-multiline
            direction: in
            \(realLog):47:171:Nov 25 19:05:14\tin\tc2s55c6b4d72ef0\talice-muc-msg
            \(realLog):48:176:Nov 25 19:05:14\tout\tc2s55c6b4d72ef0\talice-muc-msg
            \(realLog):51:188:Nov 25 19:05:14\tin\tc2s55c6b4d72ef0\talice-multiline
            \(realLog):52:202:Nov 25 19:05:14\tout\tc2s55c6b4f36510\talice-multiline

            """)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    /// The REPL reads through the command line's searcher: `:all` on every stanza
    /// of a real log is what `-H -n --fields` prints, and `:direction` what `--direction` keeps.
    func testAllIsWhatTheCommandLinePrintsWithFields() throws {
        for direction in ["both", "in", "out"] {
            let fromREPL = try repl([realLog], ":direction \(direction)\n:all /$\n")
            let fromSearch = try Runner.stanzaq(["-H", "-n", "--fields", "line,time,direction,session"]
                                                + (direction == "both" ? [] : ["--direction", direction]) + ["/$", realLog],
                                                in: PackagePaths.root)
            XCTAssertEqual(fromREPL.output, fromSearch.output, direction)
            XCTAssertEqual(fromREPL.output.split(separator: "\n").count, ["both": 196, "in": 86, "out": 110][direction], direction)
            XCTAssertEqual(fromREPL.stderr, "")
            XCTAssertEqual(fromREPL.status, 0)
        }
    }

    func testListShowsTheFieldsAfterTheNumber() throws {
        let result = try repl(["logs/prosody.log"], ":list\n", in: Runner.examples)
        XCTAssertEqual(result.output, """
              1:6:Nov 23 09:30:12\tout\tc2s55e8a7f1c3a0\t<stream:features>
              2:7:Nov 23 09:30:13\tin\tc2s55e8a7f1c3a0\t<iq>\tid=bind_1 type=set
              3:10:Nov 23 09:30:13\tout\tc2s55e8a7f1c3a0\t<iq>\tid=bind_1 type=result
              4:11:Nov 23 09:30:14\tin\tc2s55e8a7f1c3a0\t<message>\tid=msg1 type=chat
              5:15:Nov 23 09:30:14\tout\tc2s7f3b2c0d9e11\t<message>\tid=msg1 from=juliet@montague.lit/balcony type=chat
            * 6:17:Nov 23 09:30:15\tin\tc2s55e8a7f1c3a0\t<presence>\tid=p1

            """)
        XCTAssertEqual(result.status, 0)
    }

    /// `-i --log`, `-i --log=FORMAT`, `-i --xml` and `-i --direction` are the REPL's
    /// options too; `:load` takes `--log[=FORMAT]` and `--xml` before the file.
    func testLogOptionsOnTheCommandLineAndInLoad() throws {
        let named = try repl(["--log=prosody", "--direction", "out", "logs/prosody.log"], ":all /@id\n", in: Runner.examples)
        XCTAssertEqual(named.output, """
            logs/prosody.log:3:10:Nov 23 09:30:13\tout\tc2s55e8a7f1c3a0\tbind_1
            logs/prosody.log:5:15:Nov 23 09:30:14\tout\tc2s7f3b2c0d9e11\tmsg1

            """)
        XCTAssertEqual(named.stderr, "")
        XCTAssertEqual(named.status, 0)
        let xml = try repl(["--xml", "logs/prosody.log"], ":load --log logs/prosody.log\n/@id\n", in: Runner.examples)
        XCTAssertEqual(xml.output, "p1\n")
        XCTAssertEqual(xml.stderr, """
            logs/prosody.log:1:1: the input is not XML: it starts with text, as a log does ('Nov 23 09:30:12 c2s55e8a7f1c3a0?info?Cli…')

            """)
        XCTAssertEqual(xml.status, 2)
        let wrong = try repl([], ":load --log=bogus x.log\n:load --xml\n:direction sideways\n:list\n", in: Runner.examples)
        XCTAssertEqual(wrong.output, "no stanzas loaded\n")
        XCTAssertEqual(wrong.stderr, """
            stanzaq: error: unknown log format 'bogus' (one of: prosody, prosody-watch, ejabberd, logxml, mongooseim, openfire, smack, slixmpp, libstrophe, profanity, libpurple, qxmpp, strophejs, nbxmpp, aioxmpp, gajim, dino, monal, conversations, xmlstream, goxmpp, mcabber, jabberd2, xmppjs, tigase, tshark, json, tsv, generic)
            stanzaq: error: usage: :load [--log[=FORMAT]|--xml] [--merge] FILE...
            stanzaq: error: usage: :direction [in|out|both]

            """)
        XCTAssertEqual(wrong.status, 2)
    }

    /// A compressed log is a log, in the REPL as on the command line.
    func testGzipLogIsLoaded() throws {
        let scratch = try ScratchDirectory()
        let gzip = try Runner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "gzip -c \(Runner.examples.path)/logs/prosody.log > p.log.gz"],
                                  in: scratch.url, environment: Runner.environment())
        XCTAssertEqual(gzip.status, 0)
        let result = try repl(["p.log.gz"], ":direction in\n:all /message@id\n", in: scratch.url)
        XCTAssertEqual(result.output, "p.log.gz:4:11:Nov 23 09:30:14\tin\tc2s55e8a7f1c3a0\tmsg1\n")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    /// Logs in envelopes load as the command line reads them: Monal's rawlog
    /// (binary lengths first), and docker logs -t, with their fields.
    func testEnvelopedLogsAreLoaded() throws {
        let rawlog = "Tests/Fixtures/monal-rawlog/Monal 2024-10-23--07-15-02-117.rawlog"
        let result = try repl([rawlog, "examples/envelopes/docker-prosody.log"],
                              ":direction in\n:all /{jabber:client}message<type=chat>@id\n")
        XCTAssertEqual(result.output, """
            \(rawlog):21:44:2024-10-23 09:15:02:290\tin\t1:5c0ffee1\tb-0002
            \(rawlog):26:60:2024-10-23 09:15:04:838\tin\t1:5c0ffee1\tb-0003
            \(rawlog):29:66:2024-10-23 09:15:04:856\tin\t2:a1b2c3d4\tc-77
            \(rawlog):36:86:2024-10-23 09:16:34:916\tin\t1:0d15ea5e\td-5
            examples/envelopes/docker-prosody.log:40:11:Nov 23 09:30:14\tin\tc2s55e8a7f1c3a0\tmsg1

            """)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    /// `-i --fields` chooses the fields `:list`, `:all` and `:show` print, and
    /// `:fields` changes them: a list, `none`, a log's own (`log`); a typo of a
    /// field's name is an error that names it.
    func testFieldsAreChosen() throws {
        let result = try repl(["--fields", "time,direction", "examples/logs/prosody.log"], """
            :list
            :fields
            :fields session
            :all /@id
            :use 3
            :show
            :fields dir
            :fields none
            :list
            :fields log
            :fields
            :show

            """)
        XCTAssertEqual(result.output, """
              1:Nov 23 09:30:12\tout\t<stream:features>
              2:Nov 23 09:30:13\tin\t<iq>\tid=bind_1 type=set
              3:Nov 23 09:30:13\tout\t<iq>\tid=bind_1 type=result
              4:Nov 23 09:30:14\tin\t<message>\tid=msg1 type=chat
              5:Nov 23 09:30:14\tout\t<message>\tid=msg1 from=juliet@montague.lit/balcony type=chat
            * 6:Nov 23 09:30:15\tin\t<presence>\tid=p1
            fields: time,direction
            examples/logs/prosody.log:2:c2s55e8a7f1c3a0\tbind_1
            examples/logs/prosody.log:3:c2s55e8a7f1c3a0\tbind_1
            examples/logs/prosody.log:4:c2s55e8a7f1c3a0\tmsg1
            examples/logs/prosody.log:5:c2s7f3b2c0d9e11\tmsg1
            examples/logs/prosody.log:6:c2s55e8a7f1c3a0\tp1
            c2s55e8a7f1c3a0
            <iq xmlns='jabber:client' id='bind_1' type='result'>
              <bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>
                <jid>juliet@montague.lit/balcony</jid>
              </bind>
            </iq>
              1\t<stream:features>
              2\t<iq>\tid=bind_1 type=set
            * 3\t<iq>\tid=bind_1 type=result
              4\t<message>\tid=msg1 type=chat
              5\t<message>\tid=msg1 from=juliet@montague.lit/balcony type=chat
              6\t<presence>\tid=p1
            fields: log
            10:Nov 23 09:30:13\tout\tc2s55e8a7f1c3a0
            <iq xmlns='jabber:client' id='bind_1' type='result'>
              <bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>
                <jid>juliet@montague.lit/balcony</jid>
              </bind>
            </iq>

            """)
        XCTAssertEqual(result.stderr, "stanzaq: error: :fields: unknown field 'dir' (the fields are line, time, direction, session and jid, "
                       + "and the columns of archive rows). Did you mean 'direction'?\n")
        XCTAssertEqual(result.status, 2)
    }

    /// `:fields jid` shows the JID bound in each stanza's session, which a log
    /// shows only when named.
    func testFieldsJID() throws {
        let result = try repl(["examples/logs/prosody.log"], """
            :fields session,jid
            :list

            """)
        XCTAssertEqual(result.output, """
              1:c2s55e8a7f1c3a0\t\t<stream:features>
              2:c2s55e8a7f1c3a0\t\t<iq>\tid=bind_1 type=set
              3:c2s55e8a7f1c3a0\tjuliet@montague.lit/balcony\t<iq>\tid=bind_1 type=result
              4:c2s55e8a7f1c3a0\tjuliet@montague.lit/balcony\t<message>\tid=msg1 type=chat
              5:c2s7f3b2c0d9e11\t\t<message>\tid=msg1 from=juliet@montague.lit/balcony type=chat
            * 6:c2s55e8a7f1c3a0\tjuliet@montague.lit/balcony\t<presence>\tid=p1

            """)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    /// `:help` names the options of `:load` and the `:direction` command.
    func testHelpNamesLoadOptionsAndDirection() throws {
        let result = try repl([], ":help\n")
        let lines = result.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix(":load") || $0.hasPrefix(":direction") }, [
            ":load [--log[=FORMAT]|--xml] [--merge] FILE... load each FILE's stanzas: XML or a log, compressed or not (--merge: on one time line)",
            ":direction [in|out|both]                       only the stanzas a log shows received or sent, in :all and :list (none: show it)",
        ])
        XCTAssertEqual(result.status, 0)
    }

    /// Issue 42: the REPL loads several files on one time line, as `--merge`
    /// orders records: from the command line (`-i --merge`, with `--tz`) and
    /// with `:load --merge`; a file that cannot be read is reported and the
    /// others are loaded.
    func testMergeLoadsTheFilesOnOneTimeLine() throws {
        let result = try repl(["--merge", "--tz=UTC", "logs/slixmpp.log", "logs/profanity.log"], """
            :all @id
            :load --merge logs/none.log logs/dino.log
            :all @id
            :load --merge

            """, in: Runner.examples)
        let merged = """
            logs/profanity.log:2:6:2026-11-23T09:30:12.301377+01\tout\t\t_xmpp_bind1
            logs/profanity.log:3:7:2026-11-23T09:30:12.402618+01\tin\t\t_xmpp_bind1
            logs/profanity.log:4:9:2026-11-23T09:30:12.510220+01\tin\t\tmsg1
            logs/profanity.log:5:13:2026-11-23T09:30:13.001554+01\tout\t\tmsg2
            logs/slixmpp.log:7:5:2026-11-23 09:30:12,301\tout\t\tbind_1
            logs/slixmpp.log:8:6:2026-11-23 09:30:12,402\tin\t\tbind_1
            logs/slixmpp.log:9:8:2026-11-23 09:30:12,510\tin\t\tmsg1
            logs/slixmpp.log:10:10:2026-11-23 09:30:13,001\tout\t\tmsg2

            """
        // (Loaded after the stanzas before: a :load orders only its own files.)
        let dino = """
            logs/dino.log:11:7:2026-11-23T09:30:12+0000\tout\tjuliet@montague.lit\tbind_1
            logs/dino.log:12:15:2026-11-23T09:30:13+0000\tin\tjuliet@montague.lit\tbind_1
            logs/dino.log:13:24:2026-11-23T09:30:13+0000\tin\tjuliet@montague.lit\tmsg1
            logs/dino.log:14:31:2026-11-23T09:30:14+0000\tout\tjuliet@montague.lit\tmsg2

            """
        XCTAssertEqual(result.output, merged + merged + dino)
        XCTAssertEqual(result.stderr, """
            stanzaq: error: logs/none.log: No such file or directory
            stanzaq: error: usage: :load [--log[=FORMAT]|--xml] [--merge] FILE...

            """)
        XCTAssertEqual(result.status, 2)
    }
}
