/// What a search read and found, for `--stats` (stanzaq(1), OPTIONS): counted
/// alike whatever the threads — each input once, each stanza once (not again
/// where a log is read again from its start), damage as it is reported.
public struct SearchStatistics: Equatable, Sendable {
    public var inputs = 0
    public var inputsWithResults = 0
    /// The stanzas read, and those that counted (had a result, or with `-v` none).
    public var stanzas = 0
    public var stanzasCounted = 0
    public var damageReports = 0
    /// The bytes of the inputs as read (compressed input: its compressed bytes).
    public var bytes = 0

    public init() {}

    static func += (total: inout SearchStatistics, more: SearchStatistics) {
        total.inputs += more.inputs
        total.inputsWithResults += more.inputsWithResults
        total.stanzas += more.stanzas
        total.stanzasCounted += more.stanzasCounted
        total.damageReports += more.damageReports
        total.bytes += more.bytes
    }

    /// An input searched to its end, `count` of whose stanzas counted.
    mutating func noteInput(count: Int) {
        inputs += 1
        if count > 0 { inputsWithResults += 1 }
        stanzasCounted += count
    }

    /// The lines `--stats` writes on standard error, as ripgrep's `--stats` (a
    /// number, then what it counts), and the time the search took.
    public func lines(seconds: Double) -> [String] {
        func counted(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        return [
            counted(inputs, "input searched", "inputs searched"),
            counted(inputsWithResults, "input with results", "inputs with results"),
            counted(stanzas, "stanza read", "stanzas read"),
            counted(stanzasCounted, "stanza with results", "stanzas with results"),
            counted(damageReports, "damage report", "damage reports"),
            counted(bytes, "byte read", "bytes read"),
            Self.milliseconds(seconds) + " seconds",
        ]
    }

    /// `seconds` to the millisecond: `0.042`.
    static func milliseconds(_ seconds: Double) -> String {
        let total = Int((max(seconds, 0) * 1000).rounded())
        let fraction = String(total % 1000)
        return "\(total / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
