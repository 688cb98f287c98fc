#if canImport(StanzaXML)
import StanzaXML
#endif

/// slixmpp's log. slixmpp/xmlstream/xmlstream.py logs `log.debug("SEND: %s", data)`
/// in `send_raw` (a whole stanza as serialised, or the stream header) and
/// `log.debug("RECV: %s", stanza)` in `_spawn_event` (each whole stanza
/// received), plus `RECV: <stream:stream …>` for the start tag of the stream
/// (`tostring(…, open_only=True)`). The line prefix is whatever the program's
/// Python logging format puts there (`DEBUG:slixmpp.xmlstream.xmlstream:` by
/// default); a stanza with newlines goes on in unmarked lines.
final class SlixmppLogParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        marker(line) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        guard let found = Self.marker(line) else {
            return ParsedLine(kind: .maybeMore, payload: 0..<line.contentEnd)
        }
        // (Places in the line, as nbxmpp's parser gives: a header with a String of
        // the time was much of the producer's work in a selective search, where the
        // lines around a window's start are parsed to find where a part may start.)
        var header = LineHeader(shape: .wholeStanzas)
        header.direction = found.direction
        header.time = leadingTimestamp(in: line) ?? leadingTimestamp(in: line, from: line.skippingBlanks(from: 0))
        return ParsedLine(record: header, payload: found.payload..<line.contentEnd)
    }

    /// `SEND: <` or `RECV: <`, at the start of the message.
    private static func marker(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, payload: Int)? {
        for (needle, direction) in [("SEND: " as StaticString, LogDirection.outgoing), ("RECV: ", .incoming)] {
            if let range = line.firstRange(of: needle),
               range.lowerBound == 0 || line[range.lowerBound - 1] == 0x20 || line[range.lowerBound - 1] == 0x3A || line[range.lowerBound - 1] == 0x09 {
                return (direction, range.upperBound)
            }
        }
        return nil
    }
}

// MARK: - The format

extension LogFormat {
    public static let slixmpp = LogFormat(SlixmppLogParser.self)
}

extension SlixmppLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "slixmpp"
    static let detectionRank: Int? = 11
    static func makeParser() -> any LogLineParser { SlixmppLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true
    static let sharesItsMarker = true
}
