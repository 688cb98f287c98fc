import XCTest
import StanzaqTestSupport

/// Rows and where a stanza is: `--each`, named columns (`-e NAME=QUERY`),
/// `--header`, `--line-number` in XML input, prefixes on every line of `-s`,
/// `--compact` (stanzaq(1), OPTIONS and OUTPUT, "Rows" and "Prefixes").
final class RowsTests: CLITestCase {
    static let roster = ["--each", "{jabber:iq:roster}query/item"]

    // MARK: --each

    func testEachGivesOneRowPerElement() throws {
        try assertStanzaq(Self.roster + ["-e", "@jid", "-e", "group#", "capture.xml"], stdout: """
            romeo@montague.lit\tFriends
            nurse@capulet.lit\tFamily
            benvolio@montague.lit\t
            tybalt@capulet.lit\tFamily

            """, status: 0)
        // One query: still rows (TSV), one per element.
        try assertStanzaq(["--each", "{http://jabber.org/protocol/disco#info}query/feature", "@var", "muc-disco-info.xml"], stdout: """
            http://jabber.org/protocol/muc
            http://jabber.org/protocol/disco#info
            urn:xmpp:mam:2
            urn:xmpp:sid:0
            muc_public
            muc_persistent
            muc_open
            muc_unmoderated
            muc_nonanonymous
            muc_unsecured

            """, status: 0)
        // Nothing selected anywhere: no row, exit 1.
        try assertStanzaq(Self.roster + ["-e", "@jid", "reconnect-log.xml"], stdout: "", status: 1)
    }

    func testEachContextIsTheElement() throws {
        // `/` is the element itself, `..` its parent; an element with no result gives no row.
        try assertStanzaq(Self.roster + ["--compact", "-e", "/<ask=subscribe>", "-e", "../@ver", "capture.xml"], stdout: """
            \tver14
            \tver14
            \tver14
            <item xmlns='jabber:iq:roster' jid='tybalt@capulet.lit' name='Tybalt' subscription='none' ask='subscribe'><group>Family</group></item>\tver14

            """, status: 0)
        try assertStanzaq(Self.roster + ["-e", "/<ask=subscribe>@jid", "-e", "@ask", "capture.xml"],
                          stdout: "tybalt@capulet.lit\tsubscribe\n", status: 0)
    }

    func testEachWithPrefixesSeveralFilesAndStandardInput() throws {
        try assertStanzaq(Self.roster + ["-H", "-n", "-e", "@jid", "-e", "group#", "capture.xml", "reconnect-log.xml"], stdout: """
            capture.xml:4:romeo@montague.lit\tFriends
            capture.xml:4:nurse@capulet.lit\tFamily
            capture.xml:4:benvolio@montague.lit\t
            capture.xml:4:tybalt@capulet.lit\tFamily

            """, status: 0)
        let capture = try String(contentsOf: Runner.examples.appendingPathComponent("capture.xml"), encoding: .utf8)
        try assertStanzaq(Self.roster + ["-H", "--line-number", "-e", "@jid", "-e", "group#", "-"], stdin: capture, stdout: """
            (standard input):16\tromeo@montague.lit\tFriends
            (standard input):16\tnurse@capulet.lit\tFamily
            (standard input):16\tbenvolio@montague.lit\t
            (standard input):16\ttybalt@capulet.lit\tFamily

            """, status: 0)
    }

    func testEachInJSONAndWithNul() throws {
        try assertStanzaq(Self.roster + ["--json", "-H", "-n", "--line-number", "-e", "@jid", "-e", "group#", "capture.xml"], stdout: """
            {"file":"capture.xml","stanza":4,"line":16,"value":["romeo@montague.lit","Friends"]}
            {"file":"capture.xml","stanza":4,"line":16,"value":["nurse@capulet.lit","Family"]}
            {"file":"capture.xml","stanza":4,"line":16,"value":["benvolio@montague.lit",null]}
            {"file":"capture.xml","stanza":4,"line":16,"value":["tybalt@capulet.lit","Family"]}

            """, status: 0)
        try assertStanzaq(Self.roster + ["-0", "-e", "@jid", "-e", "group#", "capture.xml"],
                          stdout: "romeo@montague.lit\tFriends\0nurse@capulet.lit\tFamily\0benvolio@montague.lit\t\0tybalt@capulet.lit\tFamily\0",
                          status: 0)
    }

    func testEachWithCountSelectQuietInvert() throws {
        // A stanza counts when a query has a result on one of the elements.
        try assertStanzaq(Self.roster + ["-c", "-H", "/<subscription=both>", "capture.xml", "reconnect-log.xml"],
                          stdout: "capture.xml:1\nreconnect-log.xml:0\n", status: 0)
        try assertStanzaq(Self.roster + ["-q", "/<ask=subscribe>", "capture.xml"], stdout: "", status: 0)
        try assertStanzaq(Self.roster + ["-q", "/<ask=unsubscribe>", "capture.xml"], stdout: "", status: 1)
        try assertStanzaq(Self.roster + ["-c", "-v", "/<ask=subscribe>", "capture.xml"], stdout: "17\n", status: 0)
        try assertStanzaq(Self.roster + ["-s", "-n", "--compact", "/<ask=subscribe>", "capture.xml"], stdout: """
            4:<iq xmlns='jabber:client' to='juliet@capulet.lit/balcony' type='result' id='roster_1'><query xmlns='jabber:iq:roster' ver='ver14'><item jid='romeo@montague.lit' name='Romeo' subscription='both'><group>Friends</group></item><item jid='nurse@capulet.lit' name='Nurse' subscription='both'><group>Family</group><group>Servants</group></item><item jid='benvolio@montague.lit' name='Benvolio' subscription='to'/><item jid='tybalt@capulet.lit' name='Tybalt' subscription='none' ask='subscribe'><group>Family</group></item></query></iq>

            """, status: 0)
    }

    func testEachTablesOfDevicesAndOccupants() throws {
        let devices = """
            <message xmlns='jabber:client' from='juliet@capulet.lit'><event xmlns='http://jabber.org/protocol/pubsub#event'>\
            <items node='urn:xmpp:omemo:2:devices'><item id='current'><devices xmlns='urn:xmpp:omemo:2'>\
            <device id='12345' label='Gajim on Ubuntu'/><device id='4223'/><device id='31415' label='Monal'/>\
            </devices></item></items></event></message>
            """
        try assertStanzaq(["--each", "**/{urn:xmpp:omemo:2}device", "-e", "id=@id|int", "-e", "label=@label", "--json"], stdin: devices, stdout: """
            {"id":12345,"label":"Gajim on Ubuntu"}
            {"id":4223,"label":null}
            {"id":31415,"label":"Monal"}

            """, status: 0)
        let admin = """
            <iq xmlns='jabber:client' type='result' id='member3'><query xmlns='http://jabber.org/protocol/muc#admin'>
              <item affiliation='member' jid='hag66@shakespeare.lit' nick='thirdwitch' role='participant'/>
              <item affiliation='member' jid='wiccarocks@shakespeare.lit' role='visitor'/>
            </query></iq>
            """
        try assertStanzaq(["--each", "{http://jabber.org/protocol/muc#admin}query/item", "--header",
                           "-e", "jid=@jid", "-e", "nick=@nick", "-e", "role=@role"], stdin: admin, stdout: """
            jid\tnick\trole
            hag66@shakespeare.lit\tthirdwitch\tparticipant
            wiccarocks@shakespeare.lit\t\tvisitor

            """, status: 0)
    }

    func testEachTakesTheFirstFormatArguments() throws {
        try assertStanzaq(["--each", "{jabber:iq:roster}query/item<subscription=%@>", "-a", "both", "-a", "Nurse",
                           "-e", "/<name=%@>@jid", "capture.xml"], stdout: "nurse@capulet.lit\n", status: 0)
    }

    func testEachErrors() throws {
        try assertStanzaq(["--each", "{jabber:iq:roster}query/item@jid", "@jid", "capture.xml"], stdout: "", stderr: """
            stanzaq: error: --each takes a path to elements; '{jabber:iq:roster}query/item@jid' gives values (it ends in @, @@, #, $ or \\…\\)
            Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)

            """, status: 2)
        try assertStanzaq(["--each", "item<a=b", "@jid", "capture.xml"], stdout: "", stderr: nil,
                          stderrContains: ["stanzaq: error: query: expected '>' to close the attribute filter at column 9"], status: 2)
        // A path that climbs above the stanza is an error for that stanza, as a query's is.
        try assertStanzaq(["--each", "..", "@x", "message-delay.xml"], stdout: "", stderr: """
            message-delay.xml:stanza 1: query '..': '..' at column 1 climbs above <message>, the root of the stanza

            """, status: 2)
    }

    // MARK: named columns, --header

    func testNamedColumnsInJSON() throws {
        try assertStanzaq(Self.roster + ["--json", "-e", "jid=@jid", "-e", "group=group#", "capture.xml"], stdout: """
            {"jid":"romeo@montague.lit","group":"Friends"}
            {"jid":"nurse@capulet.lit","group":"Family"}
            {"jid":"benvolio@montague.lit","group":null}
            {"jid":"tybalt@capulet.lit","group":"Family"}

            """, status: 0)
        try assertStanzaq(["--json", "-H", "-n", "--line-number", "-e", "id=/@id", "-e", "body=body#", "reconnect-log.xml"], stdout: """
            {"file":"reconnect-log.xml","stanza":1,"line":3,"id":"799dc5e2-b698-4b53-9c0c-0862b496c7d1","body":"It is my lady, O, it is my love!"}
            {"file":"reconnect-log.xml","stanza":3,"line":13,"id":"bind_2","body":null}
            {"file":"reconnect-log.xml","stanza":4,"line":18,"id":"e4a1f9c3-6b2d-4e8f-a7c5-3d9b0e2f4a61","body":"Did my heart love till now? forswear it, sight!"}

            """, status: 0)
        // With fields: one flat object, which jq selects from by column as by field.
        try assertStanzaq(["--json", "--fields", "time", "-e", "type=/$", "-e", "id=/@id", "logs/prosody.log"], stdout: """
            {"time":"Nov 23 09:30:12","type":"features","id":null}
            {"time":"Nov 23 09:30:13","type":"iq","id":"bind_1"}
            {"time":"Nov 23 09:30:13","type":"iq","id":"bind_1"}
            {"time":"Nov 23 09:30:14","type":"message","id":"msg1"}
            {"time":"Nov 23 09:30:14","type":"message","id":"msg1"}
            {"time":"Nov 23 09:30:15","type":"presence","id":"p1"}

            """, status: 0)
        // Unnamed: the array stays the record's value.
        try assertStanzaq(["--json", "-n", "-e", "/$", "-e", "/@id", "http-upload-disco.xml"], stdout: """
            {"stanza":1,"value":["iq","step_02"]}

            """, status: 0)
        // A column cannot be named as a key of the records.
        let usage = "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n"
        try assertStanzaq(["--json", "-e", "time=/@id", "logs/prosody.log"], stdout: "", stderr: """
            stanzaq: error: the column name 'time' is a key of the records (file, stanza, line, time, direction, session): choose another

            """ + usage, status: 2)
        try assertStanzaq(["--json", "--fields", "with", "-e", "with=/@to", "logs/prosody-archive.json"], stdout: "", stderr: """
            stanzaq: error: the column name 'with' is a field of --fields: choose another

            """ + usage, status: 2)
        // One named query makes rows too.
        try assertStanzaq(["--json", "-e", "stamp={urn:xmpp:delay}delay@stamp|datetime", "message-delay.xml"],
                          stdout: "{\"stamp\":\"2002-09-10T23:08:25Z\"}\n", status: 0)
        try assertStanzaq(["-e", "to=/@to", "message-delay.xml"], stdout: "juliet@capulet.lit\n", status: 0)
    }

    func testNameOrQuery() throws {
        // `=` inside a filter comes after `<`, which no name holds: a query.
        try assertStanzaq(["-e", "/<type=error>/@id", "-e", "/<type=error>$", "capture.xml"], stdout: """
            b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f\tmessage
            disco-3e9f\tiq

            """, status: 0)
        try assertStanzaq(["--json", "-e", "error-id=/<type=error>/@id", "-e", "kind_2=/<type=error>$", "capture.xml"], stdout: """
            {"error-id":"b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f","kind_2":"message"}
            {"error-id":"disco-3e9f","kind_2":"iq"}

            """, status: 0)
        // Not a name (a dot): read as a query, which does not compile.
        try assertStanzaq(["-e", "a.b=@x", "capture.xml"], stdout: "", stderr: """
            stanzaq: error: query: unexpected '=': expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end at column 4
              a.b=@x
                 ^

            """, status: 2)
    }

    func testHeader() throws {
        try assertStanzaq(Self.roster + ["--header", "-e", "jid=@jid", "-e", "name=@name", "-e", "sub=@subscription", "capture.xml"], stdout: """
            jid\tname\tsub
            romeo@montague.lit\tRomeo\tboth
            nurse@capulet.lit\tNurse\tboth
            benvolio@montague.lit\tBenvolio\tto
            tybalt@capulet.lit\tTybalt\tnone

            """, status: 0)
        // Unnamed columns: the queries as written; behind the prefixes' names, after the fields'.
        try assertStanzaq(Self.roster + ["--header", "-H", "-n", "--line-number", "-e", "@jid", "-e", "@ask", "capture.xml"], stdout: """
            file:stanza:line\t@jid\t@ask
            capture.xml:4:16\tromeo@montague.lit\t
            capture.xml:4:16\tnurse@capulet.lit\t
            capture.xml:4:16\tbenvolio@montague.lit\t
            capture.xml:4:16\ttybalt@capulet.lit\tsubscribe

            """, status: 0)
        // One header for several inputs; none without a row.
        try assertStanzaq(["--header", "-e", "id=/@id", "message-delay.xml", "-"], stdin: "<a id='x'/>",
                          stdout: "id\n5bd3c1f0-6e3b-4f8a-9d6e-2f1c7a4b8e90\nx\n", status: 0)
        try assertStanzaq(["--header", "-e", "id=/@nothing", "message-delay.xml"], stdout: "", status: 1)
        // A header alone makes TSV rows of one query; -0 ends it as it ends rows.
        try assertStanzaq(["--header", "-0", "/@to", "message-delay.xml"], stdout: "/@to\0juliet@capulet.lit\0", status: 0)
    }

    func testHeaderOfALogsFields() throws {
        try assertStanzaq(["--header", "--fields", "line,direction", "-e", "name=/$", "-e", "id=/@id", "logs/smack.log"], stdout: """
            line\tdirection\tname\tid
            3\tin\tfeatures\t
            4\tout\tiq\tbind_1
            5\tin\tiq\tbind_1
            6\tout\tpresence\tp1
            5\tin\tmessage\tmsg1
            11\tout\tmessage\tmsg2

            """, status: 0)
    }

    func testUsageErrors() throws {
        let usage = "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n"
        for (arguments, message) in [
            (["-e", "a=@x", "-e", "@y"], "name every column (NAME=QUERY) or none"),
            (["-e", "a=@x", "-e", "a=@y"], "the column name 'a' is given twice"),
            (["--header", "--json", "-e", "a=@x"], "--header is for TSV; JSON rows are objects keyed by the names of -e NAME=QUERY"),
            (["--header", "-o", "json", "@x"], "--header is for TSV; JSON rows are objects keyed by the names of -e NAME=QUERY"),
            (["--header", "-c", "@x"], "--header goes with rows, not with -q, -c, -s, -v, -l or -L"),
            (["--header", "-s", "@x"], "--header goes with rows, not with -q, -c, -s, -v, -l or -L"),
            (["--header", "-v", "@x"], "--header goes with rows, not with -q, -c, -s, -v, -l or -L"),
            (["--header", "-l", "@x"], "--header goes with rows, not with -q, -c, -s, -v, -l or -L"),
            (["--compact", "--pretty", "/"], "choose one of --compact and --pretty"),
        ] {
            try assertStanzaq(arguments + ["capture.xml"], stdout: "", stderr: "stanzaq: error: \(message)\n" + usage, status: 2)
        }
    }

    // MARK: --line-number in XML, prefixes on every line of -s, --compact

    func testLineNumberInXML() throws {
        try assertStanzaq(["-H", "--line-number", "body#", "capture.xml", "reconnect-log.xml"], stdout: """
            capture.xml:40:Lady, by yonder blessed moon I swear
            capture.xml:46:O, swear not by the moon, the inconstant moon
            capture.xml:53:A plague o' both your houses!
            capture.xml:57:Romeo is banished; he waits for you at Friar Laurence's cell.
            capture.xml:65:Where is Tybalt?
            capture.xml:81:I'll send thee word from Mantua.
            reconnect-log.xml:3:It is my lady, O, it is my love!
            reconnect-log.xml:18:Did my heart love till now? forswear it, sight!

            """, status: 0)
        try assertStanzaq(["--json", "--line-number", "/@id", "reconnect-log.xml"], stdout: """
            {"line":3,"value":"799dc5e2-b698-4b53-9c0c-0862b496c7d1"}
            {"line":13,"value":"bind_2"}
            {"line":18,"value":"e4a1f9c3-6b2d-4e8f-a7c5-3d9b0e2f4a61"}

            """, status: 0)
        try assertStanzaq(["--line-number", "-e", "/@id", "-e", "body#", "reconnect-log.xml"], stdout: """
            3\t799dc5e2-b698-4b53-9c0c-0862b496c7d1\tIt is my lady, O, it is my love!
            13\tbind_2\t
            18\te4a1f9c3-6b2d-4e8f-a7c5-3d9b0e2f4a61\tDid my heart love till now? forswear it, sight!

            """, status: 0)
        try assertStanzaq(["-0", "-n", "--line-number", "/$"], stdin: "<a/>\n\n<b\n  x='1'>\n<c/></b>", stdout: "1:1:a\02:3:b\0", status: 0)
        // The other fields of a log are unknown in XML: empty, with a warning.
        try assertStanzaq(["--fields", "line,time", "/$"], stdin: "\n<a/>", stdout: "2:\ta\n",
                          stderr: "stanzaq: warning: (standard input): XML input has no field 'time' (it has only 'line'): printed empty\n",
                          status: 0)
    }

    func testSelectPrefixesEveryLine() throws {
        try assertStanzaq(["-s", "-H", "--line-number", "/<type=error>", "capture.xml"], stdout: """
            capture.xml:65:<message xmlns='jabber:client' from='tybalt@capulet.lit' to='juliet@capulet.lit/balcony' type='error' id='b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f'>
            capture.xml:65:  <body>Where is Tybalt?</body>
            capture.xml:65:  <error type='cancel'>
            capture.xml:65:    <item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
            capture.xml:65:  </error>
            capture.xml:65:</message>
            capture.xml:71:<iq xmlns='jabber:client' from='nurse@capulet.lit/chamber' to='juliet@capulet.lit/balcony' type='error' id='disco-3e9f'>
            capture.xml:71:  <query xmlns='http://jabber.org/protocol/disco#info'/>
            capture.xml:71:  <error type='cancel'>
            capture.xml:71:    <service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
            capture.xml:71:    <text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas' xml:lang='en'>Recipient does not answer service discovery</text>
            capture.xml:71:  </error>
            capture.xml:71:</iq>

            """, status: 0)
        try assertStanzaq(["-s", "-n", "/"], stdin: "<a/>\n\n<b>\n<c/></b>", stdout: "1:<a/>\n2:<b>\n2:<c/></b>\n", status: 0)
        // Context stanzas (-A, -B, -C) too, their prefixes ending in '-' as grep's do.
        try assertStanzaq(["-s", "-n", "--line-number", "-A1", "/<type=get>"], stdin: "<iq type='get'>\n<ping/>\n</iq>\n<iq\n type='result'>\n</iq>\n<a/>",
                          stdout: "1:1:<iq type='get'>\n1:1:<ping/>\n1:1:</iq>\n2-4-<iq type='result'>\n2-4-</iq>\n", status: 0)
        // A record of -0 is the unit: its prefixes once.
        try assertStanzaq(["-s", "-0", "-n", "/"], stdin: "<a/>\n\n<b>\n<c/></b>", stdout: "1:<a/>\02:<b>\n<c/></b>\0", status: 0)
        try assertStanzaq(["-s", "--json", "-n", "--line-number", "/b"], stdin: "<a/>\n\n<b>\n<c/></b>",
                          stdout: "{\"stanza\":2,\"line\":3,\"value\":\"<b>\\n<c/></b>\"}\n", status: 0)
    }

    func testCompact() throws {
        let xml = "<a x='1\n2'><b>x\ny</b>\n  <c> </c>\n</a>\n<m><b>one <i>two</i>\n</b></m>"
        // Whitespace between elements dropped, mixed content kept, newlines in text as &#10;.
        try assertStanzaq(["--compact", "/"], stdin: xml, stdout: """
            <a x='1 2'><b>x&#10;y</b><c> </c></a>
            <m><b>one <i>two</i>&#10;</b></m>

            """, status: 0)
        try assertStanzaq(["-s", "-H", "-n", "--compact", "/<type=error>", "capture.xml", "reconnect-log.xml"], stdout: """
            capture.xml:15:<message xmlns='jabber:client' from='tybalt@capulet.lit' to='juliet@capulet.lit/balcony' type='error' id='b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f'><body>Where is Tybalt?</body><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></message>
            capture.xml:16:<iq xmlns='jabber:client' from='nurse@capulet.lit/chamber' to='juliet@capulet.lit/balcony' type='error' id='disco-3e9f'><query xmlns='http://jabber.org/protocol/disco#info'/><error type='cancel'><service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/><text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas' xml:lang='en'>Recipient does not answer service discovery</text></error></iq>

            """, status: 0)
        try assertStanzaq(["-s", "--compact", "--json", "/"], stdin: xml, stdout: """
            "<a x='1 2'><b>x&#10;y</b><c> </c></a>"
            "<m><b>one <i>two</i>&#10;</b></m>"

            """, status: 0)
        try assertStanzaq(["-s", "--compact", "-0", "/b"], stdin: "<a/><b>\n <c/>\n</b>", stdout: "<b><c/></b>\0", status: 0)
    }
}
