#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Evaluates a search's queries on one stanza and hands the sink what it asks
/// for (``SearchSink/evaluation``): every result, a row, or whether the stanza
/// counts, with `--where`, `--each`, `-v` and `--first` applied. The searcher
/// calls it for every stanza of every input; it decides what counts as a match,
/// and reports the errors of the queries.
final class StanzaEvaluator {
    let options: SearchOptions
    let diagnostics: Diagnostics

    // The state read and changed for every stanza is not checked for exclusive
    // access at run time: nothing accesses it re-entrantly, and the checks were
    // several calls a stanza.
    /// Whether some stanza counted (had a result, or, inverted, none).
    @exclusivity(unchecked) var matched = false
    /// Whether an error was reported.
    @exclusivity(unchecked) var failed = false
    /// Whether a message named a stanza by its number (which a search that
    /// starts inside a log does not know).
    @exclusivity(unchecked) var reportedStanzaNumber = false

    init(options: SearchOptions, diagnostics: Diagnostics) {
        self.options = options
        self.diagnostics = diagnostics
    }

    /// Evaluates what the sink asks for on one stanza and hands it over; returns
    /// whether the stanza counts (has a result, or, inverted, none).
    /// `decided`: whether a query has a result, already known (see ``wholeStanzaTest(for:record:)``).
    @inline(__always)
    func handle<Sink: SearchSink>(_ stanza: Element, in place: StanzaPlace, sink: Sink,
                                          decided: Bool? = nil) throws(OutputError) -> Bool {
        if options.each == nil, !options.wheres.isEmpty, !(try isSelected(stanza, in: place, sink: sink)) {
            if case .test = sink.evaluation { try sink.passed(stanza, in: place) }
            return false
        }
        switch sink.evaluation {
        case .results(let firstOnly):
            var hasResult = false
            for query in options.queries where firstOnly {
                let value: QueryValue?
                do {
                    value = try query.findFirst(in: stanza, strict: options.strict)
                } catch {
                    try reportEvaluation(error, of: query, in: place, sink: sink)
                    continue
                }
                if let value {
                    hasResult = true
                    try sink.result(value, in: place)
                }
            }
            for query in options.queries where !firstOnly {
                let values: [QueryValue]
                do {
                    values = try query.find(in: stanza, strict: options.strict)
                } catch {
                    try reportEvaluation(error, of: query, in: place, sink: sink)
                    continue
                }
                for value in values {
                    hasResult = true
                    try sink.result(value, in: place)
                }
            }
            if hasResult { matched = true }
            return hasResult

        case .rows:
            guard let each = options.each else {
                guard try makeRow(on: stanza, in: place, sink: sink) else { return false }
                matched = true
                try sink.row(row, in: place)
                return true
            }
            var hasResult = false
            for element in try contexts(each, in: stanza, place: place, sink: sink) {
                guard try makeRow(on: element, in: place, sink: sink) else { continue }
                hasResult = true
                try sink.row(row, in: place)
            }
            if hasResult { matched = true }
            return hasResult

        case .test(let invert):
            // Every query is evaluated, so that each one's errors are reported.
            var hasResult = false
            if let each = options.each {
                for element in try contexts(each, in: stanza, place: place, sink: sink) {
                    if try test(element, in: place, sink: sink) { hasResult = true }
                }
            } else {
                if let decided { hasResult = decided } else { hasResult = try test(stanza, in: place, sink: sink) }
            }
            guard hasResult != invert else {
                try sink.passed(stanza, in: place)
                return false
            }
            matched = true
            try sink.counted(stanza, in: place)
            return true
        }
    }

    /// Fills ``row`` with the first result of each query on `context` (a stanza,
    /// or an element of `--each`); returns whether any query has one.
    @inline(__always)
    private func makeRow<Sink: SearchSink>(on context: Element, in place: StanzaPlace, sink: Sink) throws(OutputError) -> Bool {
        // Filled in place (emptying and appending again for every row was a noticeable cost).
        let queries = options.queries
        if row.count != queries.count { row = [QueryValue?](repeating: nil, count: queries.count) }
        var hasResult = false
        for index in queries.indices {
            do {
                row[index] = try queries[index].findFirst(in: context, strict: options.strict)
                if row[index] != nil { hasResult = true }
            } catch {
                row[index] = nil
                try reportEvaluation(error, of: queries[index], in: place, sink: sink)
            }
        }
        return hasResult
    }

    /// Whether any query has a result on `context` (every query is evaluated,
    /// so that each one's errors are reported).
    private func test<Sink: SearchSink>(_ context: Element, in place: StanzaPlace, sink: Sink) throws(OutputError) -> Bool {
        var hasResult = false
        for query in options.queries {
            do {
                if try query.check(in: context, strict: options.strict) { hasResult = true }
            } catch {
                try reportEvaluation(error, of: query, in: place, sink: sink)
            }
        }
        return hasResult
    }

    /// Whether every `--where` filter has a result on `context` (a stanza, or an
    /// element of `--each`). Each is evaluated until one has none, an error
    /// reported as a query's and taken for none.
    private func isSelected<Sink: SearchSink>(_ context: Element, in place: StanzaPlace, sink: Sink) throws(OutputError) -> Bool {
        for filter in options.wheres {
            do {
                if !(try filter.check(in: context, strict: options.strict)) { return false }
            } catch {
                try reportEvaluation(error, of: filter, in: place, sink: sink)
                return false
            }
        }
        return true
    }

    /// The elements `--each` selects in a stanza (its path gives elements only:
    /// the command line refuses an extraction there) that `--where` selects.
    private func contexts<Sink: SearchSink>(_ each: Query, in stanza: Element, place: StanzaPlace,
                                            sink: Sink) throws(OutputError) -> [Element] {
        let elements: [Element]
        do {
            elements = try each.find(in: stanza, strict: options.strict).compactMap {
                if case .element(let element) = $0 { return element } else { return nil }
            }
        } catch {
            try reportEvaluation(error, of: each, in: place, sink: sink)
            return []
        }
        if options.wheres.isEmpty { return elements }
        var selected: [Element] = []
        for element in elements where try isSelected(element, in: place, sink: sink) { selected.append(element) }
        return selected
    }

    /// The values of one row, kept between stanzas to spare an allocation each.
    @exclusivity(unchecked) private var row: [QueryValue?] = []

    /// Reports an error of `query` on one stanza, unless it repeats one reported
    /// before (a `~` filter given up, stanzaq(1), "Resource limits"): that one
    /// only makes the exit status 2.
    private func reportEvaluation<Sink: SearchSink>(_ error: EvaluationError, of query: Query, in place: StanzaPlace,
                                                    sink: Sink) throws(OutputError) {
        if error.reportedBefore {
            failed = true
            return
        }
        reportedStanzaNumber = true
        try report(.evaluating(query, file: place.file, stanza: place.number, error), sink: sink)
    }

    /// Writes out the records so far (so that they come before the message on a
    /// terminal), then reports.
    func report<Sink: SearchSink>(_ diagnostic: Diagnostic, sink: Sink) throws(OutputError) {
        failed = true
        try sink.flush()
        diagnostics.report(diagnostic)
    }
}
