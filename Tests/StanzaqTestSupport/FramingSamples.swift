/// BOSH (XEP-0124/0206) and WebSocket (RFC 7395) framing around stanzas, as
/// the library's and the command's tests read it: the XEPs' and the RFC's
/// examples, shortened.
public enum FramingSamples {
    /// XEP-0206 examples 1, 5 and 11 and XEP-0124 example 10, as an HTTP log
    /// gives them: a session request (an empty body), a bind, a message and a
    /// presence, then the terminating body with its unavailable presence.
    public static let bosh = """
        <body xmlns='http://jabber.org/protocol/httpbind' content='text/xml; charset=utf-8' hold='1' rid='1573741820' \
        to='example.com' wait='60' xml:lang='en' xmpp:version='1.0' xmlns:xmpp='urn:xmpp:xbosh'/>
        <body xmlns='http://jabber.org/protocol/httpbind' rid='1573741822' sid='SomeSID'>
          <iq id='bind_1' type='set' xmlns='jabber:client'>
            <bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>httpclient</resource></bind>
          </iq>
        </body>
        <body xmlns='http://jabber.org/protocol/httpbind' rid='1573741824' sid='SomeSID'>
          <message to='contact@example.com' xmlns='jabber:client'><body>I said "Hi!"</body></message>
          <presence xmlns='jabber:client'/>
        </body>
        <body rid='1573741825' sid='SomeSID' type='terminate' xmlns='http://jabber.org/protocol/httpbind'>
          <presence type='unavailable' xmlns='jabber:client'/>
        </body>

        """

    /// RFC 7395 examples: the framing's `<open/>` and `<close/>` around stanzas,
    /// each a document of its own.
    public static let webSocket = """
        <open xmlns="urn:ietf:params:xml:ns:xmpp-framing" to="example.com" version="1.0"/>
        <iq xmlns="jabber:client" type="set" id="b1"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"/></iq>
        <message xmlns="jabber:client" to="juliet@capulet.lit"><body>hi</body></message>
        <close xmlns="urn:ietf:params:xml:ns:xmpp-framing"/>

        """
}
