/// What `--redact` removes from the stanzas before anything is evaluated or
/// printed (stanzaq(1), `--redact`): a set of the kinds named by
/// `--redact=auth,bodies,jids` (`all`: every kind).
public struct RedactionKinds: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// SASL payloads, passwords, tokens and private form values (the default).
    public static let auth = RedactionKinds(rawValue: 1)
    /// What people write: message bodies, subjects, XHTML-IM, encrypted payloads.
    public static let bodies = RedactionKinds(rawValue: 2)
    /// Every JID, replaced by a pseudonym stable within one run.
    public static let jids = RedactionKinds(rawValue: 4)
    /// Every kind.
    public static let all: RedactionKinds = [.auth, .bodies, .jids]

    /// The names `--redact=LIST` takes, in the order the help lists them.
    public static let names: [(name: String, kinds: RedactionKinds)] = [
        ("auth", .auth), ("bodies", .bodies), ("jids", .jids), ("all", .all),
    ]

    /// The kinds a comma-separated list names; throws the first unknown name
    /// (an empty list or an empty name is unknown too).
    public init(list: String) throws(UnknownRedaction) {
        var kinds: RedactionKinds = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let named = Self.names.first(where: { $0.name == name }) else { throw UnknownRedaction(name: name) }
            kinds.formUnion(named.kinds)
        }
        self = kinds
    }
}

/// A name in `--redact=LIST` that names no kind of redaction.
public struct UnknownRedaction: Error, Equatable, Sendable {
    /// The name as given ("" for an empty one: `auth,`).
    public let name: String
}
