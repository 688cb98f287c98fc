/// Removes secrets from stanzas, in place, right after they are read, so that
/// the queries see, and every output prints, only what may be shared
/// (stanzaq(1), `--redact`). What each kind removes is in ``RedactionKinds``
/// and the rules below; secrets become ``marker``, JIDs their pseudonyms
/// (``JIDPseudonyms``), which one redactor keeps for a whole run.
///
/// Made only when `--redact` is given: without it, no stanza passes here.
public final class Redactor {
    /// What replaces a secret text or attribute value.
    public static let marker = "[redacted]"

    /// What is removed.
    public let kinds: RedactionKinds
    /// The pseudonyms given so far (``RedactionKinds/jids``).
    public let pseudonyms = JIDPseudonyms()
    /// The SASL payloads, passwords, tokens and (``RedactionKinds/bodies``)
    /// texts removed so far: what a log's own text repeats of them is removed
    /// too (`--rewrite`; those of three characters or fewer only as an
    /// element's whole text).
    public var removedSecrets: Set<String> = []
    /// The parts of JIDs met alone (a resource, a nickname, a username) and
    /// their pseudonyms: a log whose stanzas are not rewritten in place has
    /// them replaced wherever it writes them (`--rewrite`).
    public internal(set) var replacedParts: [String: String] = [:]

    /// A redactor that removes `kinds`, with no pseudonym given yet.
    public init(kinds: RedactionKinds) {
        self.kinds = kinds
    }

    /// Redacts `stanza` and everything below it, in document order (which is
    /// the order pseudonyms are numbered in).
    public func redact(_ stanza: Element) {
        if kinds.contains(.jids) { redactJIDs(of: stanza) }
        if kinds.contains(.auth), Self.isAuthSecret(stanza) {
            if let secret = stanza.text { removedSecrets.insert(secret) }
            replaceContent(of: stanza)
        } else if kinds.contains(.bodies), Self.isBodySecret(stanza) {
            if let secret = stanza.text { removedSecrets.insert(secret) }
            replaceContent(of: stanza)
        } else if !kinds.isDisjoint(with: [.auth, .bodies]), isPrivateFormValue(stanza) {
            replaceContent(of: stanza)
        } else {
            if kinds.contains(.auth) { redactAuthAttributes(of: stanza) }
            if kinds.contains(.bodies) { redactBodyAttributes(of: stanza) }
            for case .element(let child) in stanza.children { redact(child) }
        }
    }

    /// Replaces everything inside `element` (text and elements) by the marker;
    /// an empty element stays empty (it hides nothing), and so does the SASL
    /// empty response `=`.
    func replaceContent(of element: Element) {
        guard !element.children.isEmpty, element.text != "=" || element.children.count > 1 else { return }
        element.children = [.text(Self.marker)]
    }

    /// Replaces the value of each attribute for which `replacement` gives one.
    func replaceAttributes(of element: Element, _ replacement: (Attribute) -> String?) {
        for index in element.attributes.indices {
            if let value = replacement(element.attributes[index]) { element.attributes[index].value = value }
        }
    }
}
