import Foundation
import StanzaqTestSupport
import XCTest

/// Logs on the command line (stanzaq(1), LOGS): every format recognised by itself,
/// its rows (`-e '/$' -e '/@id'`) and its fields in JSON, on the samples of examples/logs.
final class LogCommandTests: CLITestCase {
    func testProsodyLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/prosody.log"], stdout: """
            6\tout\tfeatures\t
            7\tin\tiq\tbind_1
            10\tout\tiq\tbind_1
            11\tin\tmessage\tmsg1
            15\tout\tmessage\tmsg1
            17\tin\tpresence\tp1
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/prosody.log"],
                          stdout: """
            {"line":6,"time":"Nov 23 09:30:12","direction":"out","session":"c2s55e8a7f1c3a0","value":["features",null]}
            {"line":7,"time":"Nov 23 09:30:13","direction":"in","session":"c2s55e8a7f1c3a0","value":["iq","bind_1"]}
            {"line":10,"time":"Nov 23 09:30:13","direction":"out","session":"c2s55e8a7f1c3a0","value":["iq","bind_1"]}
            {"line":11,"time":"Nov 23 09:30:14","direction":"in","session":"c2s55e8a7f1c3a0","value":["message","msg1"]}
            {"line":15,"time":"Nov 23 09:30:14","direction":"out","session":"c2s7f3b2c0d9e11","value":["message","msg1"]}
            {"line":17,"time":"Nov 23 09:30:15","direction":"in","session":"c2s55e8a7f1c3a0","value":["presence","p1"]}
            """ + "\n", status: 0)
    }

    func testEjabberdLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/ejabberd.log"], stdout: """
            4\tout\tfeatures\t
            7\tout\tr\t
            6\tin\tiq\tbind_1
            9\tout\tiq\tbind_1
            10\tin\tmessage\tmsg1
            12\tin\tmessage\tmsg2
            14\tout\tmessage\tmsg3
            15\tin\tpresence\tp1
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/ejabberd.log"],
                          stdout: """
            {"line":4,"time":"2026-11-23 09:30:12.103410+00:00","direction":"out","session":"tcp|<0.1234.0>","value":["features",null]}
            {"line":7,"time":"2026-11-23 09:30:13.220500+00:00","direction":"out","session":"tcp|<0.1234.0>","value":["r",null]}
            {"line":6,"time":"2026-11-23 09:30:13.220101+00:00","direction":"in","session":"tcp|<0.1234.0>","value":["iq","bind_1"]}
            {"line":9,"time":"2026-11-23 09:30:13.222000+00:00","direction":"out","session":"tcp|<0.1234.0>","value":["iq","bind_1"]}
            {"line":10,"time":"2026-11-23 09:30:14.000001+00:00","direction":"in","session":"tcp|<0.1234.0>","value":["message","msg1"]}
            {"line":12,"time":"2026-11-23 09:30:14.500012+00:00","direction":"in","session":"tcp|<0.1234.0>","value":["message","msg2"]}
            {"line":14,"time":"2026-11-23 09:30:15.000100+00:00","direction":"out","session":"tcp|<0.1234.0>","value":["message","msg3"]}
            {"line":15,"time":"2026-11-23 09:30:15.100200+00:00","direction":"in","session":"tcp|<0.1234.0>","value":["presence","p1"]}
            """ + "\n", status: 0)
    }

    /// MongooseIM's debug log: the socket reads of each c2s process (in, its pid),
    /// and the stanzas routed to a session (out, `session_pid=`); the router's
    /// lines with the same stanzas are text.
    func testMongooseIMLog() throws {
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/mongooseim.log"],
                          stdout: """
            {"line":3,"time":"2026-11-23T09:30:12.240385+00:00","direction":"in","session":"<0.1745.0>","value":["auth",null]}
            {"line":5,"time":"2026-11-23T09:30:12.260413+00:00","direction":"in","session":"<0.1745.0>","value":["iq","bind_1"]}
            {"line":7,"time":"2026-11-23T09:30:13.301000+00:00","direction":"in","session":"<0.1745.0>","value":["iq","roster_1"]}
            {"line":9,"time":"2026-11-23T09:30:13.302540+00:00","direction":"out","session":"<0.1745.0>","value":["iq","roster_1"]}
            {"line":10,"time":"2026-11-23T09:30:13.410771+00:00","direction":"in","session":"<0.1745.0>","value":["presence",null]}
            {"line":11,"time":"2026-11-23T09:30:13.411902+00:00","direction":"out","session":"<0.1702.0>","value":["presence",null]}
            {"line":12,"time":"2026-11-23T09:30:14.000001+00:00","direction":"in","session":"<0.1745.0>","value":["message","msg1"]}
            {"line":16,"time":"2026-11-23T09:30:14.001337+00:00","direction":"out","session":"<0.1702.0>","value":["message","msg1"]}
            {"line":18,"time":"2026-11-23T09:30:14.500012+00:00","direction":"in","session":"<0.1702.0>","value":["message","msg2"]}
            {"line":19,"time":"2026-11-23T09:30:14.500731+00:00","direction":"out","session":"<0.1745.0>","value":["message","msg2"]}
            {"line":20,"time":"2026-11-23T09:30:15.020400+00:00","direction":"in","session":"<0.1745.0>","value":["iq","disco1"]}
            {"line":21,"time":"2026-11-23T09:30:15.021118+00:00","direction":"out","session":"<0.1745.0>","value":["iq","disco1"]}
            """ + "\n", status: 0)
        // flatlog's escapes undone: a newline written as a backslash and the line break, `\"`.
        try assertStanzaq(["--direction", "in", "-e", "/@to", "-e", "body#", "logs/mongooseim.log"], stdout: """
            romeo@montague.lit\tArt thou not Romeo,\\nand a Montague?
            juliet@capulet.lit/balcony\tNeither, fair saint, if either thee dislike.
            nurse@capulet.lit/chamber\t
            """ + "\n", status: 0)
        try assertStanzaq(["--log=mongooseim", "-e", "/@from", "-e", "error/{urn:ietf:params:xml:ns:xmpp-stanzas}text#",
                           "-e", "/iq<type=error>@id", "logs/mongooseim.log"],
                          stdout: "nurse@capulet.lit/chamber\tRoute offline\tdisco1\n", status: 0)
    }

    /// A value flatlog wrote as an Erlang term (a binary that is not Latin-1 text)
    /// is its bytes; a line of damaged XML costs its stanza alone (reported at
    /// the column its value starts, as the data of any escaped record).
    func testMongooseIMTermAndDamage() throws {
        let head = "when=2026-11-23T09:30:14.500012+00:00 level=debug what=received_xml_on_stream pid=<0.1745.0> at=mongoose_c2s:handle_socket_packet/2:240 packet="
        let log = head + "\"<message id='a'><body>fish & chips</body></message>\" c2s_pid=<0.1745.0> \n"
            + head + "\"<<\\\"<message id='b'><body>\u{2764}</body></message>\\\"/utf8>>\" c2s_pid=<0.1745.0> \n"
            + head + "\"<message id='c'/>\" c2s_pid=<0.1745.0> \n"
        try assertStanzaq(["-e", "/@id", "-e", "body#"], stdin: log, stdout: "b\t\u{2764}\nc\t\n",
                          stderr: "(standard input):1:144: xmlParseEntityRef: no name\n", status: 2)
    }

    func testSmackLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/smack.log"], stdout: """
            3\tin\tfeatures\t
            4\tout\tiq\tbind_1
            5\tin\tiq\tbind_1
            6\tout\tpresence\tp1
            5\tin\tmessage\tmsg1
            11\tout\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/smack.log"],
                          stdout: """
            {"line":3,"time":"09:30:12.2","direction":"in","session":"0","value":["features",null]}
            {"line":4,"time":"09:30:12.3","direction":"out","session":"0","value":["iq","bind_1"]}
            {"line":5,"time":"09:30:12.4","direction":"in","session":"0","value":["iq","bind_1"]}
            {"line":6,"time":"09:30:12.4","direction":"out","session":"0","value":["presence","p1"]}
            {"line":5,"time":"09:30:12.4","direction":"in","session":"0","value":["message","msg1"]}
            {"line":11,"time":"09:30:13.0","direction":"out","session":"0","value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testSlixmppLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/slixmpp.log"], stdout: """
            4\tin\tfeatures\t
            5\tout\tiq\tbind_1
            6\tin\tiq\tbind_1
            8\tin\tmessage\tmsg1
            10\tout\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/slixmpp.log"],
                          stdout: """
            {"line":4,"time":"2026-11-23 09:30:12,213","direction":"in","session":null,"value":["features",null]}
            {"line":5,"time":"2026-11-23 09:30:12,301","direction":"out","session":null,"value":["iq","bind_1"]}
            {"line":6,"time":"2026-11-23 09:30:12,402","direction":"in","session":null,"value":["iq","bind_1"]}
            {"line":8,"time":"2026-11-23 09:30:12,510","direction":"in","session":null,"value":["message","msg1"]}
            {"line":10,"time":"2026-11-23 09:30:13,001","direction":"out","session":null,"value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testNbxmppLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/nbxmpp.log"], stdout: """
            8\tin\tfeatures\t
            12\tout\tiq\tbind_1
            17\tin\tiq\tbind_1
            21\tin\tmessage\tmsg1
            26\tout\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/nbxmpp.log"],
                          stdout: """
            {"line":8,"time":"2026-11-23T09:30:12","direction":"in","session":"juliet","value":["features",null]}
            {"line":12,"time":"2026-11-23T09:30:12","direction":"out","session":"juliet","value":["iq","bind_1"]}
            {"line":17,"time":"2026-11-23T09:30:13","direction":"in","session":"juliet","value":["iq","bind_1"]}
            {"line":21,"time":"2026-11-23T09:30:13","direction":"in","session":"juliet","value":["message","msg1"]}
            {"line":26,"time":"2026-11-23T09:30:14","direction":"out","session":"juliet","value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testGajimConsoleXml() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/gajim-console.xml"], stdout: """
            5\tin\tfeatures\t
            10\tout\tiq\tbind_1
            17\tin\tiq\tbind_1
            26\tin\tmessage\tmsg1
            32\tout\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/gajim-console.xml"],
                          stdout: """
            {"line":5,"time":"Mon Nov 23 09:30:12 2026","direction":"in","session":"Juliet","value":["features",null]}
            {"line":10,"time":"Mon Nov 23 09:30:12 2026","direction":"out","session":"Juliet","value":["iq","bind_1"]}
            {"line":17,"time":"Mon Nov 23 09:30:13 2026","direction":"in","session":"Juliet","value":["iq","bind_1"]}
            {"line":26,"time":"Mon Nov 23 09:30:13 2026","direction":"in","session":"Juliet","value":["message","msg1"]}
            {"line":32,"time":"Mon Nov 23 09:30:14 2026","direction":"out","session":"Juliet","value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testDinoLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/dino.log"], stdout: """
            7\tout\tiq\tbind_1
            15\tin\tiq\tbind_1
            24\tin\tmessage\tmsg1
            31\tout\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/dino.log"],
                          stdout: """
            {"line":7,"time":"2026-11-23T09:30:12+0000","direction":"out","session":"juliet@montague.lit","value":["iq","bind_1"]}
            {"line":15,"time":"2026-11-23T09:30:13+0000","direction":"in","session":"juliet@montague.lit","value":["iq","bind_1"]}
            {"line":24,"time":"2026-11-23T09:30:13+0000","direction":"in","session":"juliet@montague.lit","value":["message","msg1"]}
            {"line":31,"time":"2026-11-23T09:30:14+0000","direction":"out","session":"juliet@montague.lit","value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testMonalLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/monal.log"], stdout: """
            3\tin\tfeatures\t
            5\tout\tiq\tbind_1
            6\tin\tiq\tbind_1
            8\tin\tmessage\tmsg1
            11\tout\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/monal.log"],
                          stdout: """
            {"line":3,"time":"2026-11-23 09:30:12:212","direction":"in","session":null,"value":["features",null]}
            {"line":5,"time":"2026-11-23 09:30:12:301","direction":"out","session":null,"value":["iq","bind_1"]}
            {"line":6,"time":"2026-11-23 09:30:12:402","direction":"in","session":null,"value":["iq","bind_1"]}
            {"line":8,"time":"2026-11-23 09:30:12:510","direction":"in","session":null,"value":["message","msg1"]}
            {"line":11,"time":"2026-11-23 09:30:13:002","direction":"out","session":null,"value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testConversationsLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/conversations.log"], stdout: """
            3\tin\tiq\tbind_1
            4\tin\tmessage\tmsg1
            8\tin\tpresence\tp1
            9\tin\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/conversations.log"],
                          stdout: """
            {"line":3,"time":"11-23 09:30:12.300","direction":"in","session":null,"value":["iq","bind_1"]}
            {"line":4,"time":"11-23 09:30:12.400","direction":"in","session":null,"value":["message","msg1"]}
            {"line":8,"time":"11-23 09:30:12.500","direction":"in","session":null,"value":["presence","p1"]}
            {"line":9,"time":"11-23 09:30:13.001","direction":"in","session":null,"value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testProsodySyslog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/prosody-syslog.log"], stdout: """
            5\tout\tfeatures\t
            6\tin\tiq\tbind_1
            10\tout\tiq\tbind_1
            11\tin\tmessage\tmsg1
            14\tout\tmessage\tmsg1
            15\tin\tpresence\tp1
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/prosody-syslog.log"],
                          stdout: """
            {"line":5,"time":"Nov 23 09:30:12","direction":"out","session":"c2s55e8a7f1c3a0","value":["features",null]}
            {"line":6,"time":"Nov 23 09:30:13","direction":"in","session":"c2s55e8a7f1c3a0","value":["iq","bind_1"]}
            {"line":10,"time":"Nov 23 09:30:13","direction":"out","session":"c2s55e8a7f1c3a0","value":["iq","bind_1"]}
            {"line":11,"time":"Nov 23 09:30:14","direction":"in","session":"c2s55e8a7f1c3a0","value":["message","msg1"]}
            {"line":14,"time":"Nov 23 09:30:14","direction":"out","session":"c2s7f3b2c0d9e11","value":["message","msg1"]}
            {"line":15,"time":"Nov 23 09:30:15","direction":"in","session":"c2s55e8a7f1c3a0","value":["presence","p1"]}
            """ + "\n", status: 0)
    }

    func testTsharkFollowTxt() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/tshark-follow.txt"], stdout: """
            10\tin\tfeatures\t
            12\tout\tiq\tbind_1
            14\tin\tiq\tbind_1
            17\tout\tpresence\tp1
            14\tin\tmessage\tmsg1
            21\tout\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/tshark-follow.txt"],
                          stdout: """
            {"line":10,"time":null,"direction":"in","session":"tcp.stream eq 0","value":["features",null]}
            {"line":12,"time":null,"direction":"out","session":"tcp.stream eq 0","value":["iq","bind_1"]}
            {"line":14,"time":null,"direction":"in","session":"tcp.stream eq 0","value":["iq","bind_1"]}
            {"line":17,"time":null,"direction":"out","session":"tcp.stream eq 0","value":["presence","p1"]}
            {"line":14,"time":null,"direction":"in","session":"tcp.stream eq 0","value":["message","msg1"]}
            {"line":21,"time":null,"direction":"out","session":"tcp.stream eq 0","value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testProsodyArchiveJson() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/prosody-archive.json"], stdout: """
            1\t\tmessage\tmsg1
            2\t\tmessage\tmsg2
            3\t\tmessage\tmsg3
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/prosody-archive.json"],
                          stdout: """
            {"line":1,"time":"1795426212","direction":null,"session":null,"value":["message","msg1"]}
            {"line":2,"time":"1795426213","direction":null,"session":null,"value":["message","msg2"]}
            {"line":3,"time":"1795426214","direction":null,"session":null,"value":["message","msg3"]}
            """ + "\n", status: 0)
    }

    func testEjabberdArchiveTsv() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/ejabberd-archive.tsv"], stdout: """
            2\t\tmessage\tmsg1
            3\t\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/ejabberd-archive.tsv"],
                          stdout: """
            {"line":2,"time":"2026-11-23 09:30:12","direction":null,"session":null,"value":["message","msg1"]}
            {"line":3,"time":"2026-11-23 09:30:13","direction":null,"session":null,"value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    func testGenericLog() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/generic.log"], stdout: """
            2\tout\tiq\tbind_1
            3\tin\tiq\tbind_1
            5\tin\tmessage\tmsg1
            7\tout\tmessage\tmsg2
            """ + "\n", status: 0)
        try assertStanzaq(["--json", "--fields", "line,time,direction,session", "-e", "/$", "-e", "/@id", "logs/generic.log"],
                          stdout: """
            {"line":2,"time":null,"direction":"out","session":null,"value":["iq","bind_1"]}
            {"line":3,"time":null,"direction":"in","session":null,"value":["iq","bind_1"]}
            {"line":5,"time":null,"direction":"in","session":null,"value":["message","msg1"]}
            {"line":7,"time":null,"direction":"out","session":null,"value":["message","msg2"]}
            """ + "\n", status: 0)
    }

    // MARK: - Options

    func testPrefixesInText() throws {
        try assertStanzaq(["-H", "-n", "--line-number", "--fields", "direction", "/@id", "logs/smack.log"], stdout: """
            logs/smack.log:2:4:out\tbind_1
            logs/smack.log:3:5:in\tbind_1
            logs/smack.log:4:6:out\tp1
            logs/smack.log:5:5:in\tmsg1
            logs/smack.log:6:11:out\tmsg2
            """ + "\n", status: 0)
    }

    func testLineNumberIsTheLogLine() throws {
        // The line where the stanza starts: a stanza spanning lines (prosody.log 11-12), and
        // one whose socket reads were split across the other direction's lines (smack.log 5-10).
        try assertStanzaq(["--line-number", "--json", "body#", "logs/prosody.log", "logs/smack.log"], stdout: """
            {"line":11,"value":"Art thou not Romeo,\\nand a Montague?"}
            {"line":15,"value":"Art thou not Romeo,\\nand a Montague?"}
            {"line":5,"value":"Shall I hear more,\\nor shall I speak at this?"}
            {"line":11,"value":"'Tis but thy name that is my enemy"}
            """ + "\n", status: 0)
        try assertStanzaq(["--line-number", "body#", "logs/prosody-syslog.log"],
                          stdout: "11:Art thou not Romeo,\n11:and a Montague?\n14:Art thou not Romeo,\n14:and a Montague?\n", status: 0)
    }

    func testDirection() throws {
        try assertStanzaq(["--direction", "in", "-e", "/$", "-e", "/@id", "logs/prosody.log"],
                          stdout: "iq\tbind_1\nmessage\tmsg1\npresence\tp1\n", status: 0)
        try assertStanzaq(["-c", "--direction", "out", "/", "logs/prosody.log"], stdout: "3\n", status: 0)
        // XML input has no directions: said once.
        try assertStanzaq(["-c", "--direction", "out", "/", "capture.xml"], stdout: "0\n",
                          stderr: "stanzaq: warning: capture.xml: XML input has no direction: --direction out selects none of their stanzas\n",
                          status: 1)
    }

    func testArchiveColumns() throws {
        try assertStanzaq(["--json", "--fields", "with,when", "body#", "logs/prosody-archive.json"], stdout: """
            {"with":"romeo@montague.lit","when":"1795426212","value":"Shall I hear more,\\nor shall I speak at this?"}
            {"with":"romeo@montague.lit","when":"1795426213","value":"'Tis but thy name that is my enemy"}
            {"with":"romeo@montague.lit","when":"1795426214","value":"café ☕ <3"}
            """ + "\n", status: 0)
        try assertStanzaq(["--fields", "peer,nope", "-e", "/@id", "-e", "body#", "logs/ejabberd-archive.tsv"], stdout: """
            romeo@montague.lit/orchard\t\tmsg1\tShall I hear more,\\nor shall I speak at this?
            romeo@montague.lit\t\tmsg2\t'Tis but thy name that is my enemy
            """ + "\n", status: 0)
    }

    func testRecognisedByItselfOnStandardInput() throws {
        let log = "Nov 23 09:30:12 c2s1\tdebug\tRECV: <iq id='a' type='get'/>\n"
        try assertStanzaq(["--line-number", "/@id"], stdin: log, stdout: "1:a\n", status: 0)
        try assertStanzaq(["--log=prosody", "/@id"], stdin: log, stdout: "a\n", status: 0)
        try assertStanzaq(["--log", "/@id"], stdin: log, stdout: "a\n", status: 0)
        // Forced to XML, a log is XML with text between its stanzas: the text before the
        // first stanza is skipped as a start in the middle of a stanza would be, the
        // next line's text is damage (stanzaq(1), INPUT).
        try assertStanzaq(["--xml", "/@id"], stdin: log + log.replacingOccurrences(of: "'a'", with: "'b'"), stdout: "a\nb\n",
                          stderr: "(standard input):2:1: text outside any stanza: 'Nov 23 09:30:12 c2s1?debug?RECV: '\n", status: 2)
        // XML stays XML.
        try assertStanzaq(["/@id"], stdin: "<iq id='x'/>", stdout: "x\n", status: 0)
    }

    func testLogWithoutStanzas() throws {
        try assertStanzaq(["/@id"], stdin: "just some text\nwith a <tag> in it\n", stdout: "", status: 1)
    }

    func testDamageIsReportedAndReadingGoesOn() throws {
        let log = """
            Nov 23 09:30:12 c2s1\tdebug\tRECV: <message id='a'><body>fish & chips</body></message>
            Nov 23 09:30:13 c2s1\tdebug\tRECV: <message id='b'/>
            """
        try assertStanzaq(["/@id", "-"], stdin: log, stdout: "b\n",
                          stderr: "(standard input):1:62: xmlParseEntityRef: no name\n", status: 2)
    }

    func testOptionErrors() throws {
        try assertStanzaq(["--log=strophe", "/", "logs/prosody.log"], stdout: "",
                          stderr: "stanzaq: error: unknown log format 'strophe' (one of: prosody, prosody-watch, ejabberd, logxml, mongooseim, openfire, smack, slixmpp, libstrophe, "
                              + "profanity, libpurple, qxmpp, strophejs, nbxmpp, aioxmpp, gajim, dino, monal, conversations, xmlstream, goxmpp, mcabber, jabberd2, xmppjs, tigase, tshark, json, tsv, generic). Did you mean 'strophejs'?\n"
                              + "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n", status: 2)
        try assertStanzaq(["--log=nope", "/", "logs/prosody.log"], stdout: "", stderr: nil,
                          stderrContains: ["unknown log format 'nope'"], status: 2)
        try assertStanzaq(["--log", "--xml", "/", "logs/prosody.log"], stdout: "", stderr: nil,
                          stderrContains: ["choose one of --log and --xml"], status: 2)
        try assertStanzaq(["--follow", "/", "logs/prosody.log", "logs/smack.log"], stdout: "", stderr: nil,
                          stderrContains: ["--follow follows one file"], status: 2)
        // A bare --log as another option's value is that value.
        try assertStanzaq(["-a", "--log", "/<id=%@>", "logs/prosody.log"], stdout: "", status: 1)
    }

    /// `--follow` on a slixmpp log: its format is told by what the file holds
    /// (an appended `RECV:` line alone does not tell slixmpp's from Monal's or
    /// libstrophe's), so an appended stanza is printed as soon as it is complete.
    func testFollowTellsTheFormatFromWhatTheFileHolds() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("slixmpp.log")
        let lines = try String(contentsOf: PackagePaths.file("Tests/Fixtures/real-logs/logs/slixmpp-time-alice.log"), encoding: .utf8)
            .split(separator: "\n").map { $0 + "\n" }
        let held = lines.prefix(40).joined()
        try Data(held.utf8).write(to: path)
        let (process, output) = try startFollowing(["--fields", "line,direction", "-e", "/$", "-e", "/@type"], path, in: scratch)
        let handle = try FileHandle(forWritingTo: path)
        handle.seekToEndOfFile()
        handle.write(Data(lines.first { $0.contains("RECV: <message") }!.utf8))
        waitForOutput(output, "41\tin\tmessage\tgroupchat\n")
        try handle.close()
        stopFollowing(process)
    }

    /// `--follow`: only what is written after the start, across rotation, line-buffered; Ctrl-C ends it.
    func testFollow() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("prosody.log")
        let line: (String) -> String = { "Nov 23 09:30:12 c2s1\tdebug\tRECV: <iq id='\($0)' type='get'/>\n" }
        try Data(line("old").utf8).write(to: path)
        let (process, output) = try startFollowing(["--line-number", "/@id"], path, in: scratch)
        let handle = try FileHandle(forWritingTo: path)
        handle.seekToEndOfFile()
        handle.write(Data(line("new").utf8))
        waitForOutput(output, "2:new\n")
        // Rotation: the name now names a new file.
        try handle.close()
        try FileManager.default.moveItem(at: path, to: scratch.url.appendingPathComponent("prosody.log.1"))
        try Data(line("rotated").utf8).write(to: path)
        waitForOutput(output, "2:new\n1:rotated\n")
        stopFollowing(process)
    }
}
