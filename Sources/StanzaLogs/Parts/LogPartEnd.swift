#if canImport(StanzaXML)
import StanzaXML
#endif

/// The end of a part of a log read on its own: where a reader may stop so
/// that a reader started at the next line reads on as it would.
extension LogReader {
    /// Whether every start tag waiting is of a channel that logs whole stanzas
    /// (never reported alone).
    var waitingTagsMayBeLetGo: Bool {
        for case .startTag(let waiting) in queue where existingChannel(for: waiting.key)?.logsWholeStanzas != true { return false }
        return true
    }

    /// The end of a part's bytes (a parallel search): start tags still waiting
    /// for their stanza that would never be reported alone (their channel logs
    /// whole stanzas) are let go, and the stanzas queued behind them handed over,
    /// as one reader of the whole log hands them over later, in the same order.
    /// A waiting tag could still match a whole stanza of the next part, which
    /// one reader would then not note as the last whole one: the tags are kept
    /// in ``cutLog``, and ``LogCutState`` rejects a next part that logs one.
    /// Also notes the state the reader hands on (``handover``).
    public func settleAtCut() {
        guard recordsCuts else { return }
        defer { cutLog.end = handover }
        guard held == nil, !isStopped else { return }
        readBatch()
        guard waitingTagsMayBeLetGo else { return }
        for case .startTag(let waiting) in queue {
            waiting.tag.withUnsafeBufferPointer { tag in
                cutLog.waiting.append((waiting.key, cutLog.keep(tag), waiting.until))
            }
        }
        flushQueue(all: true)
    }
}

extension LogReader {
    /// Whether a reader started afresh here, mid-log (``startsMidLog``) with the
    /// format this one reads, reads on as this one does — as long as it does not
    /// find that it ``dependsOnEarlierLines``: the last line is whole, the format is
    /// known and its parser holds nothing from earlier lines, no stanza is partly
    /// read in any direction of any session (nor damage being skipped), no start
    /// tag waits for its stanza. (What the parser carries and the streams'
    /// namespaces are handed on: ``handover``.)
    public var isAtCleanCut: Bool { cleanCutTrouble == nil }

    /// As ``isAtCleanCut``: `nil` if the reader is at a clean cut, else why not
    /// (reported with `STANZAQ_DEBUG_PARTS`).
    public var cleanCutTrouble: String? { cleanCutTrouble(lettingGoOfWaitingTags: false) }

    /// As ``cleanCutTrouble``; `lettingGo`: start tags waiting that
    /// ``settleAtCut()`` would let go are no trouble.
    func cleanCutTrouble(lettingGoOfWaitingTags lettingGo: Bool) -> String? {
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
