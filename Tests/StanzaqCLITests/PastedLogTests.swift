import Foundation
import StanzaqTestSupport
import XCTest

/// Logs as people paste them into bug reports (issue 41, item 4): reworked by
/// hand or by a web page, cut from their stream, in formats nobody named. Every
/// complete stanza is found, with the direction its text states.
final class PastedLogTests: CLITestCase {
    /// A Prosody log whose tabs became spaces (one, four or eight: a web page,
    /// a pastebin) is still Prosody's: the same stanzas, sessions and directions
    /// as the log itself, on the sample and on the recorded log.
    func testAProsodyLogWhoseTabsBecameSpaces() throws {
        let scratch = try ScratchDirectory()
        for log in [Runner.examples.appendingPathComponent("logs/prosody.log"),
                    RealLogTests.folder.appendingPathComponent("logs/prosody.log")] {
            let text = try String(contentsOf: log, encoding: .utf8)
            let arguments = ["--fields", "line,session,direction", "-e", "/$", "-e", "/@id"]
            let original = try InProcess.stanzaq(arguments + [log.path])
            XCTAssertEqual(original.status, 0)
            for spaces in [1, 4, 8] {
                let pasted = try scratch.write("pasted.log", text.replacing("\t", with: String(repeating: " ", count: spaces)))
                let run = try InProcess.stanzaq(arguments + [pasted.path])
                XCTAssertEqual(run.stderr, "", "\(log.lastPathComponent), tabs as \(spaces)")
                XCTAssertEqual(String(decoding: run.stdout, as: UTF8.self), String(decoding: original.stdout, as: UTF8.self),
                               "\(log.lastPathComponent), tabs as \(spaces)")
            }
        }
        // A body's newline (Prosody's newline and tab) keeps its text.
        try assertStanzaq(["-e", "body#", "-"], stdin: """
            Nov 23 10:02:03 c2s55e8a7f1c3a0 debug RECV: <message to='juliet@montague.lit' id='m1' type='chat'><body>line one
             line two</body></message>
            Nov 23 10:02:04 c2s55e8a7f1c3a0 debug Received[c2s]: <message to='juliet@montague.lit' id='m1' type='chat'>

            """, stdout: "line one\nline two\n", status: 0)
    }

    /// An s2s paste keeps its dialback stanzas, whose prefix the stream header
    /// outside the paste declared: `db:` is bound in every log stream, as `stream:` is.
    func testDialbackPrefixIsBoundWithoutItsStreamHeader() throws {
        let log = """
            Nov 23 10:02:01 s2sin55e8a7f1c3a0\tdebug\tRECV: <db:result from='capulet.lit' to='montague.lit'>b4835385f37fe2895af6c196b59097b16862406db80559900d96bf6fa7d23df3</db:result>
            Nov 23 10:02:01 s2sout55e8a7f1c3b1\tdebug\tSEND: <db:verify from='montague.lit' to='capulet.lit' id='417GAF25'>b4835385f37fe2895af6c196b59097b16862406db80559900d96bf6fa7d23df3</db:verify>
            Nov 23 10:02:02 s2sout55e8a7f1c3b1\tdebug\tRECV: <db:verify from='capulet.lit' to='montague.lit' id='417GAF25' type='valid'/>

            """
        try assertStanzaq(["--fields", "session,direction", "-e", "/$", "-e", "/@type", "-"], stdin: log, stdout: """
            s2sin55e8a7f1c3a0\tin\tresult\t
            s2sout55e8a7f1c3b1\tout\tverify\t
            s2sout55e8a7f1c3b1\tin\tverify\tvalid

            """, status: 0)
        try assertStanzaq(["-c", "/{jabber:server:dialback}verify"], stdin: log, stdout: "2\n", status: 0)
    }

    /// A generic line's direction is the one its text states before the
    /// stanza, in words or arrows (the pasted lines of issue 41's list).
    func testGenericLinesStateTheirDirectionInWords() throws {
        let log = """
            SEND (IMMED): <presence id='a'/>
            RCV  (xyz): <iq id='b' type='result'/>
            user logged in <presence id='c'/>
            SEND(194): <message id='d'/>
            jabber: Recv (ssl)(203): <iq id='e' type='get'/>
            12:00 got: <iq id='f' type='result'/>
            [RX] <iq id='g' type='get'/>
            ⮊ OUT <presence id='h'/>
            → <presence id='i'/>
            Received then sent: <presence id='j'/>

            """
        try assertStanzaq(["--log=generic", "--fields", "line,direction", "-e", "/@id", "-"], stdin: log, stdout: """
            1:out\ta
            2:in\tb
            3:\tc
            4:out\td
            5:in\te
            6:in\tf
            7:in\tg
            8:out\th
            9:out\ti
            10:out\tj

            """, status: 0)
        try assertStanzaq(["--log=generic", "--direction", "in", "-c", "/", "-"], stdin: log, stdout: "4\n", status: 0)
    }


    /// Smack 3's console debugger: `RCV  (HASH):` (two blanks), a negative
    /// hash for a session, and its `RCV PKT` copy of what was read, which is text.
    func testSmack3sConsoleDebugger() throws {
        let log = """
            10:41:07 AM SENT (-1789301221): <iq id='q1' type='get'><query xmlns='jabber:iq:roster'/></iq>
            10:41:07 AM RCV  (-1789301221): <iq id='q1' type='result'><query xmlns='jabber:iq:roster'/></iq><message id='m1'><body>hi
            there</body></message>
            10:41:07 AM RCV PKT (-1789301221): <message id='m1'><body>hi
            there</body></message>

            """
        try assertStanzaq(["--fields", "line,direction,session", "-e", "/$", "-e", "/@id", "-e", "body#", "-"], stdin: log, stdout: """
            1\tout\t-1789301221\tiq\tq1\t
            2\tin\t-1789301221\tiq\tq1\t
            2\tin\t-1789301221\tmessage\tm1\thi\\nthere

            """, status: 0)
    }

    /// A first line with the reporter's words before the log's prefix teaches
    /// no prefix: the next record line's, which that line holds, is learned,
    /// and the received stanzas stay received (they came out as sent).
    func testAFirstLineWithWordsBeforeThePrefix() throws {
        let log = """
            Here is what I see: 10:41:07.1 SENT (0): <iq id='q1' type='get'/>
            10:41:07.2 RECV (0): <iq id='q1' type='result'/>
            10:41:07.3 SENT (0): <message id='m1'><body>x</body></message>
            10:41:07.4 RECV (0): <message id='m2'><body>y</body></message>

            """
        try assertStanzaq(["--fields", "line,direction", "-e", "/@id", "-"], stdin: log, stdout: """
            1:out\tq1
            2:in\tq1
            3:out\tm1
            4:in\tm2

            """, status: 0)
        // A log whose records have no time stamp learns its first record's prefix as before.
        try assertStanzaq(["--fields", "line,direction", "-e", "/@id", "-"], stdin: """
            DEBUG    SEND: <iq id='q1' type='get'/>
            DEBUG    RECV: <iq id='q1' type='result'/>

            """, stdout: "1:out\tq1\n2:in\tq1\n", status: 0)
    }

    /// A libstrophe line trimmed by hand of its area (`conn `, `xmpp `) is
    /// still a record with its direction, in the recorded log.
    func testALibstropheLineTrimmedOfItsArea() throws {
        let lines = try String(contentsOf: RealLogTests.folder.appendingPathComponent("logs/libstrophe-dave.log"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let scratch = try ScratchDirectory()
        try scratch.write("trimmed.log", (lines[..<20] + ["DEBUG SENT: <presence id='trimmed'/>", "DEBUG RECV: <iq id='trimmed2' type='result'/>"]
                                          + lines[20...]).joined(separator: "\n"))
        let run = try InProcess.stanzaq(["--fields", "line,direction", "-e", "/@id", "trimmed.log"], in: scratch.url)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "")
        XCTAssertTrue(String(decoding: run.stdout, as: UTF8.self).contains("\n21:out\ttrimmed\n22:in\ttrimmed2\n"))
        try assertStanzaq(["-c", "/", "trimmed.log"], in: scratch.url, stdout: "46\n", status: 0)
        try assertStanzaq(["-c", "/", "logs/libstrophe-dave.log"], in: RealLogTests.folder, stdout: "44\n", status: 0)
    }

    /// prosody-modules' mod_rawdebug logs each write and read (`SEND(N):`,
    /// `RECV(N):`): a stanza split over two writes is joined (at its first line), a read with two
    /// stanzas gives both, Prosody's start tag of the same stanza is not
    /// reported, and a paste without the stream header is in `jabber:client`.
    func testModRawdebugLines() throws {
        try assertStanzaq(["--fields", "line,direction,session", "-e", "/$", "-e", "/@id", "-e", "/@xmlns", "-"], stdin: """
            Nov 28 01:35:32 c2s55cbd23001d0\tdebug\tRECV(72): <iq type="get" id="alice-roster"><query xmlns="jabber:iq:roster" /></iq>
            Nov 28 01:35:32 c2s55cbd23001d0\tdebug\tReceived[c2s]: <iq id='alice-roster' type='get' xml:lang='en'>
            Nov 28 01:35:32 c2s55cbd23001d0\tdebug\tSending[c2s]: <iq to='alice@localhost/res' id='alice-roster' type='result'>
            Nov 28 01:35:32 c2s55cbd23001d0\tdebug\tSEND(41): <iq to='alice@localhost/res' id='alice-ro
            Nov 28 01:35:32 c2s55cbd23001d0\tdebug\tSEND(32): ster' type='result'><query/></iq>
            Nov 28 01:35:33 c2s55cbd23001d0\tdebug\tRECV(54): <presence id="p1" /><message id="m1"><body>hi</body></message>

            """, stdout: """
            1\tin\tc2s55cbd23001d0\tiq\talice-roster\tjabber:client
            4\tout\tc2s55cbd23001d0\tiq\talice-roster\tjabber:client
            6\tin\tc2s55cbd23001d0\tpresence\tp1\tjabber:client
            6\tin\tc2s55cbd23001d0\tmessage\tm1\tjabber:client

            """, status: 0)
    }

    /// xmpppy's debug output: `got` just before the tag states in (as `got:`
    /// does), and a stream's element without attributes (`<stream:features>`)
    /// is a stanza, not its children (Tests/Fixtures/pasted, xmpppy's paste).
    func testGenericGotAndAStreamsElementWithoutAttributes() throws {
        try assertStanzaq(["--log=generic", "--fields", "line,direction", "-e", "/$", "-"], stdin: """
            DEBUG: socket       sent  <auth xmlns="urn:ietf:params:xml:ns:xmpp-sasl" mechanism="PLAIN" />
            DEBUG: socket       got   <stream:features>
              <bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/>
              </stream:features>
            DEBUG: dispatcher   ok    Got urn:ietf:params:xml:ns:xmpp-sasl/challenge stanza
            I got it <iq id='x' type='result'/>

            """, stdout: "1:out\tauth\n2:in\tfeatures\n6:\tiq\n", status: 0)
    }

    /// Profanity's older logs wrote the time `%d/%m/%Y %H:%M:%S`; the sent
    /// stanzas were lost (the log read as slixmpp's).
    func testProfanitysOlderTimeStamp() throws {
        try assertStanzaq(["--fields", "line,time,direction", "-e", "/@id", "-"], stdin: """
            22/09/2016 05:04:19: xmpp: DBG: RECV: <message id="m1" type="groupchat"><body>hi</body></message>
            22/09/2016 05:04:19: prof: DBG: Message stanza handler fired
            22/09/2016 05:04:20: conn: DBG: SENT: <iq id="p1" type="get"><ping xmlns="urn:xmpp:ping"/></iq>

            """, stdout: "1:22/09/2016 05:04:19\tin\tm1\n3:22/09/2016 05:04:20\tout\tp1\n", status: 0)
    }

    /// nbxmpp before 1.0: `:::::DATA SENT::::`, the data between lines of `_`
    /// (they had no direction, and the lines of `_` lost the stanzas).
    func testNbxmppsOlderMarker() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/@id", "-"], stdin: """
            16.03.2019 15:01:44 (I) nbxmpp.client            | raising event from transport: :::::DATA SENT::::
            _____________
            <iq id="a" type="get"/>
            _____________

            16.03.2019 15:01:44 (I) nbxmpp.client            | raising event from transport: :::::DATA RECEIVED::::
            _____________
            <iq id="a" type="result"/>
            _____________

            """, stdout: "3:out\ta\n8:in\ta\n", status: 0)
    }

    /// A paste in Markdown's inline code: a backtick before the first line's
    /// time stamp. That line was lost after the reporter's words, and its
    /// prefix was learned with the backtick, which no other line has (they
    /// went on its record, in its direction).
    func testABacktickBeforeTheFirstLine() throws {
        let log = """
            `Jul 08 01:07:54 c2s5e1 debug   SEND(34): <a xmlns='urn:xmpp:sm:3' h='118'/>
            Jul 08 01:07:54 c2s5e1 debug   RECV(40): <r xmlns='urn:xmpp:sm:3'/>`

            """
        try assertStanzaq(["--fields", "line,time,direction", "-e", "/$", "-"], stdin: log,
                          stdout: "1:Jul 08 01:07:54\tout\ta\n2:Jul 08 01:07:54\tin\tr\n", status: 0)
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-"], stdin: "The counter is wrong:\n\n" + log,
                          stdout: "3:out\ta\n4:in\tr\n", status: 0)
    }

    /// Older ejabberd and MongooseIM 2 (ejabberd_receiver.erl):
    /// `Received XML on stream = "~s"`, the data as read between quotes, its
    /// quotes not escaped, its newlines as they are. The stanza was lost
    /// (read as an Erlang string, which ended at its first quote).
    func testEjabberdsRawReceivedData() throws {
        try assertStanzaq(["--fields", "line,direction,session", "-e", "/$", "-e", "/@id", "-e", "body#", "-"], stdin: """
            2017-11-30 08:39:43.822 [debug] <0.1617.0>@ejabberd_receiver:process_data:317 Received XML on stream = "<message type="chat" id="m1"><body>{
              "type" : "text"
            }</body></message>"
            2017-11-30 08:39:43.823 [debug] <0.1618.0>@mod_mam:user_send_packet:291 Send packet
                packet {xmlel,<<"message">>,[{<<"type">>,<<"chat">>}],[]}
            2017-11-30 08:39:43.824 [debug] <0.1617.0>@ejabberd_receiver:process_data:317 Received XML on stream = "<iq type='get' id='i1'/>"
            2017-11-30 08:39:43.828 [debug] <0.1618.0>@ejabberd_c2s:send_text:1840 Send XML on stream = <<"<a h='12' xmlns='urn:xmpp:sm:3'/>">>

            """, stdout: """
            1\tin\t<0.1617.0>\tmessage\tm1\t{\\n  "type" : "text"\\n}
            6\tin\t<0.1617.0>\tiq\ti1\t
            7\tout\t<0.1618.0>\ta\t\t

            """, status: 0)
    }
}
