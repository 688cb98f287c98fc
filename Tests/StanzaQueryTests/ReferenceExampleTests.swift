import XCTest
import StanzaQuery

/// Every example of reference/monal-xml-query-language.txt, with its documented value.
final class ReferenceExampleTests: XCTestCase {

    // MARK: Example 0 — the namespace of the parent is inherited

    let example0 = """
        <message from='juliet@example.com' id='some_id' xmlns='jabber:client'>
            <body>Message text</body>
            <body xmlns='urn:some:different:namespace'>This will NOT be used</body>
        </message>
        """

    func testExample0BodyTextUsesInheritedNamespace() throws {
        let message = stanza(example0)
        XCTAssertEqual(texts("body#", in: message), ["Message text"])
        XCTAssertEqual(try Query("body#").findFirst(in: message)?.text, "Message text")
    }

    // MARK: Example 1 — rooted query on the context node

    func testExample1RootedAttribute() throws {
        let message = stanza("""
            <message from='juliet@example.com' id='some_id' xmlns='jabber:client'>
                <body>Message text</body>
            </message>
            """)
        XCTAssertEqual(texts("/@id", in: message), ["some_id"])
        XCTAssertEqual(try Query("/@id").findFirst(in: message), .string("some_id"))
    }

    // MARK: Example 2 — negated element name

    func testExample2NegatedName() throws {
        let streamError = stanza("""
            <stream:error xmlns:stream='http://etherx.jabber.org/streams'>
                <not-well-formed xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>
                <text xmlns='urn:ietf:params:xml:ns:xmpp-streams'>Some descriptive Text...</text>
            </stream:error>
            """)
        XCTAssertEqual(streamError.name, "error")
        XCTAssertEqual(streamError.namespace, "http://etherx.jabber.org/streams")
        let query = try Query("{urn:ietf:params:xml:ns:xmpp-streams}!text$")
        XCTAssertEqual(try query.findFirst(in: streamError)?.text, "not-well-formed")
        XCTAssertEqual(try query.find(in: streamError).map(\.text), ["not-well-formed"])
    }

    // MARK: Example 3 — filters with format arguments

    let example3 = """
        <iq id='605818D4-4D16-4ACC-B003-BFA3E11849E1' to='juliet@capulet.lit/Monal-iOS.15e153a8' xmlns='jabber:client' type='result' from='juliet@capulet.lit'>
            <pubsub xmlns='http://jabber.org/protocol/pubsub'>
                <subscription node='eu.siacs.conversations.axolotl.devicelist' subid='6795F13596465' subscription='subscribed' jid='juliet@capulet.lit'/>
            </pubsub>
        </iq>
        """

    func testExample3FiltersWithArguments() throws {
        let iq = stanza(example3)
        let query = try Query(
            "/<type=result>/{http://jabber.org/protocol/pubsub}pubsub/subscription<node=%@><jid=%@>@subscription",
            arguments: ["eu.siacs.conversations.axolotl.devicelist", "juliet@capulet.lit"])
        XCTAssertEqual(try query.findFirst(in: iq)?.text, "subscribed")
        XCTAssertEqual(try query.find(in: iq).map(\.text), ["subscribed"])
        // The same query with other arguments selects nothing.
        let other = try Query(
            "/<type=result>/{http://jabber.org/protocol/pubsub}pubsub/subscription<node=%@><jid=%@>@subscription",
            arguments: ["eu.siacs.conversations.axolotl.devicelist", "romeo@montague.lit"])
        XCTAssertEqual(try other.find(in: iq).map(\.text), [])
        // And the stanza filter of the rooted first segment really filters.
        let error = try Query(
            "/<type=error>/{http://jabber.org/protocol/pubsub}pubsub/subscription<node=%@><jid=%@>@subscription",
            arguments: ["eu.siacs.conversations.axolotl.devicelist", "juliet@capulet.lit"])
        XCTAssertFalse(try error.check(in: iq))
    }

    func testExample3ThroughTheElementConvenienceAPI() throws {
        let iq = stanza(example3)
        XCTAssertEqual(
            try iq.findFirst(
                "/<type=result>/{http://jabber.org/protocol/pubsub}pubsub/subscription<node=%@><jid=%@>@subscription",
                "eu.siacs.conversations.axolotl.devicelist", "juliet@capulet.lit")?.text,
            "subscribed")
        XCTAssertTrue(try iq.check("{http://jabber.org/protocol/pubsub}pubsub/subscription<subid=%@>", "6795F13596465"))
        XCTAssertEqual(try iq.find("{http://jabber.org/protocol/pubsub}pubsub/subscription@subid").map(\.text), ["6795F13596465"])
    }

    // MARK: Example 4 — bool conversion

    func testExample4BoolConversion() throws {
        let iq = stanza("""
            <iq type='result' id='juliet1'>
              <fin xmlns='urn:xmpp:mam:2' complete='true'>
                <set xmlns='http://jabber.org/protocol/rsm'>
                  <first index='0'>28482-98726-73623</first>
                  <last>09af3-cc343-b409f</last>
                </set>
              </fin>
            </iq>
            """)
        let value = try Query("{urn:xmpp:mam:2}fin@complete|bool").findFirst(in: iq)
        XCTAssertEqual(value, .bool(true))
        XCTAssertEqual(value?.text, "true")
        XCTAssertEqual(value?.json, "true")
        // The rest of the stanza, for good measure.
        XCTAssertEqual(texts("{urn:xmpp:mam:2}fin/{http://jabber.org/protocol/rsm}set/first@index|int", in: iq), ["0"])
        XCTAssertEqual(texts("{urn:xmpp:mam:2}fin/{http://jabber.org/protocol/rsm}set/last#", in: iq), ["09af3-cc343-b409f"])
    }

    // MARK: Example 5 — datetime conversion

    func testExample5DatetimeConversion() throws {
        let message = stanza("""
            <message from='romeo@montague.net/orchard' to='juliet@capulet.com' type='chat'>
                <body>O blessed, blessed night! I am afeard.</body>
                <delay xmlns='urn:xmpp:delay' from='capulet.com' stamp='2002-09-10T23:08:25Z'/>
            </message>
            """)
        let value = try Query("{urn:xmpp:delay}delay@stamp|datetime").findFirst(in: message)
        guard case .dateTime(let stamp)? = value else { return XCTFail("not a datetime: \(String(describing: value))") }
        XCTAssertEqual(stamp.seconds, 1031699305)
        XCTAssertEqual(stamp.microseconds, 0)
        XCTAssertEqual(stamp.date.timeIntervalSince1970, 1031699305)
        XCTAssertEqual(value?.text, "2002-09-10T23:08:25Z")
        XCTAssertEqual(value?.json, "\"2002-09-10T23:08:25Z\"")
        var epoch: [UInt8] = []
        value?.writeText(into: &epoch, options: RenderOptions(epoch: true))
        XCTAssertEqual(String(decoding: epoch, as: UTF8.self), "1031699305")
    }

    // MARK: Queries found in Monal's codebase

    func testJingleActionRegex() throws {
        let query = try Query("{urn:xmpp:jingle:1}jingle<action~^session-(initiate|accept)$>")
        for action in ["session-initiate", "session-accept", "SESSION-ACCEPT"] {
            let iq = stanza("<iq xmlns='jabber:client' type='set'><jingle xmlns='urn:xmpp:jingle:1' action='\(action)' sid='a73sjjvkla37jfea'/></iq>")
            XCTAssertEqual(try query.find(in: iq).map(\.text),
                           ["<jingle xmlns='urn:xmpp:jingle:1' action='\(action)' sid='a73sjjvkla37jfea'/>"], action)
        }
        for action in ["session-info", "session-initiated", "xsession-accept", "content-accept"] {
            let iq = stanza("<iq xmlns='jabber:client' type='set'><jingle xmlns='urn:xmpp:jingle:1' action='\(action)' sid='a73sjjvkla37jfea'/></iq>")
            XCTAssertEqual(try query.find(in: iq).map(\.text), [], action)
        }
    }

    func testErrorItemNotFound() throws {
        let iq = stanza("""
            <iq xmlns='jabber:client' type='error' id='x1'><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>
            """)
        XCTAssertEqual(texts("error/{urn:ietf:params:xml:ns:xmpp-stanzas}item-not-found", in: iq),
                       ["<item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>"])
        let other = stanza("""
            <iq xmlns='jabber:client' type='error' id='x1'><error type='cancel'><service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>
            """)
        XCTAssertEqual(texts("error/{urn:ietf:params:xml:ns:xmpp-stanzas}item-not-found", in: other), [])
    }

    func testAvatarMetadataInfo() throws {
        let message = stanza("""
            <message xmlns='jabber:client' from='juliet@capulet.lit'><event xmlns='http://jabber.org/protocol/pubsub#event'><items node='urn:xmpp:avatar:metadata'><item id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f'><metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='12345' height='64' id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f' type='image/png' width='64'/><info bytes='23456' id='e279f80c38f99c1e7e53e262b440993b2f7eea57' type='image/gif'/></metadata></item></items></event></message>
            """)
        let item = try XCTUnwrap(try Query("{http://jabber.org/protocol/pubsub#event}event/items/item").findFirst(in: message))
        guard case .element(let itemElement) = item else { return XCTFail("not an element") }
        XCTAssertEqual(texts("{urn:xmpp:avatar:metadata}metadata/info", in: itemElement), [
            "<info xmlns='urn:xmpp:avatar:metadata' bytes='12345' height='64' id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f' type='image/png' width='64'/>",
            "<info xmlns='urn:xmpp:avatar:metadata' bytes='23456' id='e279f80c38f99c1e7e53e262b440993b2f7eea57' type='image/gif'/>",
        ])
    }

    func testAvatarDataBase64() throws {
        let item = stanza("<item xmlns='http://jabber.org/protocol/pubsub' id='x'><data xmlns='urn:xmpp:avatar:data'>\niVBORw0K\nGgo=\n</data></item>")
        let value = try Query("{urn:xmpp:avatar:data}data#|base64").findFirst(in: item)
        XCTAssertEqual(value, .data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        XCTAssertEqual(value?.json, "\"iVBORw0KGgo=\"")
        var raw: [UInt8] = []
        value?.writeText(into: &raw)
        XCTAssertEqual(raw, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    // MARK: `..`

    let pubsubResult = """
        <iq xmlns='jabber:client' type='result' id='items1'><pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='princely_musings'><item id='368866411b877c30064a5f62b917cffe'/></items></pubsub></iq>
        """

    func testReferenceParentExampleClimbsAboveTheStanza() throws {
        let iq = stanza(pubsubResult)
        XCTAssertEqual(
            evaluationError("/{jabber:client}iq/{http://jabber.org/protocol/pubsub}pubsub/items/../../../@type", in: iq),
            "'..' at column 74 climbs above <iq>, the root of the stanza")
    }

    func testCorrectedParentExample() throws {
        let iq = stanza(pubsubResult)
        XCTAssertEqual(texts("/{jabber:client}iq/{http://jabber.org/protocol/pubsub}pubsub/items/../../@type", in: iq), ["result"])
        XCTAssertEqual(texts("/{jabber:client}iq/{http://jabber.org/protocol/pubsub}pubsub/items/../@node", in: iq), [])
        XCTAssertEqual(texts("/{jabber:client}iq/{http://jabber.org/protocol/pubsub}pubsub/items/item/../@node", in: iq), ["princely_musings"])
    }

    // MARK: Example 6 and the data-form queries

    let example6 = """
        <iq from='upload.montague.tld' id='step_02' to='romeo@montague.tld/garden' type='result'>
          <query xmlns='http://jabber.org/protocol/disco#info'>
            <identity category='store' type='file' name='HTTP File Upload' />
            <feature var='urn:xmpp:http:upload:0' />
            <x type='result' xmlns='jabber:x:data'>
              <field var='FORM_TYPE' type='hidden'>
                <value>urn:xmpp:http:upload:0</value>
              </field>
              <field var='max-file-size'>
                <value>5242880</value>
              </field>
            </x>
          </query>
        </iq>
        """

    func testExample6DataFormWithIntConversion() throws {
        let iq = stanza(example6)
        let value = try Query(#"{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}result@max-file-size\|int"#).findFirst(in: iq)
        XCTAssertEqual(value, .int(5242880))
        XCTAssertEqual(value?.text, "5242880")
    }

    func testExample6ObjectiveCSpellingIsAccepted() throws {
        let iq = stanza(example6)
        // stanzaq-query(7), COMPATIBILITY, decision 3: the doubled backslashes of the reference's Objective-C source.
        let doubled = try Query(#"{http://jabber.org/protocol/disco#info}query/\\{urn:xmpp:http:upload:0}result@max-file-size\\|int"#)
        XCTAssertEqual(try doubled.find(in: iq).map(\.text), ["5242880"])
        let single = try Query(#"{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}result@max-file-size\|int"#)
        XCTAssertEqual(doubled.syntax.extraction, single.syntax.extraction)
        XCTAssertEqual(doubled.syntax.steps.count, single.syntax.steps.count)
    }

    func testExample6OtherFormTypeOrFormTypeGivesNothing() throws {
        let iq = stanza(example6)
        XCTAssertEqual(texts(#"{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:1}result@max-file-size\|int"#, in: iq), [])
        XCTAssertEqual(texts(#"{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}form@max-file-size\|int"#, in: iq), [])
    }

    func testRoomInfoDataFormQuery() throws {
        let iq = stanza("""
            <iq from='coven@chat.shakespeare.lit' id='ik3vs715' to='hag66@shakespeare.lit/pda' type='result' xmlns='jabber:client'>
              <query xmlns='http://jabber.org/protocol/disco#info'>
                <identity category='conference' name='A Dark Cave' type='text'/>
                <feature var='http://jabber.org/protocol/muc'/>
                <x xmlns='jabber:x:data' type='result'>
                  <field var='FORM_TYPE' type='hidden'>
                    <value>http://jabber.org/protocol/muc#roominfo</value>
                  </field>
                  <field var='muc#roominfo_description' label='Description'>
                    <value>The place for all good witches!</value>
                  </field>
                  <field var='muc#roomconfig_roomname' label='Natural-Language Room Name'>
                    <value>A Dark Cave</value>
                  </field>
                </x>
              </query>
            </iq>
            """)
        let query = #"{http://jabber.org/protocol/disco#info}query/\{http://jabber.org/protocol/muc#roominfo}result@muc#roomconfig_roomname\"#
        XCTAssertEqual(texts(query, in: iq), ["A Dark Cave"])
        let doubled = #"{http://jabber.org/protocol/disco#info}query/\\{http://jabber.org/protocol/muc#roominfo}result@muc#roomconfig_roomname\\"#
        XCTAssertEqual(texts(doubled, in: iq), ["A Dark Cave"])
    }

    let invite = """
        <iq xmlns='jabber:client' type='result' id='inv1' from='example.org'>
          <command xmlns='http://jabber.org/protocol/commands' node='urn:xmpp:invite#invite' sessionid='s1' status='completed'>
            <x xmlns='jabber:x:data' type='result'>
              <item>
                <field var='uri'><value>xmpp:example.org?register;preauth=abc</value></field>
                <field var='expire'><value>2024-06-01T12:30:00Z</value></field>
              </item>
            </x>
          </command>
        </iq>
        """

    func testInviteCommandIndexedDataFormQuery() throws {
        let iq = stanza(invite)
        let indexed = #"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\[0]@expire\|datetime"#
        XCTAssertEqual(texts(indexed, in: iq), ["2024-06-01T12:30:00Z"])
        XCTAssertEqual(texts(#"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\\[0]@expire\\|datetime"#, in: iq),
                       ["2024-06-01T12:30:00Z"])
        XCTAssertEqual(texts(#"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\[1]@expire\|datetime"#, in: iq), [])
        XCTAssertEqual(texts(#"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#other>/\[0]@expire\|datetime"#, in: iq), [])
    }

    func testInviteCommandUnindexedDataFormQuery() throws {
        let query = #"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\@expire\|datetime"#
        // A multi-item form: the first item.
        XCTAssertEqual(texts(query, in: stanza(invite)), ["2024-06-01T12:30:00Z"])
        // A form without items: its own fields.
        let flat = stanza("""
            <iq xmlns='jabber:client' type='result' id='inv2'><command xmlns='http://jabber.org/protocol/commands' node='urn:xmpp:invite#invite'><x xmlns='jabber:x:data' type='result'><field var='expire'><value>2024-06-01T12:30:00.25+02:00</value></field></x></command></iq>
            """)
        XCTAssertEqual(texts(query, in: flat), ["2024-06-01T10:30:00.25Z"])
        XCTAssertEqual(texts(#"{http://jabber.org/protocol/commands}command<node=urn:xmpp:invite#invite>/\\@expire\\|datetime"#, in: flat),
                       ["2024-06-01T10:30:00.25Z"])
    }
}
