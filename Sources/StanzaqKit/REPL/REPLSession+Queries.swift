#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Queries and listings (stanzaq(1), REPL).
extension REPLSession {

    func list() throws(OutputError) {
        if stanzas.isEmpty { try say("no stanzas loaded") }
        try forEachStanza { (index: Int, element: Element) throws(OutputError) -> Bool in
            if Interruption.isRequested { return false }
            guard isShown(index) else { return true }
            let mark = index == current ? "*" : " "
            let details = ["id", "from", "type"].compactMap { key in
                element.attribute(key).map { "\(key)=\($0)" }
            }.joined(separator: " ")
            let fields = stanzas[index].fields.flatMap { shownFields.isEmpty ? nil : ":" + Self.fieldsText($0, shownFields) } ?? ""
            try say("\(mark) \(index + 1)\(fields)\t<\(element.qualifiedName)>" + (details.isEmpty ? "" : "\t" + details))
            return true
        }
    }

    /// Whether `:all` and `:list` show stanza `index` (from 0): `:direction` keeps
    /// the stanzas a log shows going that way, as `--direction` does.
    func isShown(_ index: Int) -> Bool {
        direction.map { stanzas[index].fields?.direction == $0 } ?? true
    }

    /// A log stanza's `fields` as records lay them out (stanzaq(1), "Prefixes"):
    /// the line and a colon, then the others, tab-separated; empty where the
    /// log does not tell.
    static func fieldsText(_ source: StanzaSource, _ fields: [LogFieldName]) -> String {
        let texts = fields.filter { $0 != .line }.map { field in
            var text: [UInt8] = []
            field.value(in: source)?.writeText(into: &text, options: RenderOptions())
            return String(decoding: text, as: UTF8.self).escapingControlCharacters
        }
        return (fields.contains(.line) ? "\(source.line):" : "") + texts.joined(separator: "\t")
    }

    /// Evaluates a query on the current stanza, or with `all` on every stanza (with
    /// the file and stanza number before each result).
    func evaluate(_ text: String, all prefixes: Bool) throws(OutputError) {
        let query: Query
        do {
            // The session's arguments serve every query: each takes the ones it has specifiers for.
            let syntax = try QuerySyntax(parsing: text)
            query = try Query(syntax: syntax, arguments: Array(arguments.prefix(syntax.formatSpecifierCount)), options: options)
        } catch {
            try fail(Diagnostic("\(error)"))
            return
        }
        // Evaluated as a search evaluates (one query, the session's format), printed by its sinks.
        var search = SearchOptions(queries: [query])
        search.firstOnly = firstOnly
        search.format = format
        search.render = render
        search.withFilename = prefixes
        search.withStanzaNumber = prefixes
        // Once a log is loaded (or with `:fields`), `:all` prints every stanza's fields, as `--fields` does.
        if prefixes && !shownFields.isEmpty { search.fields = shownFields }
        let sink = search.makeSink(output: output)
        let evaluator = StanzaEvaluator(options: search, diagnostics: diagnostics)
        defer { if evaluator.failed { failed = true } }
        var interrupted = false
        let each = { [self] (index: Int?, element: Element) throws(OutputError) -> Bool in
            // Ctrl-C ends `:all` between stanzas, as it ends a search (on a terminal
            // the output is line-buffered: what was found so far is shown, no more).
            if Interruption.isRequested {
                interrupted = true
                return false
            }
            if let index, !isShown(index) { return true }
            // The current stanza is named by no input (its errors have no place).
            let place = StanzaPlace(file: index.map { stanzas[$0].source } ?? "", number: index.map { $0 + 1 } ?? 0,
                                    source: index.flatMap { stanzas[$0].fields })
            _ = try evaluator.handle(element, in: place, sink: sink)
            try sink.endStanza()
            return true
        }
        if prefixes {
            try forEachStanza { (index: Int, element: Element) throws(OutputError) -> Bool in try each(index, element) }
        } else {
            guard current != nil else { _ = try noStanza(); return }
            guard let element = currentStanza else { return }
            _ = try each(nil, element)
        }
        try sink.flush()
        if interrupted { try note("(interrupted)") }
        if !evaluator.matched && !prefixes {
            try note("(no result)")
            if isTerminal, let element = currentStanza, let hint = noResultHint(query, on: element) { try note(hint.remark) }
        }
    }

    /// What a near query finds in the current stanza (``NoResultHint``), as the
    /// command line says it after a search without result.
    private func noResultHint(_ query: Query, on element: Element) -> NoResultHint? {
        NoResultHint.hint(for: [query.syntax], names: {
            var names = InputNames()
            names.add(element)
            return names
        }, hasResult: { text in
            firstValue(of: text, in: element) != nil
        }, firstValue: { text in
            firstValue(of: text, in: element)
        })
    }

    /// The first result of the query `text` on `element`, as text; `nil` if it has none.
    private func firstValue(of text: String, in element: Element) -> String? {
        guard let syntax = try? QuerySyntax(parsing: text),
              let query = try? Query(syntax: syntax, arguments: Array(arguments.prefix(syntax.formatSpecifierCount)), options: options)
        else { return nil }
        var search = SearchOptions(queries: [query])
        search.firstOnly = true
        let output = Output.inMemory()
        let evaluator = StanzaEvaluator(options: search, diagnostics: .inMemory())
        let sink = ResultSink(formatter: search.formatter, output: output, firstOnly: true)
        _ = try? evaluator.handle(element, in: StanzaPlace(file: "", number: 0, source: nil), sink: sink)
        try? output.flush()
        return evaluator.matched ? String(decoding: output.contents.prefix { $0 != 0x0A }, as: UTF8.self) : nil
    }

}
