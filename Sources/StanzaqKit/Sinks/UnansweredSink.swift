#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The selected `iq` requests (`get`, `set`) that no response (`result`,
/// `error`) answers, printed whole at the end of the search, in input order
/// (`--unanswered`, stanzaq(1)).
///
/// A response answers the oldest request still unanswered that has its `id`
/// and, where a log tells them, its session and the other direction — in the
/// same input or a later one, so that a request at the end of one log file is
/// answered at the start of the next. Every stanza is looked at for responses,
/// also those the query does not select and those `--direction` leaves out.
///
/// Memory holds the requests not yet answered: those a search prints.
final class UnansweredSink: SearchSink {
    let formatter: RecordFormatter
    let output: Output
    let evaluation: Evaluation
    var needsWholeStanzas: Bool { true }
    var wantsMoreStanzas: Bool { true }
    var seesEitherDirection: Bool { true }

    /// The requests not yet answered, by the order they came in.
    private var pending: [Int: Request] = [:]
    /// The order numbers of the requests not yet answered, by the key of their response, oldest first.
    private var awaiting: [PairKey: [Int]] = [:]
    private var ordinal = 0

    private struct Request {
        var element: Element
        var place: StanzaPlace
    }

    init(formatter: RecordFormatter, output: Output, invert: Bool) {
        self.formatter = formatter
        self.output = output
        evaluation = .test(invert: invert)
    }

    /// How many requests were printed: the search found something only if one was.
    var printedCount: Int? { printed }
    private var printed = 0

    func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        guard let iq = IQ(element, stanza.source) else { return }
        if iq.isRequest {
            ordinal += 1
            pending[ordinal] = Request(element: element, place: stanza)
            awaiting[iq.responseKey, default: []].append(ordinal)
        } else {
            answer(iq)
        }
    }

    func passed(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        guard let iq = IQ(element, stanza.source), !iq.isRequest else { return }
        answer(iq)
    }

    /// Forgets the oldest request the response `iq` answers, if one awaits it.
    private func answer(_ iq: IQ) {
        guard var waiting = awaiting[iq.ownKey], !waiting.isEmpty else { return }
        pending[waiting.removeFirst()] = nil
        awaiting[iq.ownKey] = waiting.isEmpty ? nil : waiting
    }

    func endSearch(count: Int) throws(OutputError) {
        for number in pending.keys.sorted() {
            guard let request = pending[number] else { continue }
            try output.writeRecord {
                formatter.writeStanza(file: request.place.file, stanza: request.place.number, source: request.place.source,
                                      element: request.element, into: &$0)
            }
            try output.endStanza()
            printed += 1
        }
        pending.removeAll()
        awaiting.removeAll()
    }

    func endStanza() throws(OutputError) {}
    func flush() throws(OutputError) { try output.flush() }
}
