import Foundation
import StanzaqTestSupport
import XCTest

/// What a new user tripped over on real logs (stanzaq(1): `--where`, counting
/// by value, prefixes; stanzaq-query(7): anywhere in a stanza).
final class EverydayUseTests: CLITestCase {

    // MARK: --where

    func testWhereSelectsTheStanzasRowsAreMadeFrom() throws {
        // Without --where, every message with a body makes a row, the first
        // column empty where the sender does not match.
        try assertStanzaq(["-e", "/message<from~^romeo@>@to", "-e", "body#", "capture.xml"], stdout: """
            juliet@capulet.lit/balcony\tLady, by yonder blessed moon I swear
            \tO, swear not by the moon, the inconstant moon
            \tA plague o' both your houses!
            \tRomeo is banished; he waits for you at Friar Laurence's cell.
            \tWhere is Tybalt?
            juliet@capulet.lit/balcony\tI'll send thee word from Mantua.

            """, status: 0)
        try assertStanzaq(["--where", "/message<from~^romeo@>", "-e", "/@to", "-e", "body#", "capture.xml"], stdout: """
            juliet@capulet.lit/balcony\tLady, by yonder blessed moon I swear
            juliet@capulet.lit/balcony\tI'll send thee word from Mantua.

            """, status: 0)
        try assertStanzaq(["--json", "--where", "/message<from~^romeo@>", "-e", "to=/@to", "-e", "body=body#", "capture.xml"], stdout: """
            {"to":"juliet@capulet.lit/balcony","body":"Lady, by yonder blessed moon I swear"}
            {"to":"juliet@capulet.lit/balcony","body":"I'll send thee word from Mantua."}

            """, status: 0)
        // Every --where must have a result.
        try assertStanzaq(["--where", "/message<type=chat>", "--where", "/<from~^romeo@>", "body#", "capture.xml"], stdout: """
            Lady, by yonder blessed moon I swear
            I'll send thee word from Mantua.

            """, status: 0)
        try assertStanzaq(["--where", "/iq", "body#", "capture.xml"], stdout: "", status: 1)
    }

    func testWhereWithCountInvertListAndStanzas() throws {
        try assertStanzaq(["-c", "--where", "/message<type=chat>", "body#", "capture.xml"], stdout: "4\n", status: 0)
        // -v inverts the queries among the stanzas selected, not --where.
        try assertStanzaq(["-c", "-v", "--where", "/message", "{urn:xmpp:delay}delay", "capture.xml"], stdout: "5\n", status: 0)
        try assertStanzaq(["-l", "--where", "/iq<type=error>", "/", "capture.xml", "message-delay.xml", "upload-error.log"],
                          stdout: "capture.xml\nupload-error.log\n", status: 0)
        try assertStanzaq(["-s", "-n", "--where", "/<type=error>", "/message", "capture.xml"], stdout: """
            15:<message xmlns='jabber:client' from='tybalt@capulet.lit' to='juliet@capulet.lit/balcony' type='error' id='b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f'>
            15:  <body>Where is Tybalt?</body>
            15:  <error type='cancel'>
            15:    <item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
            15:  </error>
            15:</message>

            """, status: 0)
        // --pair: the request of the error selected is printed as its partner.
        try assertStanzaq(["-s", "-n", "--pair", "--where", "/iq<type=error>", "/", "upload-error.log"], stdout: """
            5-<iq xmlns='jabber:client' type='get' id='slot1' to='upload.montague.lit'><request xmlns='urn:xmpp:http:upload:0' \
            filename='balcony.jpg' size='23456789' content-type='image/jpeg'/></iq>
            8:<iq xmlns='jabber:client' type='error' id='slot1' from='upload.montague.lit' to='juliet@montague.lit/balcony'>\
            <error type='modify'><not-acceptable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>\
            <text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>File too large. The maximum file size is 10485760 bytes</text>\
            <file-too-large xmlns='urn:xmpp:http:upload:0'><max-file-size>10485760</max-file-size></file-too-large></error></iq>

            """, status: 0)
    }

    func testWhereWithEachSelectsElements() throws {
        try assertStanzaq(["--each", "{jabber:iq:roster}query/item", "--where", "/<subscription=both>", "-e", "@jid", "capture.xml"],
                          stdout: "romeo@montague.lit\nnurse@capulet.lit\n", status: 0)
    }

    func testWhereTakesFormatArgumentsAfterEachAndBeforeTheQueries() throws {
        try assertStanzaq(["--where", "/<type=%@>", "-a", "chat", "-c", "/message<from~%@>", "-a", "romeo", "capture.xml"],
                          stdout: "2\n", status: 0)
    }

    func testAnErrorInWhereIsAQueryError() throws {
        try assertStanzaq(["--where", "/message<from~(>", "body#", "capture.xml"], stdout: "", stderr: """
            stanzaq: error: query: invalid regular expression '(' at column 15
              /message<from~(>
                            ^

            """, status: 2)
    }

    // MARK: Counting by value

    func testCountWithSeveralColumnsCountsEachDistinctRow() throws {
        try assertStanzaq(["-c", "--fields", "direction", "-e", "/$", "-e", "/@type", "logs/prosody.log"], stdout: """
            1\tout\tfeatures\t
            1\tin\tiq\tset
            1\tout\tiq\tresult
            1\tin\tmessage\tchat
            1\tout\tmessage\tchat
            1\tin\tpresence\t

            """, status: 0)
        try assertStanzaq(["-c", "-e", "/$", "-e", "/@type", "--where", "/iq", "capture.xml"],
                          stdout: "3\tiq\tresult\n2\tiq\tget\n1\tiq\terror\n", status: 0)
        // A named column, or --fields, makes a table of one query too.
        try assertStanzaq(["-c", "-e", "type=/iq@type", "capture.xml"], stdout: "3\tresult\n2\tget\n1\terror\n", status: 0)
        try assertStanzaq(["-c", "--fields", "direction", "/{jabber:client}message$", "logs/prosody.log"],
                          stdout: "1\tin\tmessage\n1\tout\tmessage\n", status: 0)
        // One query, or -v: the stanzas, as ever.
        try assertStanzaq(["-c", "/iq@type", "capture.xml"], stdout: "6\n", status: 0)
        try assertStanzaq(["-c", "-v", "-e", "/iq", "-e", "/message", "capture.xml"], stdout: "6\n", status: 0)
        // No row: nothing, as `sort | uniq -c` prints nothing.
        try assertStanzaq(["-c", "-e", "/nothing$", "-e", "/@nothing", "capture.xml"], stdout: "", status: 1)
    }

    func testCountByValueWithEachCountsElements() throws {
        // A named column makes a table: a row per roster item.
        try assertStanzaq(["-c", "--each", "{jabber:iq:roster}query/item", "-e", "sub=@subscription", "capture.xml"],
                          stdout: "2\tboth\n1\tto\n1\tnone\n", status: 0)
        // One unnamed query: the stanzas, as ever.
        try assertStanzaq(["-c", "--each", "{jabber:iq:roster}query/item", "-e", "@subscription", "capture.xml"],
                          stdout: "1\n", status: 0)
    }

    func testCountByValuePerInputAndInJSON() throws {
        try assertStanzaq(["-c", "-H", "-e", "type=/iq@type", "capture.xml", "upload-error.log"], stdout: """
            capture.xml:3\tresult
            capture.xml:2\tget
            capture.xml:1\terror
            upload-error.log:4\tget
            upload-error.log:3\tresult
            upload-error.log:1\terror

            """, status: 0)
        try assertStanzaq(["--json", "-c", "-e", "name=/$", "-e", "type=/@type", "--where", "/iq", "capture.xml"], stdout: """
            {"count":3,"name":"iq","type":"result"}
            {"count":2,"name":"iq","type":"get"}
            {"count":1,"name":"iq","type":"error"}

            """, status: 0)
        try assertStanzaq(["--json", "-c", "-H", "-e", "/$", "-e", "/@type", "--where", "/iq", "upload-error.log"], stdout: """
            {"file":"upload-error.log","count":4,"value":["iq","get"]}
            {"file":"upload-error.log","count":3,"value":["iq","result"]}
            {"file":"upload-error.log","count":1,"value":["iq","error"]}

            """, status: 0)
        try assertStanzaq(["--json", "--fields", "direction", "-c", "/{jabber:client}message$", "logs/prosody.log"], stdout: """
            {"count":1,"direction":"in","value":"message"}
            {"count":1,"direction":"out","value":"message"}

            """, status: 0)
        try assertStanzaq(["--json", "-c", "-e", "count=/$", "-e", "type=/@type", "capture.xml"], stdout: "", stderr: """
            stanzaq: error: the column name 'count' is the key of -c's counts: choose another
            Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)

            """, status: 2)
    }

    // MARK: Prefixes that split

    func testEveryLineCarriesItsPrefixesAndSplitsAtTabs() throws {
        // A time holds colons, and a body newlines: fields are columns ending in a
        // tab, on every line of the value.
        try assertStanzaq(["--fields", "time,direction", "body#", "logs/prosody-syslog.log"], stdout: """
            Nov 23 09:30:14\tin\tArt thou not Romeo,
            Nov 23 09:30:14\tin\tand a Montague?
            Nov 23 09:30:14\tout\tArt thou not Romeo,
            Nov 23 09:30:14\tout\tand a Montague?

            """, status: 0)
        // grep's prefixes stay prefixes, the line number among them.
        try assertStanzaq(["-H", "-n", "--fields", "time,line,session", "body#", "logs/prosody-syslog.log"], stdout: """
            logs/prosody-syslog.log:4:11:Nov 23 09:30:14\tc2s55e8a7f1c3a0\tArt thou not Romeo,
            logs/prosody-syslog.log:4:11:Nov 23 09:30:14\tc2s55e8a7f1c3a0\tand a Montague?
            logs/prosody-syslog.log:5:14:Nov 23 09:30:14\tc2s7f3b2c0d9e11\tArt thou not Romeo,
            logs/prosody-syslog.log:5:14:Nov 23 09:30:14\tc2s7f3b2c0d9e11\tand a Montague?

            """, status: 0)
    }

    func testAFieldValueIsEscapedAsInTSV() throws {
        // An archive row's column holding a tab and a newline stays in its column.
        let row = #"{"with":"a\tb\nc","stanza":"<message xmlns='jabber:client' id='m1'><body>x\ny</body></message>"}"#
        try assertStanzaq(["--log=json", "--fields", "with", "body#"], stdin: row + "\n", stdout: "a\\tb\\nc\tx\na\\tb\\nc\ty\n", status: 0)
    }

    // MARK: Anywhere in a stanza

    func testAnywhereIncludesTheStanzaItself() throws {
        // `**/<…>` tests the children of what `**` reaches: never the stanza.
        try assertStanzaq(["-c", "**/<to~juliet>", "capture.xml"], stdout: "0\n", status: 1)
        try assertStanzaq(["-c", "**<to~juliet>", "capture.xml"], stdout: "11\n", status: 0)
        try assertStanzaq(["-n", "**<*~tybalt>$", "capture.xml"], stdout: "4:item\n15:message\n", status: 0)
        try assertStanzaq(["-n", "-e", "**<*~tybalt>$", "-e", "**<#~tybalt>$", "capture.xml"],
                          stdout: "4:item\t\n15:message\tbody\n", status: 0)
        try assertStanzaq(["**to<to~juliet>", "capture.xml"], stdout: "", stderr: """
            stanzaq: error: query: '**' takes no name or namespace: for such elements at any depth write **/to; \
            to filter every element, the context node included, **<…> at column 1
              **to<to~juliet>
              ^

            """, status: 2)
    }
}
