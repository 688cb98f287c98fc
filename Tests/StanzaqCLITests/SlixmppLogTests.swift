import Foundation
import StanzaqTestSupport
import XCTest

/// stanzaq(1), LOGS, `slixmpp`: what later slixmpp writes differently from
/// Debian's 1.8.3 (the recorded logs of both are in RealLogTests).
final class SlixmppLogTests: CLITestCase {
    /// slixmpp 1.17.0 puts the `stream` prefix twice before the names of what it
    /// receives in the streams namespace, with that namespace as `xmlns`
    /// (lines 10, 11, 12, 24 and 25 of the recorded slixmpp-pypi-notime-paula.log):
    /// the header and the features are read as the stream's, and the stanzas
    /// after them in the client's namespace.
    func testTheDoubledStreamPrefixOfSlixmpp117() throws {
        let log = """
            DEBUG    SEND: <stream:stream to='localhost' xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client' xml:lang='en' version='1.0'>
            DEBUG    RECV: <stream:stream:stream xmlns="http://etherx.jabber.org/streams" from="localhost" version="1.0" xml:lang="en" id="2ed5b5e3-7633-4314-b7d9-690721bd31f1">
            DEBUG    RECV: <stream:stream:features xmlns="http://etherx.jabber.org/streams"><mechanisms xmlns="urn:ietf:params:xml:ns:xmpp-sasl"><mechanism>PLAIN</mechanism><mechanism>SCRAM-SHA-1</mechanism><mechanism>SCRAM-SHA-256</mechanism></mechanisms></stream:stream:features>
            DEBUG    SEND: <iq id="4b18b7eb8f4c47fb814258c289b8bb99" type="set"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"><resource>slixmpp-notime</resource></bind></iq>
            DEBUG    RECV: <iq id="4b18b7eb8f4c47fb814258c289b8bb99" type="result"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"><jid>paula@localhost/slixmpp-notime</jid></bind></iq>

            """
        let expected = """
            3\tin\tfeatures\thttp://etherx.jabber.org/streams\tPLAIN
            4\tout\tiq\tjabber:client\t
            5\tin\tiq\tjabber:client\t

            """
        for format in [["--log"], ["--log=slixmpp"]] {
            try assertStanzaq(format + ["--fields", "line,direction", "-e", "/$", "-e", "/@xmlns",
                                        "-e", "{urn:ietf:params:xml:ns:xmpp-sasl}mechanisms/mechanism#"],
                              stdin: log, stdout: expected, status: 0)
        }
        try assertStanzaq(["-s", "{urn:ietf:params:xml:ns:xmpp-bind}bind"], stdin: log, stdout: """
            <iq xmlns='jabber:client' id='4b18b7eb8f4c47fb814258c289b8bb99' type='set'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>slixmpp-notime</resource></bind></iq>
            <iq xmlns='jabber:client' id='4b18b7eb8f4c47fb814258c289b8bb99' type='result'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>paula@localhost/slixmpp-notime</jid></bind></iq>

            """, status: 0)
    }
}
