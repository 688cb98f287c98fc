#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Prints nothing; the search ends at the first stanza that counts (`-q`).
final class QuietSink: SearchSink {
    let evaluation: Evaluation
    var stopsAtFirstMatch: Bool { true }

    init(invert: Bool) {
        evaluation = .test(invert: invert)
    }
}
