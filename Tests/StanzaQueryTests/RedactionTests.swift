import XCTest
@testable import StanzaXML

/// The ``Redactor`` on single stanzas: what each kind of `--redact` removes,
/// and that JID pseudonyms are stable across stanzas.
final class RedactionTests: XCTestCase {
    private func redacted(_ xml: String, _ kinds: RedactionKinds, by redactor: Redactor? = nil) -> String {
        let element = stanza(xml)
        (redactor ?? Redactor(kinds: kinds)).redact(element)
        return XMLSerializer(options: .init()).string(for: element)
    }

    func testSASLPayloadsOfBothVersions() {
        XCTAssertEqual(redacted("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>AGp1bGlldAByMG0zMA==</auth>", .auth),
                       "<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>[redacted]</auth>")
        XCTAssertEqual(redacted("<response xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>=</response>", .auth),
                       "<response xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>=</response>", "the empty response hides nothing")
        XCTAssertEqual(redacted("<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>", .auth),
                       "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>")
        XCTAssertEqual(redacted("""
            <authenticate xmlns='urn:xmpp:sasl:2' mechanism='HT-SHA-256-NONE'><initial-response>c2VjcmV0</initial-response>\
            <user-agent id='d4565fa7'><software>Monal</software></user-agent></authenticate>
            """, .auth), """
            <authenticate xmlns='urn:xmpp:sasl:2' mechanism='HT-SHA-256-NONE'><initial-response>[redacted]</initial-response>\
            <user-agent id='d4565fa7'><software>Monal</software></user-agent></authenticate>
            """)
        XCTAssertEqual(redacted("""
            <success xmlns='urn:xmpp:sasl:2'><additional-data>dj1tc1ZI</additional-data>\
            <token xmlns='urn:xmpp:fast:0' expiry='2026-12-01T00:00:00Z' token='WXZzciBwYmFmdmZnZiBqdmd1IGp2eHZyZmdo'/>\
            <authorization-identifier>juliet@capulet.lit/balcony</authorization-identifier></success>
            """, .auth), """
            <success xmlns='urn:xmpp:sasl:2'><additional-data>[redacted]</additional-data>\
            <token xmlns='urn:xmpp:fast:0' expiry='2026-12-01T00:00:00Z' token='[redacted]'/>\
            <authorization-identifier>juliet@capulet.lit/balcony</authorization-identifier></success>
            """)
    }

    func testPasswordsAndPrivateFormValues() {
        XCTAssertEqual(redacted("""
            <iq type='set' id='r1'><query xmlns='jabber:iq:register'><username>bill</username><password>Calliope</password></query></iq>
            """, .auth), """
            <iq type='set' id='r1'><query xmlns='jabber:iq:register'><username>bill</username><password>[redacted]</password></query></iq>
            """)
        XCTAssertEqual(redacted("""
            <iq type='set' id='a1'><query xmlns='jabber:iq:auth'><username>bill</username><digest>48fc78be9ec8f86d8ce1c39c320c97c21d62334d</digest>\
            <resource>globe</resource></query></iq>
            """, .auth), """
            <iq type='set' id='a1'><query xmlns='jabber:iq:auth'><username>bill</username><digest>[redacted]</digest>\
            <resource>globe</resource></query></iq>
            """)
        let form = """
            <x xmlns='jabber:x:data' type='submit'><field var='username'><value>bill</value></field>\
            <field var='password' type='text-private'><value>Calliope</value></field>\
            <field var='muc#roomconfig_roomsecret'><value>cauldronburn</value></field></x>
            """
        let redactedForm = """
            <x xmlns='jabber:x:data' type='submit'><field var='username'><value>bill</value></field>\
            <field var='password' type='text-private'><value>[redacted]</value></field>\
            <field var='muc#roomconfig_roomsecret'><value>[redacted]</value></field></x>
            """
        XCTAssertEqual(redacted(form, .auth), redactedForm)
        XCTAssertEqual(redacted(form, .bodies), redactedForm)
        XCTAssertEqual(redacted(form, .jids), form)
    }

    func testBodiesAndEncryptedPayloads() {
        XCTAssertEqual(redacted("""
            <message to='romeo@montague.lit' type='chat'><subject>Balcony</subject><body>Wherefore art thou?</body>\
            <html xmlns='http://jabber.org/protocol/xhtml-im'><body xmlns='http://www.w3.org/1999/xhtml'><p>Wherefore <em>art</em> thou?</p></body></html>\
            <thread>e0ffe42b28561960c6b12b944a092794b9683a38</thread></message>
            """, .bodies), """
            <message to='romeo@montague.lit' type='chat'><subject>[redacted]</subject><body>[redacted]</body>\
            <html xmlns='http://jabber.org/protocol/xhtml-im'>[redacted]</html>\
            <thread>e0ffe42b28561960c6b12b944a092794b9683a38</thread></message>
            """)
        XCTAssertEqual(redacted("""
            <message><encrypted xmlns='eu.siacs.conversations.axolotl'><header sid='27183'><key rid='31415'>BASE64ENCODED</key>\
            <iv>BASE64IV</iv></header><payload>BASE64PAYLOAD</payload></encrypted>\
            <openpgp xmlns='urn:xmpp:openpgp:0'>BASE64OX</openpgp><x xmlns='jabber:x:encrypted'>PGPMESSAGE</x></message>
            """, .bodies), """
            <message><encrypted xmlns='eu.siacs.conversations.axolotl'><header sid='27183'><key rid='31415'>[redacted]</key>\
            <iv>[redacted]</iv></header><payload>[redacted]</payload></encrypted>\
            <openpgp xmlns='urn:xmpp:openpgp:0'>[redacted]</openpgp><x xmlns='jabber:x:encrypted'>[redacted]</x></message>
            """)
        XCTAssertEqual(redacted("<presence><show>away</show><status>In a meeting</status></presence>", .bodies),
                       "<presence><show>away</show><status>[redacted]</status></presence>")
        XCTAssertEqual(redacted("<message><body>hi</body></message>", .auth), "<message><body>hi</body></message>")
    }

    func testJIDsGetStablePseudonymsPartByPart() {
        let redactor = Redactor(kinds: .jids)
        XCTAssertEqual(redacted("""
            <message from='Juliet@Capulet.lit/balcony' to='romeo@montague.lit/orchard'>\
            <stanza-id xmlns='urn:xmpp:sid:0' by='juliet@capulet.lit' id='x1'/></message>
            """, .jids, by: redactor), """
            <message from='user1@domain1.example/res1' to='user2@domain2.example/res2'>\
            <stanza-id xmlns='urn:xmpp:sid:0' by='user1@domain1.example' id='x1'/></message>
            """)
        // The next stanza, by the same redactor: the same parts, the same pseudonyms.
        XCTAssertEqual(redacted("""
            <iq type='result' to='romeo@montague.lit/orchard'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>\
            <jid>nurse@capulet.lit/balcony</jid></bind></iq>
            """, .jids, by: redactor), """
            <iq type='result' to='user2@domain2.example/res2'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>\
            <jid>user3@domain1.example/res1</jid></bind></iq>
            """)
        XCTAssertEqual(redacted("""
            <presence from='coven@chat.shakespeare.lit/firstwitch'><x xmlns='http://jabber.org/protocol/muc#user'>\
            <item affiliation='owner' jid='crone1@shakespeare.lit/desktop' nick='firstwitch' role='moderator'/></x>\
            <nick xmlns='http://jabber.org/protocol/nick'>balcony</nick></presence>
            """, .jids, by: redactor), """
            <presence from='user4@domain3.example/res3'><x xmlns='http://jabber.org/protocol/muc#user'>\
            <item affiliation='owner' jid='user5@domain4.example/res4' nick='res3' role='moderator'/></x>\
            <nick xmlns='http://jabber.org/protocol/nick'>res1</nick></presence>
            """)
        XCTAssertEqual(redactor.pseudonyms.jid("capulet.lit"), "domain1.example")
    }

    func testJIDsInTextFormsBindingAndURIs() {
        XCTAssertEqual(redacted("""
            <iq type='set'><query xmlns='urn:xmpp:mam:2'><x xmlns='jabber:x:data' type='submit'>\
            <field var='FORM_TYPE' type='hidden'><value>urn:xmpp:mam:2</value></field>\
            <field var='with'><value>juliet@capulet.lit</value></field>\
            <field var='muc#roomconfig_roomadmins' type='jid-multi'><value>wiccarocks@shakespeare.lit</value></field></x></query></iq>
            """, .jids), """
            <iq type='set'><query xmlns='urn:xmpp:mam:2'><x xmlns='jabber:x:data' type='submit'>\
            <field var='FORM_TYPE' type='hidden'><value>urn:xmpp:mam:2</value></field>\
            <field var='with'><value>user1@domain1.example</value></field>\
            <field var='muc#roomconfig_roomadmins' type='jid-multi'><value>user2@domain2.example</value></field></x></query></iq>
            """)
        XCTAssertEqual(redacted("""
            <iq type='set'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>balcony</resource></bind>\
            <reference xmlns='urn:xmpp:reference:0' type='mention' uri='xmpp:juliet@capulet.lit?message'/>\
            <reference xmlns='urn:xmpp:reference:0' type='data' uri='https://example.org/'/></iq>
            """, .jids), """
            <iq type='set'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>res1</resource></bind>\
            <reference xmlns='urn:xmpp:reference:0' type='mention' uri='xmpp:user1@domain1.example?message'/>\
            <reference xmlns='urn:xmpp:reference:0' type='data' uri='https://example.org/'/></iq>
            """)
        XCTAssertEqual(redacted("""
            <iq><pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='urn:xmpp:bookmarks:1'>\
            <item id='theplay@conference.shakespeare.lit'><conference xmlns='urn:xmpp:bookmarks:1' name='The Play'/></item></publish></pubsub></iq>
            """, .jids), """
            <iq><pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='urn:xmpp:bookmarks:1'>\
            <item id='user1@domain1.example'><conference xmlns='urn:xmpp:bookmarks:1' name='The Play'/></item></publish></pubsub></iq>
            """)
    }

    func testKindsByName() throws {
        XCTAssertEqual(try RedactionKinds(list: "auth"), .auth)
        XCTAssertEqual(try RedactionKinds(list: "bodies,jids"), [.bodies, .jids])
        XCTAssertEqual(try RedactionKinds(list: "all"), .all)
        XCTAssertThrowsError(try RedactionKinds(list: "auth,,jids")) { XCTAssertEqual($0 as? UnknownRedaction, UnknownRedaction(name: "")) }
        XCTAssertThrowsError(try RedactionKinds(list: "body")) { XCTAssertEqual($0 as? UnknownRedaction, UnknownRedaction(name: "body")) }
    }
}
