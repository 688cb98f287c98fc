import StanzaQuery

/// Each stanza that counts printed whole, and, for an `iq`, its partner: the
/// request a response (`result`, `error`) answers, or the response to a request
/// (`get`, `set`) — the `iq` of the other kind with the same `id`, in a log
/// from the other direction and the same session where the log tells them
/// (`--pair`, stanzaq(1)).
///
/// Memory stays bounded: a request is remembered for ``window`` stanzas after it,
/// and the response to a selected request is looked for in the ``window``
/// stanzas after it; a partner further away is not printed.
final class PairSink: SearchSink {
    /// How many stanzas back a request is remembered, and forward a response looked for.
    static let window = 10_000

    let evaluation: Evaluation
    var needsWholeStanzas: Bool { true }
    var wantsMoreStanzas: Bool { !awaited.isEmpty }

    private let groups: StanzaGroups
    private let window: Int

    /// The requests of the last ``window`` stanzas by what identifies their
    /// response, not yet answered.
    private var requests: [PairKey: Request] = [:]
    /// The requests in the order they came, to forget them: (ordinal, key).
    private var requestOrder: [(Int, PairKey)] = []
    private var requestOrderStart = 0
    /// The selected requests whose response is still to come: key → the request's ordinal.
    private var awaited: [PairKey: Int] = [:]
    private var ordinal = 0

    private struct Request {
        var element: Element
        var place: StanzaPlace
        var ordinal: Int
        var printed: Bool
    }

    init(formatter: RecordFormatter, output: Output, invert: Bool, window: Int = PairSink.window) {
        groups = StanzaGroups(formatter: formatter, output: output)
        self.window = window
        evaluation = .test(invert: invert)
    }

    func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        ordinal += 1
        forgetOld()
        guard let iq = IQ(element, stanza.source) else {
            try groups.print(element, in: stanza, ordinal: ordinal, context: false)
            return
        }
        if iq.isRequest {
            try groups.print(element, in: stanza, ordinal: ordinal, context: false)
            remember(element, stanza, iq, printed: true)
            awaited[iq.responseKey] = ordinal
            return
        }
        // A response: its request first, unless it was printed already.
        awaited[iq.ownKey] = nil
        var partner: Int?
        if let request = requests.removeValue(forKey: iq.ownKey) {
            partner = request.ordinal
            if !request.printed {
                try groups.print(request.element, in: request.place, ordinal: request.ordinal, context: true)
            }
        }
        try groups.print(element, in: stanza, ordinal: ordinal, context: false, follows: partner)
    }

    func passed(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        ordinal += 1
        forgetOld()
        guard let iq = IQ(element, stanza.source) else { return }
        if iq.isRequest {
            remember(element, stanza, iq, printed: false)
        } else {
            requests[iq.ownKey] = nil
            if let request = awaited.removeValue(forKey: iq.ownKey) {
                try groups.print(element, in: stanza, ordinal: ordinal, context: true, follows: request)
            }
        }
    }

    private func remember(_ element: Element, _ place: StanzaPlace, _ iq: IQ, printed: Bool) {
        requests[iq.responseKey] = Request(element: element, place: place, ordinal: ordinal, printed: printed)
        requestOrder.append((ordinal, iq.responseKey))
    }

    /// Forgets the requests, and stops awaiting the responses, of the stanzas more
    /// than ``window`` before this one.
    private func forgetOld() {
        let oldest = ordinal - window
        while requestOrderStart < requestOrder.count, requestOrder[requestOrderStart].0 < oldest {
            let (number, key) = requestOrder[requestOrderStart]
            if requests[key]?.ordinal == number { requests[key] = nil }
            if awaited[key] == number { awaited[key] = nil }
            requestOrderStart += 1
        }
        if requestOrderStart > 1024 && requestOrderStart * 2 > requestOrder.count {
            requestOrder.removeFirst(requestOrderStart)
            requestOrderStart = 0
        }
    }

    /// How many requests the sink holds (those of the last ``window`` stanzas at most).
    var heldStanzas: Int { requests.count }

    func endInput(_ file: String, count: Int) throws(OutputError) {
        requests.removeAll()
        requestOrder.removeAll()
        requestOrderStart = 0
        awaited.removeAll()
        ordinal = 0
        groups.endInput()
    }

    func endStanza() throws(OutputError) { try groups.output.endStanza() }
    func flush() throws(OutputError) { try groups.output.flush() }
}

/// What pairs an `iq` with its partner: its `id`, and where a log tells them its
/// session and direction (the response goes the other way).
struct PairKey: Hashable {
    var id: String
    var session: String?
    /// The direction of the response.
    var direction: LogDirection?
}

/// An `iq` stanza, as `--pair` sees it.
private struct IQ {
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
