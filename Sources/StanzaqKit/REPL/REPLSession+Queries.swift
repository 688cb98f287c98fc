import StanzaQuery

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
            let fields = stanzas[index].fields.map { ":" + Self.fieldsText($0) } ?? ""
            try say("\(mark) \(index + 1)\(fields)\t<\(element.qualifiedName)>" + (details.isEmpty ? "" : "\t" + details))
            return true
        }
    }

    /// Whether `:all` and `:list` show stanza `index` (from 0): `:direction` keeps
    /// the stanzas a log shows going that way, as `--direction` does.
    func isShown(_ index: Int) -> Bool {
        direction.map { stanzas[index].fields?.direction == $0 } ?? true
    }

    /// A log stanza's fields as `:all` prefixes them: `LINE:TIME:DIRECTION:SESSION`,
    /// empty where the log does not tell.
    /// The fields as records lay them out (stanzaq(1), "Prefixes"): the line and a
    /// colon, then the time, direction and session, tab-separated.
    static func fieldsText(_ source: StanzaSource) -> String {
        let texts = LogFieldName.known.map { field in
            var text: [UInt8] = []
            field.value(in: source)?.writeText(into: &text, options: RenderOptions())
            return String(decoding: text, as: UTF8.self).escapingControlCharacters
        }
        return texts[0] + ":" + texts.dropFirst().joined(separator: "\t")
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
        var formatter = RecordFormatter(format: format, render: render, withFilename: prefixes, withStanzaNumber: prefixes)
        // Once a log is loaded, `:all` prints every stanza's log fields, as `--fields` does.
        if prefixes && hasLogFields { formatter.fields = LogFieldName.known }
        var any = false
        var interrupted = false
        let each = { [self] (index: Int?, element: Element) throws(OutputError) -> Bool in
            // Ctrl-C ends `:all` between stanzas, as it ends a search (on a terminal
            // the output is line-buffered: what was found so far is shown, no more).
            if Interruption.isRequested {
                interrupted = true
                return false
            }
            if let index, !isShown(index) { return true }
            let source = index.map { stanzas[$0].source } ?? "", number = index.map { $0 + 1 } ?? 0
            let fields = index.flatMap { stanzas[$0].fields }
            let results: [QueryValue]
            do {
                results = firstOnly ? (try query.findFirst(in: element)).map { [$0] } ?? [] : try query.find(in: element)
            } catch {
                let message = "query '\(text)': \(error)"
                try fail(index == nil ? Diagnostic(message) : Diagnostic(.stanza(file: source, number: number), message))
                return true
            }
            for value in results {
                any = true
                try output.writeRecord {
                    if format == .tsv {
                        formatter.writeRow(file: source, stanza: number, source: fields, values: [value], into: &$0)
                    } else {
                        formatter.writeRecord(file: source, stanza: number, source: fields, value: value, into: &$0)
                    }
                }
            }
            try output.endStanza()
            return true
        }
        if prefixes {
            try forEachStanza { (index: Int, element: Element) throws(OutputError) -> Bool in try each(index, element) }
        } else {
            guard current != nil else { _ = try noStanza(); return }
            guard let element = currentStanza else { return }
            _ = try each(nil, element)
        }
        if interrupted { try note("(interrupted)") }
        if !any && !prefixes { try note("(no result)") }
    }

}
