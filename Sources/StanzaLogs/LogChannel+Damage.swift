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

    /// Where the reader's `line` and `column` are in the log.
    func logPosition(line: Int, column: Int) -> (line: Int, column: Int) {
        guard let segment = segments.last(where: { ($0.readerLine, $0.readerColumn) <= (line, column) }) else {
            return (current.line, currentColumn)
        }
        if line == segment.readerLine && segment.exactColumns {
            return (segment.logLine, segment.logColumn + column - segment.readerColumn)
        }
        return (segment.logLine, segment.logColumn)
    }

    /// libxml2 names the line where a mismatched tag was opened ("… tag mismatch:
    /// a line 3 and b"): in the reader's lines, to be told in the log's.
    func mapLineNumbers(in message: String) -> String {
        var words = message.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let index = words.firstIndex(of: "line"), index + 1 < words.count, let line = Int(words[index + 1]) else { return message }
        // (The line only: the column of a place on the segment's own line would overflow.)
        words[index + 1] = String(segments.last(where: { $0.readerLine <= line })?.logLine ?? current.line)
        return words.joined(separator: " ")
    }
}

/// The reader's messages name places in its input ("… starts at 3:5", "the input
/// ends at 2:30"): in the data fed to it, to be told in the log's lines and columns.
func mappingPositions(in message: String, _ map: (_ line: Int, _ column: Int) -> (line: Int, column: Int)) -> String {
    var words = message.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    for index in words.indices.dropFirst() where words[index - 1] == "at" {
        let word = words[index]
        let trail = word.reversed().prefix(while: { !$0.isNumber }).count
        let parts = word.dropLast(trail).split(separator: ":")
        guard parts.count == 2, let line = Int(parts[0]), let column = Int(parts[1]) else { continue }
        let place = map(line, column)
        words[index] = "\(place.line):\(place.column)" + word.suffix(trail)
    }
    return words.joined(separator: " ")
}
