#if canImport(StanzaXML)
import StanzaXML
#endif

/// Handing off: a reader stops before the log's end, and a reader started at
/// the next line (``LogCheckpoint/init(unknownPastAt:format:handover:)``) reads on.
extension LogReader {
    /// Whether every start tag waiting is of a channel that logs whole stanzas
    /// (never reported alone).
    var waitingTagsMayBeLetGo: Bool {
        for case .startTag(let waiting) in queue where existingChannel(for: waiting.key)?.logsWholeStanzas != true { return false }
        return true
    }

    /// The reader stops here and a reader started at the next line reads on:
    /// start tags still waiting for their stanza that would never be reported
    /// alone (their channel logs whole stanzas) are let go, and the stanzas
    /// queued behind them handed over, as one reader of the whole log hands
    /// them over later, in the same order. A waiting tag could still match a
    /// whole stanza logged after this line, which one reader would then not
    /// note as the last whole one: the tags are kept in the ``ledger``, which
    /// ``LogHistory`` checks against the next reader's. Also notes the
    /// ``handover`` in the ledger. (Only a reader that keeps a ledger hands off.)
    public func handOff() {
        guard ledger != nil else { return }
        defer { ledger?.end = handover }
        guard held == nil, !isStopped else { return }
        readBatch()
        guard waitingTagsMayBeLetGo else { return }
        for case .startTag(let waiting) in queue {
            waiting.tag.withUnsafeBufferPointer { tag in ledger?.noteWaiting(waiting.key, tag, until: waiting.until) }
        }
        flushQueue(all: true)
    }

    /// Whether a reader started here from this one's ``handover``, its past
    /// unknown, reads on as this one does — as long as it does not find that it
    /// ``dependsOnUnknownPast``: the last line is whole, the format is known and
    /// its parser holds nothing from earlier lines, no stanza is partly read in
    /// any direction of any session (nor damage being skipped), no start tag
    /// waits for its stanza.
    public var canHandOff: Bool { handOffTrouble == nil }

    /// As ``canHandOff``: `nil` if the reader can hand off here, else why not
    /// (reported with `STANZAQ_DEBUG_PARTS`).
    public var handOffTrouble: String? { handOffTrouble(lettingGoOfWaitingTags: false) }

    /// As ``handOffTrouble``; `lettingGo`: start tags waiting that
    /// ``handOff()`` would let go are no trouble.
    func handOffTrouble(lettingGoOfWaitingTags lettingGo: Bool) -> String? {
        if isStopped { return "stopped" }
        if !pendingLine.isEmpty || skippingLongLine { return "a line not read to its end" }
        if !undetected.isEmpty || parser == nil { return "the format not detected" }
        if !batch.isEmpty || lookahead != nil { return "records held" }
        if let parser, parser.handover == nil { return "the parser holds what it cannot hand on" }
        if held != nil || !queue.isEmpty && !(lettingGo && waitingTagsMayBeLetGo) { return "a start tag waits for its stanza" }
        for channel in channels.values where !channel.isAtRest {
            return "a stanza partly read, or damage skipped"
        }
        return nil
    }
}
