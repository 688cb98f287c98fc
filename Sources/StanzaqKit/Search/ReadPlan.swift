#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// How much of each stanza a reader builds for a search: as deep as the queries
/// reach, only the children of the root they can reach, and, where the queries
/// decide at a stanza's start tag, whole only the stanzas that count.
struct ReadPlan {
    /// How many levels below a stanza's root are built (`nil`: all).
    var depth: Int?
    /// Which children of a stanza's root are built (`nil`: all).
    var children: ChildSelection?
    /// Whether a stanza whose root's start tag has just been read is built whole.
    var wholeStanzaTest: ((Element) -> Bool)?
    /// Whether elements are built with their attributes (not when no query reads any).
    var attributes = true
}

extension Searcher {
    /// The plan for reading an input for `sink`; `record` is told what the
    /// whole-stanza test found, for each stanza it decided.
    func readPlan<Sink: SearchSink>(for sink: Sink, record: @escaping (Element, Bool) -> Void) -> ReadPlan {
        // A redacted stanza is read whole: what the queries see is what it is
        // once redacted, and every JID in it is numbered, whatever the queries.
        if options.redaction != nil { return ReadPlan() }
        // (So is every stanza when the JIDs bound in sessions are looked for:
        // a bind result's JID is deeper than the queries may reach.)
        if options.tracksSessionJIDs { return ReadPlan() }
        var plan = ReadPlan(wholeStanzaTest: wholeStanzaTest(for: sink, record: record))
        if sink.needsWholeStanzas || unboundPrefixes.isWatching {
            // (With a whole-stanza test, only the stanzas that count are: it
            // decides which at their start tag, and nothing else of the others is built.)
            // (While a prefix of the queries' is still to be seen bound, a
            // declaration anywhere in a stanza counts.)
        } else if case .test = sink.evaluation {
            plan.depth = depthLimit(deciding: true)
            plan.children = childSelection(deciding: true)
            plan.attributes = readsAttributes
        } else {
            plan.depth = depthLimit(deciding: false)
            plan.children = childSelection(deciding: false)
            plan.attributes = readsAttributes
        }
        return plan
    }

    /// For a sink that prints whole only the stanzas that count (`-s`, `-v`),
    /// when the queries look at a stanza's start tag only: whether a stanza
    /// whose root's start tag has just been read counts, so that only those
    /// are built whole (most of the work of `-s '/<type=error>'` was
    /// building and freeing the whole tree of every stanza, to print one in
    /// hundreds). When every query was evaluated without error, `record` is told whether one
    /// had a result, and the searcher takes that answer for the stanza (the same,
    /// as ``Query/isDecidedByStartTag`` says) instead of evaluating again; after an
    /// error, the stanza is built whole and evaluated again, and the error
    /// reported there, in order.
    private func wholeStanzaTest<Sink: SearchSink>(for sink: Sink, record: @escaping (Element, Bool) -> Void)
        -> ((Element) -> Bool)? {
        guard sink.printsOnlyCountedStanzas, case .test(let invert) = sink.evaluation, options.each == nil,
              options.wheres.isEmpty, !unboundPrefixes.isWatching, options.queries.allSatisfy(\.isDecidedByStartTag)
        else { return nil }
        let queries = options.queries, strict = options.strict
        return { root in
            var hasResult = false
            for query in queries {
                do {
                    if try query.check(in: root, strict: strict) { hasResult = true }
                } catch {
                    return true
                }
            }
            record(root, hasResult)
            return hasResult != invert
        }
    }

    /// How deep the reader must build stanzas: as deep as the deepest query
    /// reaches; when `deciding` whether there is a result (counting, testing:
    /// no element is printed), only as deep as the paths go.
    /// Which children of a stanza's root the reader builds (see ``ChildSelection``):
    /// all with `--each`, whose queries start below the elements its path reaches.
    private func childSelection(deciding: Bool) -> ChildSelection? {
        options.each == nil ? ChildSelection(queries: options.queries + options.wheres, deciding: deciding) : nil
    }

    /// Whether any query, `--where` filter or `--each` path may read an attribute
    /// (building them was a noticeable part of `-c '/$'` on small stanzas).
    private var readsAttributes: Bool {
        options.each != nil || (options.queries + options.wheres).contains(where: \.readsAttributes)
    }

    private func depthLimit(deciding: Bool) -> Int? {
        var deepest = 0
        for query in options.queries {
            guard let reach = deciding ? query.reachToDecide : query.reach else { return nil }
            deepest = max(deepest, reach)
        }
        // A --where filter only decides.
        for filter in options.wheres {
            guard let reach = filter.reachToDecide else { return nil }
            deepest = max(deepest, reach)
        }
        // With --each, the queries look below the elements its path reaches.
        if let each = options.each {
            guard let below = each.reachToDecide else { return nil }
            return below + deepest
        }
        return deepest
    }
}
