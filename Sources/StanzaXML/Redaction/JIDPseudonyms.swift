/// The pseudonyms `--redact=jids` gives JIDs: `user1@domain1.example/res1`.
///
/// Each part of a JID is replaced on its own, consistently for the whole run,
/// numbered in the order parts are first met: the same localpart always gives
/// the same `userN`, the same domain the same `domainN.example` (a name under
/// `.example`, reserved for examples by RFC 2606), the same resource the same
/// `resN`. So a reader still sees who talks to whom, which accounts share a
/// server, and which client of an account (or which occupant of a room) it
/// is, without the names. Localparts and domains are compared without case,
/// as JIDs are; resources with case.
public final class JIDPseudonyms {
    private var locals: [String: String] = [:]
    private var domains: [String: String] = [:]
    private var resources: [String: String] = [:]
    private var sessions: [String: String] = [:]
    /// Each JID given a pseudonym, with its bare JID and its domain, and what
    /// replaced them: what a log's own text repeats of them is replaced too
    /// (`--rewrite`).
    public private(set) var replaced: [String: String] = [:]

    public init() {}

    /// The pseudonym of a JID `[localpart@]domain[/resource]`; an empty
    /// string stays empty.
    public func jid(_ jid: String) -> String {
        guard !jid.isEmpty else { return jid }
        var rest = Substring(jid)
        var resourcePart: Substring?
        if let slash = rest.firstIndex(of: "/") {
            resourcePart = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var result = ""
        let bare = rest
        if let at = rest.lastIndex(of: "@") {
            result = local(String(rest[..<at])) + "@"
            rest = rest[rest.index(after: at)...]
        }
        let domainName = domain(String(rest))
        replaced[String(rest)] = domainName
        result += domainName
        replaced[String(bare)] = result
        if let resourcePart { result += "/" + resource(String(resourcePart)) }
        replaced[jid] = result
        return result
    }

    /// The pseudonym of a localpart alone (an archive's `user` column).
    public func local(_ local: String) -> String {
        Self.name(for: local.lowercased(), in: &locals, making: { "user\($0)" })
    }

    /// The pseudonym of a domain alone.
    public func domain(_ domain: String) -> String {
        Self.name(for: domain.lowercased(), in: &domains, making: { "domain\($0).example" })
    }

    /// The pseudonym of a resource alone, or of a nickname (a room occupant's
    /// nickname is the resource of its JID in the room).
    public func resource(_ resource: String) -> String {
        Self.name(for: resource, in: &resources, making: { "res\($0)" })
    }

    /// The pseudonym of a log's session or connection id that is not a JID
    /// (some logs name a session by its account): `sessionN`.
    public func session(_ session: String) -> String {
        Self.name(for: session, in: &sessions, making: { "session\($0)" })
    }

    private static func name(for key: String, in names: inout [String: String], making: (Int) -> String) -> String {
        if key.isEmpty { return key }
        if let name = names[key] { return name }
        let name = making(names.count + 1)
        names[key] = name
        return name
    }
}
