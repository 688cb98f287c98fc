/// Decides a log's format from its first lines (stanzaq(1), LOGS, "Formats"),
/// line by line, so that the decision is the same however the log is read.
///
/// A line typical of one format decides at once. A line whose marker several
/// programs write — slixmpp's `SEND: <`, which Monal's and libstrophe's lines
/// hold as well — only suggests its format: the next ``suggestionLines`` lines
/// may still show a format of their own, which then wins. Without any, the
/// suggestion is taken; without a suggestion either, ``lineLimit`` lines or
/// ``byteLimit`` bytes make the log `generic`.
struct FormatDetector {
    static let lineLimit = 1000, byteLimit = 1 << 20
    /// How many lines after a suggestion are looked at for a format of their own.
    static let suggestionLines = 64

    private var lines = 0, bytes = 0
    private var suggestion: (format: LogFormat, line: Int)?

    /// Looks at the next line (without its line feed or terminal escapes): the
    /// format, once it is decided.
    mutating func decide(after line: UnsafeBufferPointer<UInt8>) -> LogFormat? {
        lines += 1
        bytes += line.count
        if let format = LogFormat.detectionOrder.first(where: { $0.recognises(line) }) {
            if !format.sharesItsMarker { return format }
            if suggestion == nil { suggestion = (format, lines) }
        }
        if let suggestion, lines - suggestion.line >= Self.suggestionLines { return suggestion.format }
        if lines >= Self.lineLimit || bytes >= Self.byteLimit { return suggestion?.format ?? .generic }
        return nil
    }

    /// The format of a log that ended before it was decided.
    var atEnd: LogFormat { suggestion?.format ?? .generic }
}
