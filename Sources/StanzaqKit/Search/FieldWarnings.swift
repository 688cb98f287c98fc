#if canImport(StanzaQuery)
import StanzaQuery
#endif

extension SearchOptions {
    /// What is said once per input about the fields (`--fields`) and the
    /// `--direction` asked for that the input cannot have (stanzaq(1), LOGS):
    /// XML input has only a line; only archive rows have columns, and they have
    /// no direction. `format`: the log's format, `nil` for XML input. Warnings
    /// only: the fields are printed empty, and the stanzas are left out.
    func inputWarnings(file: String, format: LogFormat?, envelope: Envelope? = nil) -> [Diagnostic] {
        let shown = file.shownFileName
        var warnings: [Diagnostic] = []
        let archive = format == .json || format == .tsv
        let missing = fields.filter { field in
            switch field {
            // (Any input may hold a bind result.)
            case .line, .jid: return false
            case .time, .direction, .session: return format == nil && envelope == nil
            case .column: return !archive && envelope == nil
            }
        }
        if !missing.isEmpty {
            let names = missing.map { "'\($0.key)'" }.joined(separator: ", ")
            let what = format.map { "a \($0.rawValue) log" } ?? "XML input"
            let has = format == nil ? "it has only 'line'" : "only archive rows have columns"
            warnings.append(.warning("\(shown): \(what) has no field\(missing.count > 1 ? "s" : "") \(names) (\(has)): printed empty"))
        }
        if let direction, format == nil || archive {
            let what = format == nil ? "XML input has" : "archive rows have"
            warnings.append(.warning("\(shown): \(what) no direction: --direction \(direction.rawValue) selects none of their stanzas"))
        }
        return warnings
    }
}
