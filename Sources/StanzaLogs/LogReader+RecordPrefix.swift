#if canImport(StanzaXML)
import StanzaXML
#endif

/// How a log reader tells a record from a line that only looks like one
/// (stanzaq(1), LOGS, "Records"): the learned prefix, and the look-ahead
/// where the prefix has no time stamp.
extension LogReader {
    // MARK: - Record prefixes

    enum RecordLineRole { case record, text, held }

    /// What a line that looks like a record is: text if its prefix is not the
    /// log's; held (``lookahead``, which reads it once it knows) where the prefix
    /// cannot tell it from text of the stanza left open; a record otherwise.
    func role(ofRecordLine line: UnsafeBufferPointer<UInt8>, number: Int) -> RecordLineRole {
        guard let learned = recordPrefix else {
            let prefix = RecordPrefix(of: line)
            recordPrefix = prefix
            ledger?.recordPrefix = prefix
            // Kept until the next record line says whether it had words before the prefix.
            if !prefix.hasTime { firstRecordLine = Array(line) }
            return .record
        }
        if let first = firstRecordLine {
            firstRecordLine = nil
            if let prefix = first.withUnsafeBufferPointer({ RecordPrefix.replacing(learned, firstLine: $0, by: line) }) {
                recordPrefix = prefix
                ledger?.recordPrefix = prefix
                return .record
            }
        }
        guard learned.starts(line) else { return .text }
        // (Only a record of whole stanzas ends the stanza left open: in a stream's
        // records, it goes on in its channel's next record.)
        guard !learned.hasTime, record?.shape == .wholeStanzas else { return .record }
        readBatch()
        guard !isStopped, let current = record, !current.damaged, let channel = current.channel, channel.openDepth > 0 else {
            return .record
        }
        lookahead = RecordLookahead(depth: channel.openDepth)
        _ = hold(line, number: number)
        return .held
    }

    /// Holds a line for ``lookahead``; once it decides, reads the lines held. False:
    /// the line was taken.
    func hold(_ line: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
        switch lookahead!.hold(line, number: number) {
        case .undecided: break
        case .text(let count): releaseLookahead(asText: count)
        case .record: releaseLookahead(asText: 0)
        }
        return false
    }

    /// Reads the lines held, the first `count` of them as text of the open stanza.
    func releaseLookahead(asText count: Int) {
        guard let held = lookahead?.lines else { return }
        lookahead = nil
        for (index, entry) in held.enumerated() where !isStopped {
            entry.bytes.withUnsafeBufferPointer { line in
                if index < count {
                    interpretParsed(ParsedLine(kind: .more, payload: 0..<line.contentEnd), line, number: entry.number)
                } else if index == 0, let parsed = parser?.parse(line) {
                    interpretParsed(parsed, line, number: entry.number)   // the record, as it is
                } else {
                    interpret(line, number: entry.number)
                }
            }
        }
    }
}
