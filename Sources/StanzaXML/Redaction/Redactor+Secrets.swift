// What `auth` and `bodies` remove (stanzaq(1), `--redact`). Each rule names
// elements by namespace and local name, so that a prefix changes nothing.

/// The namespaces of stanzas' own children (`<body>`, `<subject>`, `<status>`).
private let stanzaNamespaces: Set<String> = ["jabber:client", "jabber:server", "jabber:component:accept", ""]

extension Redactor {
    /// `auth`: an element whose whole content is a secret. SASL payloads
    /// (RFC 6120 `<auth>`, `<response>`, `<challenge>`, `<success>`; XEP-0388's
    /// `<initial-response>`, `<response>`, `<challenge>`, `<additional-data>`),
    /// passwords wherever they are (XEP-0077 and XEP-0078 `<password>`, a MUC
    /// room's `<password>`), XEP-0078's `<digest>` and `<token>`, and the
    /// credentials of an HTTP upload slot (XEP-0363 `<header>` Authorization, Cookie).
    static func isAuthSecret(_ element: Element) -> Bool {
        switch (element.namespace, element.name) {
        case ("urn:ietf:params:xml:ns:xmpp-sasl", "auth"), ("urn:ietf:params:xml:ns:xmpp-sasl", "response"),
             ("urn:ietf:params:xml:ns:xmpp-sasl", "challenge"), ("urn:ietf:params:xml:ns:xmpp-sasl", "success"),
             ("urn:xmpp:sasl:2", "initial-response"), ("urn:xmpp:sasl:2", "response"),
             ("urn:xmpp:sasl:2", "challenge"), ("urn:xmpp:sasl:2", "additional-data"),
             ("jabber:iq:auth", "digest"), ("jabber:iq:auth", "token"), ("jabber:iq:auth", "hash"):
            return true
        case (_, "password"):
            return true
        case ("urn:xmpp:http:upload:0", "header"):
            let name = element.attribute("name")?.lowercased()
            return name == "authorization" || name == "cookie"
        default:
            return false
        }
    }

    /// `auth`: the XEP-0484 (FAST) token given to a client, an attribute.
    func redactAuthAttributes(of element: Element) {
        guard element.namespace == "urn:xmpp:fast:0" else { return }
        replaceAttributes(of: element) { $0.name == "token" && $0.namespace.isEmpty ? Self.marker : nil }
    }

    /// `bodies`: an element whose whole content is what people wrote. A
    /// message's `<body>` and `<subject>`, a presence's `<status>`, XHTML-IM
    /// (XEP-0071), the payloads and message keys of OMEMO (XEP-0384, its
    /// `eu.siacs.conversations.axolotl` version and `urn:xmpp:omemo:2`), OpenPGP
    /// (XEP-0373 `<openpgp>`, XEP-0027 `jabber:x:encrypted`), the URL and
    /// description of an out-of-band file (XEP-0066) and reactions (XEP-0444).
    static func isBodySecret(_ element: Element) -> Bool {
        switch (element.namespace, element.name) {
        case (let namespace, "body") where stanzaNamespaces.contains(namespace):
            return true
        case (let namespace, "subject") where stanzaNamespaces.contains(namespace):
            return true
        case (let namespace, "status") where stanzaNamespaces.contains(namespace):
            return element.parent?.name == "presence"
        case ("http://jabber.org/protocol/xhtml-im", "html"),
             ("eu.siacs.conversations.axolotl", "payload"), ("eu.siacs.conversations.axolotl", "key"),
             ("eu.siacs.conversations.axolotl", "iv"),
             ("urn:xmpp:omemo:2", "payload"), ("urn:xmpp:omemo:2", "key"),
             ("urn:xmpp:openpgp:0", "openpgp"), ("jabber:x:encrypted", "x"),
             ("jabber:x:oob", "url"), ("jabber:x:oob", "desc"), ("urn:xmpp:reactions:0", "reaction"):
            return true
        default:
            return false
        }
    }

    /// `bodies`: the URLs of an HTTP upload slot (XEP-0363), where the file is.
    func redactBodyAttributes(of element: Element) {
        guard element.namespace == "urn:xmpp:http:upload:0", element.name == "get" || element.name == "put" else { return }
        replaceAttributes(of: element) { $0.name == "url" && $0.namespace.isEmpty ? Self.marker : nil }
    }

    /// `auth` or `bodies`: the `<value>` of a data-form field (XEP-0004) that is
    /// private: of type `text-private`, or a password (`password`, a name
    /// ending in `password` or `secret`: a submitted form need not say the type).
    func isPrivateFormValue(_ element: Element) -> Bool {
        guard element.name == "value", element.namespace == "jabber:x:data", let field = element.parent,
              field.name == "field", field.namespace == "jabber:x:data" else { return false }
        if field.attribute("type") == "text-private" { return true }
        let name = field.attribute("var")?.lowercased() ?? ""
        return name.hasSuffix("password") || name.hasSuffix("secret")
    }
}
