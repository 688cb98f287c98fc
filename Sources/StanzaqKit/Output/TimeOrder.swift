#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The records of a search held until its end and written in the order of
/// their stanzas' times (`--merge`, stanzaq(1)): several logs read one after
/// another come out on one time line, as `sort -m` would put them, ties in
/// input order. What is held is the output, as sort(1) holds its input.
final class TimeOrder {
    /// The time of the stanza whose records are being written (`nil`: before any time).
    var key: DateTime?
    private var entries: [(key: DateTime?, order: Int, bytes: [UInt8])] = []

    /// Keeps the records of the current stanza.
    func keep(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        entries.append((key, entries.count, bytes))
    }

    /// The records kept, in time order: those without a time first, then by
    /// time, each tie in the order the records came.
    func ordered() -> [UInt8] {
        let sorted = entries.sorted { Self.precedes(($0.key, $0.order), ($1.key, $1.order)) }
        entries = []
        return sorted.flatMap(\.bytes)
    }

    /// Whether what has time `first.key` and came `first.order`-th goes before
    /// `second`: no time first, then by time, a tie in the order they came.
    static func precedes(_ first: (key: DateTime?, order: Int), _ second: (key: DateTime?, order: Int)) -> Bool {
        switch (first.key, second.key) {
        case (nil, nil): return first.order < second.order
        case (nil, _): return true
        case (_, nil): return false
        case (let a?, let b?): return a < b || (a == b && first.order < second.order)
        }
    }
}
