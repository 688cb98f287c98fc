#if canImport(StanzaXML)
import StanzaXML
#endif

/// Smack's debugger. smack-core's debugger/AbstractDebugger.java writes
/// `"SENT (" + connection.getConnectionCounter() + "): " + data` for what is
/// written to the socket and `"RECV (…): " + data` for what is read, through
/// `log(String)`: ConsoleDebugger/SimpleAbstractDebugger put the time first
/// (`HH:mm:ss.S `), smack-android's AndroidDebugger sends it to logcat
/// (`Log.d("SMACK", …)`), JulDebugger to java.util.logging. The data is what
/// the socket carried (a read may end inside a stanza, and a message with
/// newlines goes on in unmarked lines: on logcat, lines with the prefix alone).
/// Smack 3's ConsoleDebugger (org/jivesoftware/smack/debugger/ConsoleDebugger.java,
/// `createDebug`) wrote `hh:mm:ss aaa RCV  (HASH): ` and `SENT (HASH): `, HASH
/// the connection's `hashCode()` (negative as often as not); its `RCV PKT`
/// lines, the parsed copy of what was read, are text.
final class SmackLogParser: LogLineParser {
    /// The logcat tag is handed on: a line after a logcat record may continue
    /// it, which a parser started on that line could not know.
    var handover: LogParserState? { LogParserState(values: tag.map { [$0] } ?? []) }

    func resume(from state: LogParserState) {
        tag = state.values.first
    }

    /// The logcat tag of the last record: a line of another tag is not its continuation.
    private var tag: [UInt8]?

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        marker(line) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let logcat = LogcatPrefix(line)
        guard let found = Self.marker(line) else {
            if let logcat, Array(line[logcat.tag]) != tag { return ParsedLine(kind: .unrelated, payload: 0..<0) }
            return ParsedLine(kind: .maybeMore, payload: (logcat?.message ?? 0)..<line.contentEnd)
        }
        tag = logcat.map { Array(line[$0.tag]) }
        var header = RecordHeader()
        header.direction = found.direction
        header.setSession(line, found.counter)
        if let time = logcat?.time ?? leadingTimestamp(in: line) { header.setTime(line, time) }
        return ParsedLine(record: header, payload: found.payload..<line.contentEnd)
    }

    /// `SENT (N): ` or `RECV (N): `, or Smack 3's `RCV  (N): ` (N may be negative there).
    private static func marker(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, counter: Range<Int>, payload: Int)? {
        var from = 0
        while let open = line.firstRange(of: " (", from: from) {
            from = open.upperBound
            guard open.lowerBound >= 4 else { continue }
            let direction: LogDirection
            if line.has("SENT", at: open.lowerBound - 4) { direction = .outgoing }
            else if line.has("RECV", at: open.lowerBound - 4) || line.has("RCV ", at: open.lowerBound - 4) { direction = .incoming }
            else { continue }
            var index = open.upperBound
            if index < line.count, line[index] == 0x2D { index += 1 }
            let digits = index
            while index < line.count, isASCIIDigit(line[index]) { index += 1 }
            guard index > digits, line.has("): ", at: index) || (line.has("):", at: index) && index + 2 == line.contentEnd) else { continue }
            return (direction, open.upperBound..<index, min(index + 3, line.contentEnd))
        }
        return nil
    }
}

// MARK: - The format

extension LogFormat {
    public static let smack = LogFormat(SmackLogParser.self)
}

extension SmackLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "smack"
    static let detectionRank: Int? = 2
    static func makeParser() -> any LogLineParser { SmackLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true

    /// A part starts at a record, after a record (whose logcat tag a further line
    /// of its data has), or in a log without logcat's prefix.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard LogFormat.smack.mayStartRecordPart(at: line, after: previous) else { return nil }
        if marker(previous) != nil { return LogParserState(values: LogcatPrefix(previous).map { [Array(previous[$0.tag])] } ?? []) }
        return LogcatPrefix(line) == nil && LogcatPrefix(previous) == nil ? LogParserState() : nil
    }
}
