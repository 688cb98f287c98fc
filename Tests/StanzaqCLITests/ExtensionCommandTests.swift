import Foundation
import StanzaqTestSupport
import XCTest

/// The language extensions on the command line (stanzaq-query(7), EXTENSIONS;
/// stanzaq(1), --case-sensitive, --monal): exact output, text and JSON.
final class ExtensionCommandTests: CLITestCase {

    private func queryError(_ message: String, _ query: String, column: Int, hint: String? = nil) -> String {
        "stanzaq: error: query: \(message) at column \(column)\n  \(query)\n  "
            + String(repeating: " ", count: column - 1) + "^\n" + (hint.map { "  hint: \($0)\n" } ?? "")
    }

    // MARK: **

    func testAnyDepthOnAnArchivePage() throws {
        try assertStanzaq(["body#", "mam-page.xml"], stdout: "", status: 1)
        try assertStanzaq(["-n", "**/body#", "mam-page.xml"], stdout: """
            1:Call me but love, and I'll be new baptized; Henceforth I never will be Romeo.
            2:What man art thou that thus bescreen'd in night so stumblest on my counsel?
            3:By a name I know not how to tell thee who I am.

            """, status: 0)
        try assertStanzaq(["-n", "--json", "{urn:xmpp:mam:2}result/**/{jabber:client}message@from", "mam-page.xml"], stdout: """
            {"stanza":1,"value":"romeo@montague.lit/orchard"}
            {"stanza":2,"value":"juliet@capulet.lit/balcony"}
            {"stanza":3,"value":"romeo@montague.lit/orchard"}

            """, status: 0)
        // The segment after ** needs its parent's namespace: the forwarded message is below urn:xmpp:forward:0.
        try assertStanzaq(["-c", "**/message", "mam-page.xml"], stdout: "0\n", stderr: """
            stanzaq: hint: no result for '**/message'; '**/{jabber:client}message' has some (a name without {…} is looked for in its parent's namespace)

            """, status: 1)
        try assertStanzaq(["-c", "**/{jabber:client}message", "mam-page.xml"], stdout: "3\n", status: 0)
        // Several queries, one row per stanza.
        try assertStanzaq(["-e", "/@id", "-e", "**/{urn:xmpp:delay}delay@stamp|datetime", "-e", "**/{jabber:client}message@type",
                           "mam-page.xml"], stdout: """
            aeb213	2010-07-10T23:08:25Z	chat
            aeb214	2010-07-10T23:09:32.123Z	chat
            aeb215	2010-07-10T23:11:04Z	chat
            juliet1		

            """, status: 0)
    }

    func testAnyDepthWithParentAndSelect() throws {
        try assertStanzaq(["-n", "**/{jabber:client}body<#~baptized>/../..$", "mam-page.xml"], stdout: "1:forwarded\n", status: 0)
        try assertStanzaq(["-s", "**/{http://jabber.org/protocol/rsm}last", "mam-page.xml"], stdout: """
            <iq xmlns='jabber:client' type='result' id='juliet1'>
              <fin xmlns='urn:xmpp:mam:2' complete='true'>
                <set xmlns='http://jabber.org/protocol/rsm'>
                  <first index='0'>28482-98726-73623</first>
                  <last>09af3-cc343-b409f</last>
                </set>
              </fin>
            </iq>

            """, status: 0)
        try assertStanzaq(["**/..", "mam-page.xml"], stdout: "", stderr: """
            mam-page.xml:stanza 1: query '**/..': '..' at column 4 climbs above <message>, the root of the stanza
            mam-page.xml:stanza 2: query '**/..': '..' at column 4 climbs above <message>, the root of the stanza
            mam-page.xml:stanza 3: query '**/..': '..' at column 4 climbs above <message>, the root of the stanza
            mam-page.xml:stanza 4: query '**/..': '..' at column 4 climbs above <iq>, the root of the stanza

            """, status: 2)
    }

    func testAnyDepthAndDataForms() throws {
        try assertStanzaq(["**/\\{urn:xmpp:http:upload:0}result@max-file-size\\|int", "http-upload-disco.xml"],
                          stdout: "5242880\n", status: 0)
        try assertStanzaq(["--json", "**/\\%muc#roominfo_contactjid\\", "muc-disco-info.xml"], stdout: """
            {"name":"muc#roominfo_contactjid","type":"jid-multi","value":"juliet@capulet.lit","values":["juliet@capulet.lit","romeo@montague.lit"],"options":{},"required":false}

            """, status: 0)
    }

    // MARK: Text filters

    func testTextFilters() throws {
        try assertStanzaq(["-n", "/{jabber:client}message/body<#~tybalt>/..@id", "capture.xml"],
                          stdout: "15:b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f\n", status: 0)
        try assertStanzaq(["--json", "**/{jabber:client}body<#=WHERE IS TYBALT?>#", "capture.xml"],
                          stdout: "\"Where is Tybalt?\"\n", status: 0)
        try assertStanzaq(["-a", "where is tybalt?", "-c", "body<#=%@>", "capture.xml"], stdout: "1\n", status: 0)
        try assertStanzaq(["-c", "--case-sensitive", "body<#=where is tybalt?>", "capture.xml"], stdout: "0\n", status: 1)
    }

    // MARK: %@ in a regular expression

    func testArgumentInARegularExpressionIsLiteral() throws {
        let presences = "<presence from='romeo@montague.lit/a'/><presence from='romeo@montague.lit'/>"
            + "<presence from='romeo@montague.lit.evil/b'/><presence from='romeoXmontague.lit/c'/>"
        try assertStanzaq(["-a", "romeo@montague.lit", "/<from~^%@(/|$)>@from"], stdin: presences,
                          stdout: "romeo@montague.lit/a\nromeo@montague.lit\n", status: 0)
        try assertStanzaq(["-a", "romeo@montague.lit", "-n", "--json", "/<from~^%s$>@from"], stdin: presences, stdout: """
            {"stanza":2,"value":"romeo@montague.lit"}

            """, status: 0)
        try assertStanzaq(["/<from~^%@>"], stdin: presences, stdout: "",
                          stderr: queryError("format specifier %@ has no argument (0 given; add -a VALUE)", "/<from~^%@>", column: 9),
                          status: 2)
    }

    // MARK: --case-sensitive

    func testCaseSensitive() throws {
        try assertStanzaq(["-c", "/<id=AEB213>", "mam-page.xml"], stdout: "1\n", status: 0)
        try assertStanzaq(["-c", "--case-sensitive", "/<id=AEB213>", "mam-page.xml"], stdout: "0\n", status: 1)
        try assertStanzaq(["-c", "--case-sensitive", "/<id=aeb213>", "mam-page.xml"], stdout: "1\n", status: 0)
        try assertStanzaq(["--case-sensitive", "**/{jabber:client}message<id~^[0-9A-F-]+$>@id", "mam-page.xml"], stdout: """
            162BEBB1-F6DB-4D9A-9BD8-CFDCC801A0B2
            0E5F7A1C-93B2-4C8D-A1E6-7B9D2F4C6A03

            """, status: 0)
        try assertStanzaq(["--explain", "--case-sensitive", "/<id=aeb213>"], stdout: """
            query: /<id=aeb213>
            start: the context node itself (rooted query)
            1. select: the context node, if it is any element in any namespace
               where 'id' equals 'aeb213', case included
            result: the selected elements

            """, status: 0)
    }

    // MARK: --monal

    func testMonalRejectsEachExtensionByName() throws {
        let cases: [(arguments: [String], query: String, message: String, column: Int)] = [
            ([], "**/body#", "Monal's language has no '**' (any depth, a stanzaq extension)", 1),
            ([], "{urn:xmpp:mam:2}result/**/{jabber:client}body#", "Monal's language has no '**' (any depth, a stanzaq extension)", 24),
            ([], "body<#=Where is Tybalt?>", "Monal's language has no text filter '<#=…>' (a stanzaq extension)", 5),
            ([], "body<#~tybalt>", "Monal's language has no text filter '<#~…>' (a stanzaq extension)", 5),
            (["-a", "romeo@montague.lit"], "/<from~^%@(/|$)>", "Monal's language fills no '%@' in a regular expression (a stanzaq extension)", 9),
        ]
        for (arguments, query, message, column) in cases {
            // Before any input is read (the file does not exist), with and without --explain.
            try assertStanzaq(["--monal"] + arguments + [query, "no-such-file.xml"], stdout: "",
                              stderr: queryError(message, query, column: column), status: 2)
            try assertStanzaq(["--monal", "--explain"] + arguments + [query], stdout: "",
                              stderr: queryError(message, query, column: column), status: 2)
        }
        try assertStanzaq(["--monal", "-e", "/@id", "-e", "**/body#", "mam-page.xml"], stdout: "",
                          stderr: queryError("Monal's language has no '**' (any depth, a stanzaq extension)", "**/body#", column: 1),
                          status: 2)
        try assertStanzaq(["--monal", "--case-sensitive", "/@id", "mam-page.xml"], stdout: "", stderr: """
            stanzaq: error: --case-sensitive is a stanzaq extension, which --monal rejects (Monal's '=' and '~' ignore case)
            Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)

            """, status: 2)
    }

    /// Every example of Monal's reference document, as stanzaq-query(7) runs them, with --monal.
    func testMonalAcceptsTheReferenceExamples() throws {
        let examples: [(arguments: [String], file: String, output: String)] = [
            (["--first", "{urn:ietf:params:xml:ns:xmpp-streams}!text$"], "stream-error.xml", "not-well-formed\n"),
            (["--first", "-a", "eu.siacs.conversations.axolotl.devicelist", "-a", "juliet@capulet.lit",
              "/<type=result>/{http://jabber.org/protocol/pubsub}pubsub/subscription<node=%@><jid=%@>@subscription"],
             "pubsub-subscription.xml", "subscribed\n"),
            (["--first", "{urn:xmpp:mam:2}fin@complete|bool"], "mam-fin.xml", "true\n"),
            (["--first", "{urn:xmpp:delay}delay@stamp|datetime"], "message-delay.xml", "2002-09-10T23:08:25Z\n"),
            (["--first", "/@id"], "message-delay.xml", "5bd3c1f0-6e3b-4f8a-9d6e-2f1c7a4b8e90\n"),
            (["--first", #"{http://jabber.org/protocol/disco#info}query/\\{urn:xmpp:http:upload:0}result@max-file-size\\|int"#],
             "http-upload-disco.xml", "5242880\n"),
            (["-c", "{urn:xmpp:jingle:1}jingle<action~^session-(initiate|accept)$>"], "jingle-initiate.xml", "2\n"),
            (["-c", "error/{urn:ietf:params:xml:ns:xmpp-stanzas}item-not-found"], "capture.xml", "1\n"),
            (["{http://jabber.org/protocol/pubsub#event}event/items/item/{urn:xmpp:avatar:metadata}metadata/info@bytes"],
             "avatar-metadata.xml", "127\n"),
            (["-c", "{http://jabber.org/protocol/pubsub#event}event/items/item/{urn:xmpp:avatar:data}data#|base64"],
             "avatar-data.xml", "1\n"),
            ([#"{http://jabber.org/protocol/disco#info}query/\\{http://jabber.org/protocol/muc#roominfo}result@muc#roomconfig_roomname\\"#],
             "muc-disco-info.xml", "The Coffee Room\n"),
            ([#"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\\@expire\\|datetime"#],
             "adhoc-invite.xml", "2024-09-20T12:00:00Z\n"),
        ]
        for (arguments, file, output) in examples {
            try assertStanzaq(["--monal"] + arguments + [file], stdout: output, status: 0)
        }
        try assertStanzaq(["--monal", "body#"], stdin: """
            <message from='juliet@capulet.lit' id='some_id' xmlns='jabber:client'><body>Message text</body>\
            <body xmlns='urn:some:different:namespace'>This will NOT be used</body></message>
            """, stdout: "Message text\n", status: 0)
        try assertStanzaq(["--monal", "-c", #"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\\[0]@expire\\|datetime"#,
                           "adhoc-invite.xml"], stdout: "0\n", status: 1)
    }

    // MARK: Hints and --explain

    func testXPathHints() throws {
        try assertStanzaq(["//message[@type=\"chat\"]/body", "mam-page.xml"], stdout: "", stderr: queryError(
            "unexpected '[': expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end", "//message[@type=\"chat\"]/body",
            column: 10,
            hint: "this looks like XPath; in stanzaq's language: /message<type=chat>/body (the stanza itself), "
                + "or **/message<type=chat>/body (below it, at any depth)"), status: 2)
        try assertStanzaq(["message[@type='chat']/body/text()", "mam-page.xml"], stdout: "", stderr: queryError(
            "unexpected '[': expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end", "message[@type='chat']/body/text()",
            column: 8, hint: "this looks like XPath; in stanzaq's language: message<type=chat>/body#"), status: 2)
        // The hint's form works.
        try assertStanzaq(["**/{jabber:client}message<type=chat>/body#", "mam-page.xml"], stdout: """
            Call me but love, and I'll be new baptized; Henceforth I never will be Romeo.
            What man art thou that thus bescreen'd in night so stumblest on my counsel?
            By a name I know not how to tell thee who I am.

            """, status: 0)
    }

    func testExplainMarksExtensions() throws {
        try assertStanzaq(["--explain", "-a", "romeo@montague.lit", "**/{jabber:client}message<from~^%@(/|$)>/body<#~love>#"], stdout: """
            query: **/{jabber:client}message<from~^%@(/|$)>/body<#~love>#
            start: the children of the context node
            1. any depth: the nodes reached so far and all their descendants, each once, in document order (stanzaq extension)
            2. select: elements named 'message' in namespace 'jabber:client'
               where 'from' matches the regular expression '^%@(/|$)', ignoring case (format arguments filled in as literal text: stanzaq extension)
            3. select: elements named 'body' in the parent's namespace
               where the text matches the regular expression 'love', ignoring case (stanzaq extension)
            extract: the text

            """, status: 0)
    }
}
