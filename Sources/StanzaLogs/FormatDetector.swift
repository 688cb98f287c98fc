#if canImport(StanzaXML)
import StanzaXML
#endif

/// Decides a log's format from its first lines (stanzaq(1), LOGS, "Formats"),
/// line by line, so that the decision is the same however the log is read.
///
/// A line typical of one format decides at once. A line whose marker several
/// programs write — slixmpp's `SEND: <`, which Monal's, libstrophe's and Profanity's lines
/// hold as well — only suggests its format, and the ``suggestionLines`` lines
/// after it are looked at too: of the formats any of those lines is typical
/// of, the one whose parser reads the most of them as records wins (the
/// earlier in ``LogFormat/detectionOrder`` on a tie). Counting records, not
/// the first line typical of a format, keeps a line pasted into a message
/// (`::::: DATA SENT ::::` in a slixmpp log) from deciding. Without any line
/// typical of a format, ``lineLimit`` lines or ``byteLimit`` bytes make the
/// log `generic`.
struct FormatDetector: Equatable, Sendable {
    static let lineLimit = 1000, byteLimit = 1 << 20
    /// How many lines after a suggestion are looked at before deciding.
    static let suggestionLines = 64

    private var lines = 0, bytes = 0
    /// The lines from the suggestion on, and the formats they are typical of.
    private var window: [[UInt8]] = []
    private var candidates: [LogFormat] = []

    /// Looks at the next line (without its line feed or terminal escapes): the
    /// format, once it is decided.
    mutating func decide(after line: UnsafeBufferPointer<UInt8>) -> LogFormat? {
        lines += 1
        bytes += line.count
        let typical = LogFormat.detectionOrder.first { $0.recognises(line) }
        if window.isEmpty {
            if let typical {
                if !typical.sharesItsMarker { return typical }
                window = [Array(line)]
                candidates = [typical]
            }
        } else {
            window.append(Array(line))
            if let typical, !candidates.contains(typical) { candidates.append(typical) }
            if window.count > Self.suggestionLines { return best }
        }
        if lines >= Self.lineLimit || bytes >= Self.byteLimit { return atEnd }
        return nil
    }

    /// The format of a log that ended before it was decided.
    var atEnd: LogFormat { window.isEmpty ? .generic : best }

    private var best: LogFormat {
        var best = candidates[0], bestCount = -1
        for format in LogFormat.detectionOrder where candidates.contains(format) {
            let parser = format.makeParser()
            let count = window.reduce(0) { count, line in
                count + (line.withUnsafeBufferPointer { parser.parse($0).kind == .record } ? 1 : 0)
            }
            if count > bestCount { (best, bestCount) = (format, count) }
        }
        return best
    }
}
