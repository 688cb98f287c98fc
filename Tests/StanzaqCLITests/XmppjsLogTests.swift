import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `xmppjs`: xmpp.js's `@xmpp/debug` output, `IN` or `OUT`
/// alone on a line and then the element as ltx's `stringify(element, 2)`
/// writes it (xmppjs/xmpp.js packages/debug/index.js, `debug()`; xmppjs/ltx
/// src/stringify.js): the text of an element with only text is written as it
/// is, `<` and `&` unescaped, over as many lines as it has.
final class XmppjsLogTests: CLITestCase {
    /// The sample: both directions, no time, no session; the `status` lines are text.
    func testTheSampleInBothDirections() throws {
        let expected = """
            6\tin\tfeatures\t
            13\tout\tauth\t
            17\tin\tsuccess\t
            21\tin\tfeatures\t
            30\tout\tiq\tkp3a9z2xw1
            36\tin\tiq\tkp3a9z2xw1
            43\tout\tiq\tf81hq0vd5e
            47\tin\tiq\tf81hq0vd5e
            55\tout\tpresence\t
            57\tin\tpresence\t
            62\tin\tmessage\t5a55dac8
            68\tout\tmessage\tt9c0mz7r4q
            74\tout\tpresence\t

            """
        for format in [[], ["--log"], ["--log=xmppjs"]] {
            try assertStanzaq(format + ["--fields", "line,direction", "-e", "/$", "-e", "/@id", "logs/xmppjs.log"],
                              stdout: expected, status: 0)
        }
        // No stream header is logged: the stanzas are in jabber:client, the features in the stream's namespace.
        try assertStanzaq(["-c", "/{jabber:client}message", "logs/xmppjs.log"], stdout: "2\n", status: 0)
        try assertStanzaq(["-c", "/{http://etherx.jabber.org/streams}features", "logs/xmppjs.log"], stdout: "2\n", status: 0)
        try assertStanzaq(["{urn:ietf:params:xml:ns:xmpp-bind}bind/jid#", "logs/xmppjs.log"],
                          stdout: "juliet@capulet.lit/balcony\n", status: 0)
    }

    /// A body's text is unescaped and goes on over lines; escaped attribute values stay escaped.
    func testTextWrittenAsItIs() throws {
        try assertStanzaq(["--fields", "line,direction", "-e", "body#", "-e", "{jabber:iq:roster}query/item@name",
                           "logs/xmppjs.log"], stdout: """
            47\tin\t\tRomeo & his <lantern>
            62\tin\tLady, by yonder <b>blessed</b> moon I swear\\nThat tips with silver all these fruit-tree tops & the wall.\t
            68\tout\tO, swear not by the moon, the inconstant moon,\\nThat monthly changes in her circled orb,\\nLest that thy love prove likewise variable. <3\t

            """, status: 0)
    }

    /// A line `IN`, a line `</message>` or a tag inside a text that goes on is
    /// text: the text ends at the `</body>` that ends a line. An element with
    /// only an empty text is `<name></name>`; text among elements is escaped
    /// (written so by ltx), here with the line break before it.
    func testLinesInsideText() throws {
        let log = """
            OUT
            <message id="m1">
              <body>IN
            </message>
            <x/> & </body> not yet
            OUT</body>
              <subject></subject>
            </message>
            IN
            <message id="m2">
              <p xmlns="urn:example:mixed">
                one &amp;\u{20}
                <b>two</b>
              </p>
            </message>

            """
        try assertStanzaq(["--fields", "line,direction", "-e", "/@id", "-e", "body#", "-e", "subject#", "-e", "{urn:example:mixed}p#"],
                          stdin: log, stdout: """
            2\tout\tm1\tIN\\n</message>\\n<x/> & </body> not yet\\nOUT\t\t
            10\tin\tm2\t\t\t\\none &\u{20}

            """, status: 0)
    }

    /// SASL's secrets are replaced by `<hidden xmlns="xmpp.js"/>`; the
    /// `status` lines (the stream's header among them) are no stanza.
    func testHiddenSecretsAndStatusLines() throws {
        let log = """
            status connecting xmpp://capulet.lit:5222
            status open <stream:stream xmlns="jabber:client" xmlns:stream="http://etherx.jabber.org/streams" id="s1" from="capulet.lit" version="1.0"/>
            OUT
            <auth xmlns="urn:ietf:params:xml:ns:xmpp-sasl" mechanism="PLAIN">
              <hidden xmlns="xmpp.js"/>
            </auth>
            status online juliet@capulet.lit/balcony

            """
        try assertStanzaq(["--log=xmppjs", "-s", "/"], stdin: log, stdout: """
            <auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'><hidden xmlns='xmpp.js'/></auth>

            """, status: 0)
    }
}
