#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Each stanza that counts printed whole, and, for an `iq`, its partner: the
/// request a response (`result`, `error`) answers, or the response to a request
/// (`get`, `set`) — the `iq` of the other kind with the same `id`, in a log
/// from the other direction and the same session where the log tells them
/// (`--pair`, stanzaq(1)).
///
/// Memory stays bounded: a request is remembered for ``window`` stanzas after it,
/// and the response to a selected request is looked for in the ``window``
/// stanzas after it; a partner further away is not printed. The requests kept
/// hold at most about ``budget`` bytes: past it, the oldest are forgotten first.
final class PairSink: SearchSink {
    /// How many stanzas back a request is remembered, and forward a response looked for.
    static let window = 10_000
    /// About how many bytes the remembered requests may hold.
    static let budget = 32 << 20

    let evaluation: Evaluation
    var needsWholeStanzas: Bool { true }
    var wantsMoreStanzas: Bool { !awaited.isEmpty }
    var seesEitherDirection: Bool { true }

    private let groups: StanzaGroups
    private let window: Int
    private let budget: Int
    /// The approximate size of the requests remembered.
    private var heldBytes = 0

    /// The requests of the last ``window`` stanzas by what identifies their
    /// response, not yet answered.
    private var requests: [PairKey: Request] = [:]
    /// The requests in the order they came, to forget them: (ordinal, key).
    private var requestOrder: [(Int, PairKey)] = []
    private var requestOrderStart = 0
    /// The selected requests whose response is still to come: key → the request's ordinal.
    private var awaited: [PairKey: Int] = [:]
    /// The selected requests in the order they came, to stop awaiting: (ordinal, key).
    private var awaitedOrder: [(Int, PairKey)] = []
    private var awaitedOrderStart = 0
    private var ordinal = 0

    private struct Request {
        var element: Element
        var place: StanzaPlace
        var ordinal: Int
        var printed: Bool
        var size: Int
    }

    init(formatter: RecordFormatter, output: Output, invert: Bool, window: Int = PairSink.window, budget: Int = PairSink.budget) {
        groups = StanzaGroups(formatter: formatter, output: output)
        self.window = window
        self.budget = budget
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
            awaitedOrder.append((ordinal, iq.responseKey))
            return
        }
        // A response: its request first, unless it was printed already.
        awaited[iq.ownKey] = nil
        var partner: Int?
        if let request = forget(iq.ownKey) {
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
            forget(iq.ownKey)
            if let request = awaited.removeValue(forKey: iq.ownKey) {
                try groups.print(element, in: stanza, ordinal: ordinal, context: true, follows: request)
            }
        }
    }

    private func remember(_ element: Element, _ place: StanzaPlace, _ iq: IQ, printed: Bool) {
        forget(iq.responseKey)
        let size = Self.approximateSize(of: element)
        requests[iq.responseKey] = Request(element: element, place: place, ordinal: ordinal, printed: printed, size: size)
        heldBytes += size
        requestOrder.append((ordinal, iq.responseKey))
        forgetOld()
    }

    /// Forgets the request remembered under `key`, and returns it.
    @discardableResult
    private func forget(_ key: PairKey) -> Request? {
        guard let request = requests.removeValue(forKey: key) else { return nil }
        heldBytes -= request.size
        return request
    }

    /// Forgets the requests, and stops awaiting the responses, of the stanzas more
    /// than ``window`` before this one, and the oldest requests while they hold
    /// more than ``budget``.
    private func forgetOld() {
        let oldest = ordinal - window
        while requestOrderStart < requestOrder.count,
              requestOrder[requestOrderStart].0 < oldest || (heldBytes > budget && requestOrder[requestOrderStart].0 < ordinal) {
            let (number, key) = requestOrder[requestOrderStart]
            if requests[key]?.ordinal == number { forget(key) }
            requestOrderStart += 1
        }
        if requestOrderStart > 1024 && requestOrderStart * 2 > requestOrder.count {
            requestOrder.removeFirst(requestOrderStart)
            requestOrderStart = 0
        }
        while awaitedOrderStart < awaitedOrder.count, awaitedOrder[awaitedOrderStart].0 < oldest {
            let (number, key) = awaitedOrder[awaitedOrderStart]
            if awaited[key] == number { awaited[key] = nil }
            awaitedOrderStart += 1
        }
        if awaitedOrderStart > 1024 && awaitedOrderStart * 2 > awaitedOrder.count {
            awaitedOrder.removeFirst(awaitedOrderStart)
            awaitedOrderStart = 0
        }
    }

    /// How many requests the sink holds (those of the last ``window`` stanzas at most).
    var heldStanzas: Int { requests.count }

    /// About how many bytes an element holds: its names and values, and a little
    /// for each node.
    private static func approximateSize(of element: Element) -> Int {
        var size = 64 + element.name.utf8.count
        for attribute in element.attributes { size += 32 + attribute.name.utf8.count + attribute.value.utf8.count }
        for child in element.children {
            switch child {
            case .element(let child): size += approximateSize(of: child)
            case .text(let text): size += 32 + text.utf8.count
            }
        }
        return size
    }

    func endInput(_ file: String, count: Int) throws(OutputError) {
        heldBytes = 0
        requests.removeAll()
        requestOrder.removeAll()
        requestOrderStart = 0
        awaited.removeAll()
        awaitedOrder.removeAll()
        awaitedOrderStart = 0
        ordinal = 0
        groups.endInput()
    }

    func endStanza() throws(OutputError) { try groups.output.endStanza() }
    func flush() throws(OutputError) { try groups.output.flush() }
}
