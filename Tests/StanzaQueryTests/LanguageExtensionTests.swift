import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// Compile options (`QueryOptions`: case-sensitive filters, Monal's language
/// only), the marking of extensions, and the hints for queries written in XPath.
final class LanguageExtensionTests: XCTestCase {

    // MARK: Case-sensitive filters

    func testCaseSensitiveEqualsAndMatches() throws {
        let s = stanza("<r><a id='AbC' n='1'/><a id='abc' n='2'/><a id='ABC' n='3'/></r>")
        let exact = QueryOptions(caseSensitive: true)
        XCTAssertEqual(texts("a<id=abc>@n", in: s), ["1", "2", "3"])
        XCTAssertEqual(try Query("a<id=abc>@n", options: exact).find(in: s), [.string("2")])
        XCTAssertEqual(try Query("a<id~^A>@n", options: exact).find(in: s), [.string("1"), .string("3")])
        XCTAssertEqual(try Query("a<id~(?i)^abc$>@n", options: exact).find(in: s).count, 3)
        XCTAssertEqual(try Query("a<id=%@>@n", arguments: ["ABC"], options: exact).find(in: s), [.string("3")])
        XCTAssertEqual(try Query("a<id~^%@$>@n", arguments: ["ABC"], options: exact).find(in: s), [.string("3")])
    }

    func testCaseSensitiveComparesScalarsAsICUDoes() throws {
        // "é" as one scalar and as "e" with a combining accent are canonically
        // equivalent (Swift's ==) but not the same text for ICU or for Monal.
        let s = stanza("<r><a v='caf\u{E9}' n='1'/><a v='cafe\u{301}' n='2'/></r>")
        XCTAssertEqual(try Query("a<v=caf\u{E9}>@n", options: QueryOptions(caseSensitive: true)).find(in: s), [.string("1")])
        XCTAssertEqual(try Query("a<v=cafe\u{301}>@n", options: QueryOptions(caseSensitive: true)).find(in: s), [.string("2")])
        XCTAssertEqual(texts("a<v=caf\u{E9}>@n", in: s), ["1"])
    }

    func testCaseSensitiveLeavesDataFormsAlone() throws {
        let s = stanza("<iq><x xmlns='jabber:x:data' type='result'><field var='Max'><value>5</value></field></x></iq>")
        XCTAssertEqual(try Query(#"\result@max\"#, options: QueryOptions(caseSensitive: true)).find(in: s), [.string("5")])
    }

    func testCaseSensitiveExplained() throws {
        XCTAssertEqual(try QuerySyntax(parsing: "a<id=x><v~y>").explanation(options: QueryOptions(caseSensitive: true)), """
            query: a<id=x><v~y>
            start: the children of the context node
            1. select: elements named 'a' in the parent's namespace
               where 'id' equals 'x', case included
               where 'v' matches the regular expression 'y', case included
            result: the selected elements
            """)
    }

    // MARK: Monal's language only

    private let monal = QueryOptions(extensions: false)

    private func monalError(_ query: String, _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try Query(query, arguments: arguments, options: monal)
            XCTFail("\(query) compiled with extensions off", file: file, line: line)
            return ""
        } catch {
            return error.description
        }
    }

    func testEveryExtensionIsRejectedByName() {
        XCTAssertEqual(monalError("**/body#"), """
            query: Monal's language has no '**' (any depth, a stanzaq extension) at column 1
              **/body#
              ^
            """)
        XCTAssertEqual(monalError("{urn:xmpp:mam:2}result/**/{jabber:client}body#"), """
            query: Monal's language has no '**' (any depth, a stanzaq extension) at column 24
              {urn:xmpp:mam:2}result/**/{jabber:client}body#
                                     ^
            """)
        XCTAssertEqual(monalError("body<#=Where is Tybalt?>"), """
            query: Monal's language has no text filter '<#=…>' (a stanzaq extension) at column 5
              body<#=Where is Tybalt?>
                  ^
            """)
        XCTAssertEqual(monalError("body<#~tybalt>"), """
            query: Monal's language has no text filter '<#~…>' (a stanzaq extension) at column 5
              body<#~tybalt>
                  ^
            """)
        XCTAssertEqual(monalError("/<from~^%@(/|$)>", ["romeo@montague.lit"]), """
            query: Monal's language fills no '%@' in a regular expression (a stanzaq extension) at column 9
              /<from~^%@(/|$)>
                      ^
            """)
        XCTAssertEqual(monalError("/<from~^%s>", ["x"]), """
            query: Monal's language fills no '%s' in a regular expression (a stanzaq extension) at column 9
              /<from~^%s>
                      ^
            """)
        // Found before the arguments are bound: the message names the extension, not the argument count.
        XCTAssertEqual(monalError("/<from~^%@>").components(separatedBy: "\n")[0],
                       "query: Monal's language fills no '%@' in a regular expression (a stanzaq extension) at column 9")
    }

    func testExtensionsAreListedInOrder() throws {
        let used = try QuerySyntax(parsing: "**/a<#=x>/b<c~%@><#~y>").extensionsUsed
        XCTAssertEqual(used.map(\.column), [1, 5, 15, 18])
        XCTAssertEqual(try QuerySyntax(parsing: "a<b=%@><c~%d>/..").extensionsUsed, [])
    }

    /// Every query of Monal's reference document (its examples, the "queries as
    /// found in our codebase", and those in its text) compiles with extensions off.
    func testEveryQueryOfMonalsReferenceIsAccepted() throws {
        let queries: [(String, [String])] = [
            ("body#", []),
            ("/@id", []),
            ("{urn:ietf:params:xml:ns:xmpp-streams}!text$", []),
            ("/<type=result>/{http://jabber.org/protocol/pubsub}pubsub/subscription<node=%@><jid=%@>@subscription",
             ["eu.siacs.conversations.axolotl.devicelist", "juliet@capulet.lit"]),
            ("{urn:xmpp:mam:2}fin@complete|bool", []),
            ("{urn:xmpp:delay}delay@stamp|datetime", []),
            ("{urn:xmpp:jingle:1}jingle<action~^session-(initiate|accept)$>", []),
            ("error/{urn:ietf:params:xml:ns:xmpp-stanzas}item-not-found", []),
            ("{urn:xmpp:avatar:metadata}metadata/info", []),
            ("{urn:xmpp:avatar:data}data#|base64", []),
            (#"{http://jabber.org/protocol/disco#info}query/\\{urn:xmpp:http:upload:0}result@max-file-size\\|int"#, []),
            (#"{http://jabber.org/protocol/disco#info}query/\\{http://jabber.org/protocol/muc#roominfo}result@muc#roomconfig_roomname\\"#, []),
            (#"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\\[0]@expire\\|datetime"#, []),
            (#"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\\@expire\\|datetime"#, []),
            (#"\\result[0]@expire\\"#, []),
            (#"\\[0]@expire\\"#, []),
            ("/{jabber:client}iq/{http://jabber.org/protocol/pubsub}pubsub/items/../../../@type", []),
            ("/@h|int", []),
            ("/@autojoin|bool", []),
            ("!text", []),
            ("{*}*", []),
            ("a<attributeName~^.*$>", []),
            ("a<attributeName~.>", []),
            ("a<attributeName~^.$>", []),
        ]
        for (query, arguments) in queries {
            XCTAssertNoThrow(try Query(query, arguments: arguments, options: monal), query)
            XCTAssertEqual(try QuerySyntax(parsing: query).extensionsUsed, [], query)
        }
    }

    // MARK: Explain

    func testExtensionsAreMarkedInTheExplanation() throws {
        XCTAssertEqual(try QuerySyntax(parsing: "{urn:xmpp:mam:2}result/**/{jabber:client}body<#~tybalt>#").explanation, """
            query: {urn:xmpp:mam:2}result/**/{jabber:client}body<#~tybalt>#
            start: the children of the context node
            1. select: elements named 'result' in namespace 'urn:xmpp:mam:2'
            2. any depth: the nodes reached so far and all their descendants, each once, in document order (stanzaq extension)
            3. select: elements named 'body' in namespace 'jabber:client'
               where the text matches the regular expression 'tybalt', ignoring case (stanzaq extension)
            extract: the text
            """)
        XCTAssertEqual(try QuerySyntax(parsing: "body<#=%@>").explanation, """
            query: body<#=%@>
            start: the children of the context node
            1. select: elements named 'body' in the parent's namespace
               where the text equals '%@', ignoring case (format arguments filled in; stanzaq extension)
            result: the selected elements
            """)
    }

    func testXPathLikeDoubleSlashIsExplained() throws {
        // Valid (a rooted empty segment, as in Prosody), so no error: the outline says what it means.
        XCTAssertEqual(try QuerySyntax(parsing: "//message/body").explanation, """
            query: //message/body
            start: the context node itself (rooted query)
            note: this '//' is an empty segment (the context node itself), not XPath's '//': any depth is written '**/'
            1. select: the context node, if it is any element in any namespace
            2. select: elements named 'message' in the parent's namespace
            3. select: elements named 'body' in the parent's namespace
            result: the selected elements
            """)
    }

    // MARK: Hints for XPath

    private func hint(_ query: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try QuerySyntax(parsing: query)
            XCTFail("\(query) parsed", file: file, line: line)
            return nil
        } catch {
            return error.hint
        }
    }

    func testXPathGetsItsStanzaqForm() {
        XCTAssertEqual(syntaxError(#"//message[@type="chat"]/body"#), #"""
            query: unexpected '[': expected '/', '<', an extraction (@ @@ # $ \…\), a conversion (|…) or the end at column 10
              //message[@type="chat"]/body
                       ^
              hint: this looks like XPath; in stanzaq's language: /message<type=chat>/body (the stanza itself), or **/message<type=chat>/body (below it, at any depth)
            """#)
        let prefix = "this looks like XPath; in stanzaq's language: "
        XCTAssertEqual(hint("body/text()"), prefix + "body#")
        XCTAssertEqual(hint("/message[@type='chat']/body/text()"), prefix + "/message<type=chat>/body#")
        XCTAssertEqual(hint("message[@type='chat'][@id]/@from"), prefix + "message<type=chat><id~^>@from")
        XCTAssertEqual(hint("//body[contains(text(), 'Tybalt?')]"),
                       prefix + "/body<#~Tybalt\\?> (the stanza itself), or **/body<#~Tybalt\\?> (below it, at any depth)")
        XCTAssertEqual(hint("//*[starts-with(@from, 'romeo@')]/name()"),
                       prefix + "/*<from~^romeo@>$ (the stanza itself), or **/*<from~^romeo@>$ (below it, at any depth)")
        XCTAssertEqual(hint("/message//body[.='hi' and @xml:lang='en']"), prefix + "/message/**/body<#=hi><xml:lang=en>")
        XCTAssertEqual(hint("//body[@id]/@*"), prefix + "/body<id~^>@@ (the stanza itself), or **/body<id~^>@@ (below it, at any depth)")
    }

    func testXPathWithoutAStanzaqFormGetsTheGeneralHint() {
        let general = "this looks like XPath, which stanzaq does not read: write **/ for //, <a=v> for [@a='v'], "
            + "<#=v> for [text()='v'], # for /text() (stanzaq-query(7))"
        XCTAssertEqual(hint("//message[1]/body"), general)
        XCTAssertEqual(hint("//c:message[@type='chat']"), general)
        XCTAssertEqual(hint("body/child::text()"), general)
        XCTAssertEqual(hint("message[@type='a>b']"), general)
        XCTAssertEqual(hint("message[@type=\"chat\" or @type='normal']"), general)
    }

    func testOtherErrorsGetNoHint() {
        XCTAssertNil(hint("{urn:x}item<node=a"))
        XCTAssertNil(hint("a b"))
        XCTAssertNil(hint("a|Bool"))
        XCTAssertEqual(syntaxError("a b"), """
            query: unexpected ' ': expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end at column 2
              a b
               ^
            """)
    }
}
