/// What a mistyped name most likely meant, for "did you mean" in messages
/// (`--fields`, `--log`, the REPL's `:fields`).
public enum NameSuggestion {
    /// The name `name` is likely a typo of: one it starts, one that holds it
    /// (`strophe`: `libstrophe`; three letters or more), or one at most two
    /// edits away (for a name of three letters or more).
    public static func suggestion(for name: String, among names: [String]) -> String? {
        if let started = names.first(where: { $0.hasPrefix(name) }) { return started }
        if name.count >= 3, let holding = names.first(where: { $0.contains(name) }) { return holding }
        guard name.count >= 3 else { return nil }
        return names.map { ($0, editDistance(name, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// The Levenshtein distance between two short names.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
