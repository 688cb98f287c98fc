// What `jids` replaces (stanzaq(1), `--redact`): the JIDs the protocol puts in
// attributes and elements. JIDs inside free text (a body that names someone)
// are not looked for.

/// The attributes whose value is a JID, on any element: the stanza's
/// addresses, and those of items, delays, stanza ids, invitations, Jingle
/// sessions, bookmarks, roster and blocking items, addresses (XEP-0033).
private let jidAttributes: Set<String> = ["from", "to", "jid", "by", "initiator", "responder", "with"]

/// Elements whose text is a JID: resource binding's and many others' `<jid>`,
/// vcard-temp's `<JABBERID>`, XEP-0388's `<authorization-identifier>`.
private let jidElements: Set<String> = ["jid", "JABBERID", "authorization-identifier"]

/// Where `<resource>` is the resource a client asks for (RFC 6120 binding,
/// XEP-0078) and `<username>` the localpart it logs in or registers with
/// (XEP-0078, XEP-0077).
private let jidPartNamespaces: Set<String> = ["urn:ietf:params:xml:ns:xmpp-bind", "jabber:iq:auth", "jabber:iq:register"]

/// Data-form fields whose values are JIDs whatever their type says (a
/// submitted form need not say it): MAM's `with`.
private let jidFieldNames: Set<String> = ["with"]

extension Redactor {
    /// Replaces the JIDs of `element` itself (its attributes and, for an
    /// element that is one, its text) by their pseudonyms; the parts of JIDs
    /// (a resource, a username, a nickname, which is the resource of a room
    /// occupant's JID) by the pseudonyms of such parts.
    func redactJIDs(of element: Element) {
        /// A part of a JID met alone, noted with its pseudonym (``replacedParts``).
        func part(_ value: String, _ pseudonym: String) -> String {
            replacedParts[value] = pseudonym
            return pseudonym
        }
        replaceAttributes(of: element) { attribute in
            guard attribute.namespace.isEmpty else { return nil }
            if jidAttributes.contains(attribute.name) { return pseudonyms.jid(attribute.value) }
            if attribute.name == "nick" { return part(attribute.value, pseudonyms.resource(attribute.value)) }
            if attribute.name == "uri" { return xmppURI(attribute.value) }
            if attribute.name == "id", element.name == "item", isBookmark(element.parent) {
                return pseudonyms.jid(attribute.value)
            }
            return nil
        }
        guard let text = element.text, element.children.count == 1 else { return }
        if jidElements.contains(element.name) || isJIDFormValue(element) {
            element.children = [.text(pseudonyms.jid(text.trimmingWhitespace))]
        } else if element.name == "nick" && element.namespace == "http://jabber.org/protocol/nick"
                    || element.name == "resource" && jidPartNamespaces.contains(element.namespace) {
            element.children = [.text(part(text.trimmingWhitespace, pseudonyms.resource(text.trimmingWhitespace)))]
        } else if element.name == "username", jidPartNamespaces.contains(element.namespace) {
            element.children = [.text(part(text.trimmingWhitespace, pseudonyms.local(text.trimmingWhitespace)))]
        } else if element.name == "uri" {
            element.children = [.text(xmppURI(text))]
        }
    }

    /// A `<value>` of a data-form field of type `jid-single` or `jid-multi`, or
    /// of a field named in `jidFieldNames`.
    private func isJIDFormValue(_ element: Element) -> Bool {
        guard element.name == "value", element.namespace == "jabber:x:data", let field = element.parent,
              field.name == "field", field.namespace == "jabber:x:data" else { return false }
        let type = field.attribute("type")
        return type == "jid-single" || type == "jid-multi" || jidFieldNames.contains(field.attribute("var") ?? "")
    }

    /// Whether `parent` is the `<items>`, `<publish>` or `<retract>` of the
    /// XEP-0402 bookmarks node, whose items' ids are the rooms' JIDs.
    private func isBookmark(_ parent: Element?) -> Bool {
        guard let parent, ["items", "publish", "retract"].contains(parent.name) else { return false }
        return parent.attribute("node") == "urn:xmpp:bookmarks:1"
    }

    /// An `xmpp:` URI (RFC 5122) with its JID replaced, the query after `?`
    /// kept; any other URI as it is.
    private func xmppURI(_ uri: String) -> String {
        guard uri.hasPrefix("xmpp:") else { return uri }
        let rest = uri.dropFirst(5)
        let query = rest.firstIndex(of: "?") ?? rest.endIndex
        return "xmpp:" + pseudonyms.jid(String(rest[..<query])) + rest[query...]
    }
}

extension String {
    /// Without the XML whitespace at its ends (a pretty-printed `<jid>`).
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
