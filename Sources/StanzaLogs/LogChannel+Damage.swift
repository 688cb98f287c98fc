#if canImport(StanzaXML)
import StanzaXML
#endif

/// Damage in a channel's stanzas: told in the log's lines and columns, and
/// skipped to where a stanza can start.
extension LogChannel {
    /// Damage the reader skipped: told in the log's lines and columns. The stanzas
    /// read after it start where reading resumed.
    func readerDamaged(_ damage: InputDamage) {
        let place = logPosition(line: damage.line, column: damage.column)
        var message = mappingPositions(in: mapLineNumbers(in: damage.message), logPosition)
        if endingRecord { message = message.replacing("(the input ends at ", with: "(the log record ends at ") }
        report(InputDamage(line: place.line, column: place.column, message: message))
        if let resumed = damage.resumedAt {
            var source = current
            source.line = logPosition(line: resumed.line, column: resumed.column).line
            openStart = source
            endedInFeed = 0
        }
    }

    /// Ends a reader that is skipping damage: the damage is reported, and whatever
    /// follows it in the data fed so far is read. Returns false if it was not skipping.
    func flushDamage() -> Bool {
        guard let reader = madeReader, reader.isSkippingDamage else { return false }
        try? reader.finish()
        restart()
        return true
    }

    func cutOff(_ message: String) {
        let where_ = openStart.map { ($0.line, openColumn) } ?? (current.line, currentColumn)
        report(InputDamage(line: where_.0, column: where_.1, message: message))
        restart()
    }
}
