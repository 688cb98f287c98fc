#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// What pairs an `iq` with its partner: its `id`, and where a log tells them its
/// session and direction (the response goes the other way).
struct PairKey: Hashable {
    var id: String
    var session: String?
    /// The direction of the response.
    var direction: LogDirection?
}

/// An `iq` request or response, as `--pair` and `--unanswered` see it.
struct IQ {
    var isRequest: Bool
    /// The key its response has.
    var responseKey: PairKey
    /// The key it has itself (as a response, the key its request remembered).
    var ownKey: PairKey

    /// The stanza namespaces an `iq` is in (or none, in the XEPs' examples).
    private static let namespaces: Set<String> = ["jabber:client", "jabber:server", "jabber:component:accept", ""]

    init?(_ element: Element, _ source: StanzaSource?) {
        guard element.name == "iq", Self.namespaces.contains(element.namespace),
              let id = element.attributes.first(where: { $0.name == "id" && $0.namespace.isEmpty })?.value,
              let type = element.attributes.first(where: { $0.name == "type" && $0.namespace.isEmpty })?.value
        else { return nil }
        switch type {
        case "get", "set": isRequest = true
        case "result", "error": isRequest = false
        default: return nil
        }
        let direction = source?.direction
        let other = direction.map { $0 == .incoming ? LogDirection.outgoing : .incoming }
        ownKey = PairKey(id: id, session: source?.session, direction: direction)
        responseKey = PairKey(id: id, session: source?.session, direction: other)
    }
}
