import XCTest
import StanzaQuery
import StanzaqTestSupport

/// stanzaq(1), LOGS: the stanzas inside logs, with their fields, for every
/// format, on the samples of examples/logs.
final class LogReaderTests: XCTestCase {
    static let examples = PackagePaths.file("examples/logs")

    func example(_ name: String) throws -> String {
        try String(contentsOf: Self.examples.appendingPathComponent(name), encoding: .utf8)
    }

    /// One row per stanza: line, direction, session, time, {namespace}name, id.
    func rows(_ text: String, format: LogFormat? = nil, detected: LogFormat? = nil,
              file: StaticString = #filePath, line: UInt = #line) -> [String] {
        var rows: [String] = []
        var damage: [InputDamage] = []
        let reader = LogReader(format: format, handler: { stanza, source in
            rows.append(Self.row(stanza, source))
            return true
        }, damage: { damage.append($0) })
        reader.feed(Array(text.utf8))
        reader.finish()
        XCTAssertEqual(damage, [], file: file, line: line)
        if let detected { XCTAssertEqual(reader.format, detected, file: file, line: line) }
        // The same, fed a byte at a time.
        var again: [String] = []
        let bytewise = LogReader(format: format, handler: { again.append(Self.row($0, $1)); return true }, damage: { _ in })
        for byte in Array(text.utf8) { bytewise.feed([byte]) }
        bytewise.finish()
        XCTAssertEqual(again, rows, "fed a byte at a time", file: file, line: line)
        return rows
    }

    static func row(_ stanza: Element, _ source: StanzaSource) -> String {
        [String(source.line), source.direction?.rawValue ?? "-", source.session ?? "-", source.time ?? "-",
         "{\(stanza.namespace)}\(stanza.name)", stanza.attribute("id") ?? "-"].joined(separator: " | ")
    }

    // MARK: - Every format, on its sample

    func testProsody() throws {
        XCTAssertEqual(rows(try example("prosody.log"), detected: .prosody), [
            "6 | out | c2s55e8a7f1c3a0 | Nov 23 09:30:12 | {http://etherx.jabber.org/streams}features | -",
            "7 | in | c2s55e8a7f1c3a0 | Nov 23 09:30:13 | {jabber:client}iq | bind_1",
            "10 | out | c2s55e8a7f1c3a0 | Nov 23 09:30:13 | {jabber:client}iq | bind_1",
            "11 | in | c2s55e8a7f1c3a0 | Nov 23 09:30:14 | {jabber:client}message | msg1",
            "15 | out | c2s7f3b2c0d9e11 | Nov 23 09:30:14 | {jabber:client}message | msg1",
            // Logged only by its start tag (Received[c2s]:): no children.
            "17 | in | c2s55e8a7f1c3a0 | Nov 23 09:30:15 | {jabber:client}presence | p1",
        ])
    }

    func testProsodyTextOnTabIndentedLines() throws {
        let (stanzas, _) = LogReader.stanzas(in: try example("prosody.log"))
        XCTAssertEqual(stanzas[3].element.childElements.first?.text, "Art thou not Romeo,\nand a Montague?")
    }

    func testProsodyConsoleSink() {
        // core/loggingmanager.lua's console sink: the name padded to 20 columns, no time.
        let log = """
            c2s55e8a7f1c3a0     debug\tRECV: <message id='a'><body>x</body></message>
            c2s55e8a7f1c3a0     debug\tReceived[c2s]: <message id='a'>
            mod_c2s             info\tClient disconnected
            """
        XCTAssertEqual(rows(log, detected: .prosody), ["1 | in | c2s55e8a7f1c3a0 | - | {jabber:client}message | a"])
    }

    func testProsodySyslog() throws {
        // rsyslog's file, with the lines of other programs; a newline in a stanza is `#012#011`.
        XCTAssertEqual(rows(try example("prosody-syslog.log"), detected: .prosody), [
            "5 | out | c2s55e8a7f1c3a0 | Nov 23 09:30:12 | {http://etherx.jabber.org/streams}features | -",
            "6 | in | c2s55e8a7f1c3a0 | Nov 23 09:30:13 | {jabber:client}iq | bind_1",
            "10 | out | c2s55e8a7f1c3a0 | Nov 23 09:30:13 | {jabber:client}iq | bind_1",
            "11 | in | c2s55e8a7f1c3a0 | Nov 23 09:30:14 | {jabber:client}message | msg1",
            "14 | out | c2s7f3b2c0d9e11 | Nov 23 09:30:14 | {jabber:client}message | msg1",
            "15 | in | c2s55e8a7f1c3a0 | Nov 23 09:30:15 | {jabber:client}presence | p1",
        ])
        let (stanzas, _) = LogReader.stanzas(in: try example("prosody-syslog.log"))
        XCTAssertEqual(stanzas[3].element.childElements.first?.text, "Art thou not Romeo,\nand a Montague?")
    }

    func testProsodyJournal() {
        // journalctl: a message's further lines indented by spaces, then Prosody's tab;
        // ISO times (-o short-iso); a custom syslog_name.
        let log = """
            2026-11-23T09:30:14+0100 capulet sshd[77]: Accepted publickey for root from 192.0.2.1
            2026-11-23T09:30:14+0100 capulet xmpp[1234]: c2s55e8a7f1c3a0: RECV: <message id='m1'><body>one
                                                       \ttwo</body></message>
            2026-11-23T09:30:14+0100 capulet xmpp[1234]: c2s55e8a7f1c3a0: Received[c2s]: <message id='m1'>
            2026-11-23T09:30:15+0100 capulet xmpp[1234]: s2sout55e8a7f1c3b1: SEND: <presence id='p1'/>
            """
        XCTAssertEqual(rows(log, detected: .prosody), [
            "2 | in | c2s55e8a7f1c3a0 | 2026-11-23T09:30:14+0100 | {jabber:client}message | m1",
            "5 | out | s2sout55e8a7f1c3b1 | 2026-11-23T09:30:15+0100 | {jabber:server}presence | p1",
        ])
        let (stanzas, _) = LogReader.stanzas(in: log)
        XCTAssertEqual(stanzas.first?.element.childElements.first?.text, "one\ntwo")
    }

    func testEjabberd() throws {
        let session = "tcp|<0.1234.0>"
        XCTAssertEqual(rows(try example("ejabberd.log"), detected: .ejabberd), [
            "4 | out | \(session) | 2026-11-23 09:30:12.103410+00:00 | {http://etherx.jabber.org/streams}features | -",
            // Read in two parts, with the other direction's <r/> between them.
            "7 | out | \(session) | 2026-11-23 09:30:13.220500+00:00 | {urn:xmpp:sm:3}r | -",
            "6 | in | \(session) | 2026-11-23 09:30:13.220101+00:00 | {jabber:client}iq | bind_1",
            "9 | out | \(session) | 2026-11-23 09:30:13.222000+00:00 | {jabber:client}iq | bind_1",
            "10 | in | \(session) | 2026-11-23 09:30:14.000001+00:00 | {jabber:client}message | msg1",
            "12 | in | \(session) | 2026-11-23 09:30:14.500012+00:00 | {jabber:client}message | msg2",
            "14 | out | \(session) | 2026-11-23 09:30:15.000100+00:00 | {jabber:client}message | msg3",
            "15 | in | \(session) | 2026-11-23 09:30:15.100200+00:00 | {jabber:client}presence | p1",
        ])
    }

    func testEjabberdBinaryForms() throws {
        let (stanzas, _) = LogReader.stanzas(in: try example("ejabberd.log"))
        let texts = stanzas.compactMap { $0.element.childElements.first?.text }
        // An escaped newline in a wrapped string, a list of bytes, Latin-1 characters, /utf8.
        XCTAssertEqual(texts, ["Art thou not Romeo,\nand a Montague?", "\u{2764}", "caf\u{E9}", "caf\u{E9} \u{2615}"])
    }

    func testErlangEscapes() {
        let log = #"2026-11-23 09:30:12.000001+00:00 [info] <0.1.0> (tls|<0.1.0>) Received XML on stream = <<"<m a='\"\\'>\t\101\x42\x{43}\s</m>">>"#
        let (stanzas, damage) = LogReader.stanzas(in: log)
        XCTAssertEqual(damage, [])
        XCTAssertEqual(stanzas.first?.element.attribute("a"), "\"\\")
        XCTAssertEqual(stanzas.first?.element.text, "\tABC ")
        XCTAssertEqual(stanzas.first?.source.session, "tls|<0.1.0>")
    }

    func testSmack() throws {
        XCTAssertEqual(rows(try example("smack.log"), detected: .smack), [
            "3 | in | 0 | 09:30:12.2 | {http://etherx.jabber.org/streams}features | -",
            "4 | out | 0 | 09:30:12.3 | {jabber:client}iq | bind_1",
            "5 | in | 0 | 09:30:12.4 | {jabber:client}iq | bind_1",
            "6 | out | 0 | 09:30:12.4 | {jabber:client}presence | p1",
            // Starts in the read of line 5, ends in the read of line 7 (after line 6's write).
            "5 | in | 0 | 09:30:12.4 | {jabber:client}message | msg1",
            "11 | out | 0 | 09:30:13.0 | {jabber:client}message | msg2",
        ])
    }

    func testSmackOnLogcat() {
        // smack-android's AndroidDebugger: Log.d("SMACK", …); each line of a message gets the prefix.
        let log = """
            11-23 09:30:12.400  4321  4350 D SMACK   : RECV (0): <message id='m1'><body>one
            11-23 09:30:12.401  4321  4399 I chatty  : uid=10123 expire 3 lines
            11-23 09:30:12.400  4321  4350 D SMACK   : two</body></message>
            11-23 09:30:12.500  4321  4350 D SMACK   : SENT (0): <r xmlns='urn:xmpp:sm:3'/>
            """
        XCTAssertEqual(rows(log, detected: .smack), [
            "1 | in | 0 | 11-23 09:30:12.400 | {jabber:client}message | m1",
            "4 | out | 0 | 11-23 09:30:12.500 | {urn:xmpp:sm:3}r | -",
        ])
    }

    func testSlixmpp() throws {
        XCTAssertEqual(rows(try example("slixmpp.log"), detected: .slixmpp), [
            "4 | in | - | 2026-11-23 09:30:12,213 | {http://etherx.jabber.org/streams}features | -",
            "5 | out | - | 2026-11-23 09:30:12,301 | {jabber:client}iq | bind_1",
            "6 | in | - | 2026-11-23 09:30:12,402 | {jabber:client}iq | bind_1",
            "8 | in | - | 2026-11-23 09:30:12,510 | {jabber:client}message | msg1",
            "10 | out | - | 2026-11-23 09:30:13,001 | {jabber:client}message | msg2",
        ])
    }

    func testProfanity() throws {
        XCTAssertEqual(rows(try example("profanity.log"), detected: .profanity), [
            "5 | in | - | 2026-11-23T09:30:12.213005+01 | {http://etherx.jabber.org/streams}features | -",
            "6 | out | - | 2026-11-23T09:30:12.301377+01 | {jabber:client}iq | _xmpp_bind1",
            "7 | in | - | 2026-11-23T09:30:12.402618+01 | {jabber:client}iq | _xmpp_bind1",
            "9 | in | - | 2026-11-23T09:30:12.510220+01 | {jabber:client}message | msg1",
            "13 | out | - | 2026-11-23T09:30:13.001554+01 | {jabber:client}message | msg2",
        ])
    }

    func testNbxmpp() throws {
        XCTAssertEqual(rows(try example("nbxmpp.log"), detected: .nbxmpp), [
            "8 | in | juliet | 2026-11-23T09:30:12 | {http://etherx.jabber.org/streams}features | -",
            "12 | out | juliet | 2026-11-23T09:30:12 | {jabber:client}iq | bind_1",
            "17 | in | juliet | 2026-11-23T09:30:13 | {jabber:client}iq | bind_1",
            "21 | in | juliet | 2026-11-23T09:30:13 | {jabber:client}message | msg1",
            "26 | out | juliet | 2026-11-23T09:30:14 | {jabber:client}message | msg2",
        ])
    }

    func testGajimConsole() throws {
        XCTAssertEqual(rows(try example("gajim-console.xml"), detected: .gajim), [
            "5 | in | Juliet | Mon Nov 23 09:30:12 2026 | {http://etherx.jabber.org/streams}features | -",
            "10 | out | Juliet | Mon Nov 23 09:30:12 2026 | {jabber:client}iq | bind_1",
            "17 | in | Juliet | Mon Nov 23 09:30:13 2026 | {jabber:client}iq | bind_1",
            "26 | in | Juliet | Mon Nov 23 09:30:13 2026 | {jabber:client}message | msg1",
            "32 | out | Juliet | Mon Nov 23 09:30:14 2026 | {jabber:client}message | msg2",
        ])
    }

    func testDino() throws {
        XCTAssertEqual(rows(try example("dino.log"), detected: .dino), [
            "7 | out | juliet@montague.lit | 2026-11-23T09:30:12+0000 | {jabber:client}iq | bind_1",
            "15 | in | juliet@montague.lit | 2026-11-23T09:30:13+0000 | {jabber:client}iq | bind_1",
            "24 | in | juliet@montague.lit | 2026-11-23T09:30:13+0000 | {jabber:client}message | msg1",
            "31 | out | juliet@montague.lit | 2026-11-23T09:30:14+0000 | {jabber:client}message | msg2",
        ])
        let (stanzas, _) = LogReader.stanzas(in: try example("dino.log"))
        // Indentation removed, the text's own line break kept, `&` escaped again, xml:lang restored.
        XCTAssertEqual(stanzas[2].element.childElements.first?.text, "Shall I hear more,\nor shall I speak at this? & more")
        XCTAssertEqual(stanzas[2].element.attribute("lang", namespace: "http://www.w3.org/XML/1998/namespace"), "en")
        XCTAssertEqual(stanzas[3].element.childElements.map(\.namespace), ["jabber:client", "urn:xmpp:receipts"])
    }

    func testMonal() throws {
        // As Monal's UDP log server prints its lines; `SEND: redacted sasl element: …` and
        // `ADD UNACKED STANZA: 7: <…>` are no stanzas.
        XCTAssertEqual(rows(try example("monal.log"), detected: .monal), [
            "3 | in | - | 2026-11-23 09:30:12:212 | {http://etherx.jabber.org/streams}features | -",
            "5 | out | - | 2026-11-23 09:30:12:301 | {jabber:client}iq | bind_1",
            "6 | in | - | 2026-11-23 09:30:12:402 | {jabber:client}iq | bind_1",
            "8 | in | - | 2026-11-23 09:30:12:510 | {jabber:client}message | msg1",
            "11 | out | - | 2026-11-23 09:30:13:002 | {jabber:client}message | msg2",
        ])
    }

    func testMonalFormatterLines() {
        // Monal/Classes/MLLogFormatter.m: the UDP log server's line without its counter.
        let log = """
            2026-11-23 09:30:12:402 [  INFO] mainapp [1d03:im.monal.receiveQueue (QOS:UT)] -[xmpp processInput:withDelayedReplay:] \
            at Classes/xmpp.m:1789: RECV Stanza: <iq xmlns='jabber:client' id='a' type='result'/>
            2026-11-23 09:30:12:403 [ DEBUG] *appex* [1c2f:im.monal.sendQueue (QOS:UT)] -[xmpp logStanza:withPrefix:] \
            at Classes/xmpp.m:3328: SEND: <iq xmlns='jabber:client' id='b' type='get'/>
            """
        XCTAssertEqual(rows(log, detected: .monal), [
            "1 | in | - | 2026-11-23 09:30:12:402 | {jabber:client}iq | a",
            "2 | out | - | 2026-11-23 09:30:12:403 | {jabber:client}iq | b",
        ])
    }

    func testConversations() throws {
        // Received stanzas only, in jabber:client; a chatty line between two lines of a stanza.
        XCTAssertEqual(rows(try example("conversations.log"), detected: .conversations), [
            "3 | in | - | 11-23 09:30:12.300 | {jabber:client}iq | bind_1",
            "4 | in | - | 11-23 09:30:12.400 | {jabber:client}message | msg1",
            "8 | in | - | 11-23 09:30:12.500 | {jabber:client}presence | p1",
            "9 | in | - | 11-23 09:30:13.001 | {jabber:client}message | msg2",
        ])
        let (stanzas, _) = LogReader.stanzas(in: try example("conversations.log"))
        XCTAssertEqual(stanzas[1].element.childElements.first?.text, "Shall I hear more,\nor shall I speak at this?")
    }

    func testTshark() throws {
        XCTAssertEqual(rows(try example("tshark-follow.txt"), detected: .tshark), [
            "10 | in | tcp.stream eq 0 | - | {http://etherx.jabber.org/streams}features | -",
            "12 | out | tcp.stream eq 0 | - | {jabber:client}iq | bind_1",
            "14 | in | tcp.stream eq 0 | - | {jabber:client}iq | bind_1",
            "17 | out | tcp.stream eq 0 | - | {jabber:client}presence | p1",
            "14 | in | tcp.stream eq 0 | - | {jabber:client}message | msg1",
            "21 | out | tcp.stream eq 0 | - | {jabber:client}message | msg2",
        ])
    }

    func testJSONRows() throws {
        XCTAssertEqual(rows(try example("prosody-archive.json"), detected: .json), [
            "1 | - | - | 1795426212 | {jabber:client}message | msg1",
            "2 | - | - | 1795426213 | {jabber:client}message | msg2",
            "3 | - | - | 1795426214 | {jabber:client}message | msg3",
        ])
        let (stanzas, _) = LogReader.stanzas(in: try example("prosody-archive.json"))
        XCTAssertEqual(stanzas[0].source.fields.map(\.name), ["sort_id", "host", "user", "store", "key", "when", "with", "type"])
        XCTAssertEqual(stanzas[0].source.fields[6], LogField(name: "with", value: "romeo@montague.lit"))
        XCTAssertEqual(stanzas[2].element.childElements.first?.text, "caf\u{E9} \u{2615} <3")
    }

    func testTSVRows() throws {
        XCTAssertEqual(rows(try example("ejabberd-archive.tsv"), detected: .tsv), [
            "2 | - | - | 2026-11-23 09:30:12 | {jabber:client}message | msg1",
            "3 | - | - | 2026-11-23 09:30:13 | {jabber:client}message | msg2",
        ])
        let (stanzas, _) = LogReader.stanzas(in: try example("ejabberd-archive.tsv"))
        XCTAssertEqual(stanzas[0].source.fields.first { $0.name == "txt" }?.value, "Shall I hear more,\nor shall I speak at this?")
        XCTAssertEqual(stanzas[0].element.childElements.first?.text, "Shall I hear more,\nor shall I speak at this?")
    }

    func testGeneric() throws {
        XCTAssertEqual(rows(try example("generic.log"), detected: .generic), [
            "2 | out | - | - | {}iq | bind_1",
            "3 | in | - | - | {}iq | bind_1",
            "5 | in | - | - | {}message | msg1",
            "7 | out | - | - | {}message | msg2",
        ])
    }

    // MARK: - Semantics

    func testReadSplitAcrossDirectionsIsNotSpliced() {
        // Smack's RECV ends inside a message; a SENT line comes before the rest.
        let log = """
            RECV (0): <message id='in1'><body>first half,
            SENT (0): <message id='out1'><body>sent</body></message>
            RECV (0):  second half</body></message>
            """
        XCTAssertEqual(rows(log, format: .smack), [
            "2 | out | 0 | - | {jabber:client}message | out1",
            "1 | in | 0 | - | {jabber:client}message | in1",
        ])
        let (stanzas, _) = LogReader.stanzas(in: log, format: .smack)
        XCTAssertEqual(stanzas[1].element.childElements.first?.text, "first half, second half")
    }

    func testSessionsStayApart() {
        let log = """
            RECV (0): <message id='a'><body>zero
            RECV (1): <message id='b'/>
            RECV (0): </body></message>
            """
        XCTAssertEqual(rows(log, format: .smack), ["2 | in | 1 | - | {jabber:client}message | b", "1 | in | 0 | - | {jabber:client}message | a"])
    }

    func testStartTagOnlyNeverSwallowsWhatFollows() {
        let log = """
            Nov 23 09:30:12 c2s1\tdebug\tReceived[c2s]: <message id='a' type='chat'>
            Nov 23 09:30:12 c2s1\tdebug\tReceived[c2s]: <iq id='b' type='get'>
            Nov 23 09:30:12 c2s1\tdebug\tSending[c2s]: <presence id='c'>
            """
        XCTAssertEqual(rows(log), [
            "1 | in | c2s1 | Nov 23 09:30:12 | {jabber:client}message | a",
            "2 | in | c2s1 | Nov 23 09:30:12 | {jabber:client}iq | b",
            "3 | out | c2s1 | Nov 23 09:30:12 | {jabber:client}presence | c",
        ])
    }

    func testStartTagThenOtherStanzasKeepsLogOrder() {
        // The start tag waits for a SEND: that may follow; what comes meanwhile waits behind it.
        let log = """
            Nov 23 09:30:12 c2s1\tdebug\tSending[c2s]: <message id='a'>
            Nov 23 09:30:12 c2s2\tdebug\tRECV: <iq id='b' type='get'/>
            Nov 23 09:30:12 c2s1\tdebug\tSEND: <message id='a'><body>x</body></message>
            Nov 23 09:30:12 c2s3\tdebug\tSending[c2s]: <presence id='c'>
            """
        XCTAssertEqual(rows(log), [
            "2 | in | c2s2 | Nov 23 09:30:12 | {jabber:client}iq | b",
            "3 | out | c2s1 | Nov 23 09:30:12 | {jabber:client}message | a",
            "4 | out | c2s3 | Nov 23 09:30:12 | {jabber:client}presence | c",
        ])
    }

    /// The reader's recovery, as in XML input (stanzaq(1), INPUT): complete stanzas after
    /// the damage are read, in the same record and in the records of a socket-read format
    /// that libxml2 reads on before it reports a stray '&' (it waits for a ';').
    func testStanzasAfterDamageAreRead() {
        let prosody = """
            Nov 23 09:30:12 c2s1\tdebug\tRECV: <message id='a'><body>fish & chips</body></message><message id='b'/>
            Nov 23 09:30:13 c2s1\tdebug\tRECV: <message id='c'/>
            """
        let (stanzas, damage) = LogReader.stanzas(in: prosody)
        XCTAssertEqual(stanzas.map { "\($0.source.line) \($0.element.attribute("id") ?? "")" }, ["1 b", "2 c"])
        XCTAssertEqual(damage.map(\.description), ["1:62: xmlParseEntityRef: no name"])
        let smack = """
            SENT (0): <message id='a'><body>fish & chips</body></message>
            SENT (0): <message id='b'/>
            SENT (0): <message id='c'><body>x &amp; y</body></message>
            SENT (0): <message id='d'/>
            """
        let read = LogReader.stanzas(in: smack, format: .smack)
        XCTAssertEqual(read.stanzas.map { "\($0.source.line) \($0.element.attribute("id") ?? "")" }, ["2 b", "3 c", "4 d"])
        XCTAssertEqual(read.damage.map(\.description), ["1:39: xmlParseEntityRef: no name"])
    }

    func testDamagedXMLIsReportedAndSkipped() {
        let log = """
            Nov 23 09:30:12 c2s1\tdebug\tRECV: <message id='a'><body>fish & chips</body></message>
            Nov 23 09:30:13 c2s1\tdebug\tRECV: <message id='b'><body>cut off
            Nov 23 09:30:14 c2s1\tdebug\tRECV: <message id='c'/>
            """
        let (stanzas, damage) = LogReader.stanzas(in: log)
        XCTAssertEqual(stanzas.map { $0.element.attribute("id") }, ["c"])
        XCTAssertEqual(damage.map(\.description), [
            "1:62: xmlParseEntityRef: no name",
            "2:34: <message> is not closed (the log record ends at 2:63, inside <body>)",
        ])
    }

    func testTextAroundStanzasIsNoError() {
        let log = """
            Nov 23 09:30:12 c2s1\tdebug\tClient sent opening <stream:stream> to montague.lit
            Nov 23 09:30:12 c2s1\tinfo\tStanza <b>not</b> logged & so on
            this line continues nothing <
            """
        let (stanzas, damage) = LogReader.stanzas(in: log)
        XCTAssertEqual(stanzas.count, 0)
        XCTAssertEqual(damage, [])
    }

    func testTerminalColoursAreIgnored() {
        let log = "\u{1B}[37;1mXMPP IN [a stream:0x1 thread:0x2 2026-11-23T09:30:12+0000]\u{1B}[0m\n"
            + "\u{1B}[33m<\u{1B}[37m{jabber:client}:\u{1B}[33mpresence\u{1B}[0m {jabber:client}:id=\u{1B}[32m'p'\u{1B}[0m\u{1B}[33m />\u{1B}[0m\n"
        XCTAssertEqual(rows(log, detected: .dino), ["2 | in | a | 2026-11-23T09:30:12+0000 | {jabber:client}presence | p"])
    }

    func testDetectionWaitsForALineTypicalOfAFormat() {
        var lines = (1...50).map { "Nov 23 09:30:12 server: startup line \($0) with <angle> brackets" }
        lines.append("Nov 23 09:30:13 c2s1\tdebug\tRECV: <iq id='x' type='get'/>")
        XCTAssertEqual(rows(lines.joined(separator: "\n"), detected: .prosody), ["51 | in | c2s1 | Nov 23 09:30:13 | {jabber:client}iq | x"])
    }

    func testStreamsRestartOnReconnect() {
        // A dropped connection never closes its stream: the new header starts a new one.
        let log = """
            RECV (0): <?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><message id='a'/>
            RECV (0): <?xml version='1.0'?><stream:stream xmlns='jabber:server' xmlns:stream='http://etherx.jabber.org/streams'><message id='b'/>
            """
        XCTAssertEqual(rows(log, format: .smack), ["1 | in | 0 | - | {jabber:client}message | a", "2 | in | 0 | - | {jabber:server}message | b"])
    }

    func testDefaultNamespaceForStreamsThatDoNotSayIt() {
        let (stanzas, _) = LogReader.stanzas(in: "[x] <iq id='a'/>\n", defaultNamespace: "jabber:client")
        XCTAssertEqual(stanzas.first?.element.namespace, "jabber:client")
    }

    func testStoppingEndsReading() {
        var seen = 0
        let reader = LogReader(handler: { _, _ in seen += 1; return false }, damage: { _ in })
        reader.feed(Array(try! example("smack.log").utf8))
        reader.finish()
        XCTAssertEqual(seen, 1)
        XCTAssertTrue(reader.isStopped)
    }
}
