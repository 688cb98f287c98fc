#if canImport(StanzaXML)
import StanzaXML
#endif

/// nbxmpp's log, as Gajim writes it with `--verbose`. python-nbxmpp's
/// nbxmpp/connection.py logs what it sends and receives in `_log_stanza`:
/// `"::::: DATA %s ::::\n\n%s\n"` with `SENT` or `RECEIVED`, at level INFO,
/// through a LogAdapter (nbxmpp/util.py) that puts the connection's context
/// first: `(account) ::::: DATA SENT ::::`. Gajim's formatter
/// (gajim/common/logging_helpers.py) writes `TIME (I) LOGGER | MESSAGE`. The
/// data follows on the lines after the marker, after a blank line.
final class NbxmppLogParser: LogLineParser {
    /// What each record of stanza data has, and only those (then a space).
    // (Searched for without its space: by its first and last bytes, `:` and a
    // space ten bytes apart stopped the search all along the padded columns
    // of every line's time stamp and logger; `:` and `A` rarely are.)
    static let dataMarker: StaticString = "::::: DATA"

    /// Where the data marker and its space are in `line`, the first place:
    /// ``dataMarker``, or nbxmpp's before 1.0 (nbxmpp/transports_nb.py,
    /// `_raise_event`), `raising event from transport: :::::DATA SENT::::`, the
    /// data on the lines after, between lines of `_` (a line holding it starts
    /// no part of a parallel search: such a log is cut in fewer parts). One
    /// search of the line for the colons: a data line, most of a log, is
    /// searched once.
    static func dataMarker(in line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var from = 0
        while let found = line.firstRange(of: ":::::", from: from) {
            if line.has(" DATA ", at: found.upperBound) { return found.lowerBound..<(found.upperBound + 6) }
            if line.has("DATA ", at: found.upperBound) { return found.lowerBound..<(found.upperBound + 5) }
            from = found.lowerBound + 1
        }
        return nil
    }

    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        dataMarker(in: line) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        guard let marker = Self.dataMarker(in: line) else {
            // The line of `_` before and after the data of nbxmpp before 1.0 is none of it.
            let end = line.contentEnd
            if end >= 5 && !line[..<end].contains(where: { $0 != 0x5F }) { return ParsedLine(kind: .maybeMore, payload: end..<end) }
            return ParsedLine(kind: .maybeMore, payload: 0..<end)
        }
        // (Places in the line, as Prosody's parser gives: a header with Strings
        // made the records' lines the dearest to parse of a window.)
        var header = LineHeader(shape: .stream)
        if line.has("SENT", at: marker.upperBound) { header.direction = .outgoing }
        else if line.has("RECEIVED", at: marker.upperBound) { header.direction = .incoming }
        else { return .text }
        // The context: "(account) " just before the marker.
        var close = marker.lowerBound - 1
        while close > 0, line[close] == 0x20 { close -= 1 }
        if close > 0, line[close] == 0x29 {
            var open = close - 1
            while open >= 0, line[open] != 0x28 { open -= 1 }
            if open >= 0 { header.session = (open + 1)..<close }
        }
        header.time = leadingTimestamp(in: line)
        return ParsedLine(record: header, payload: line.contentEnd..<line.contentEnd)
    }
}

// MARK: - The format

extension LogFormat {
    public static let nbxmpp = LogFormat(NbxmppLogParser.self)
}

extension NbxmppLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "nbxmpp"
    static let detectionRank: Int? = 4
    static func makeParser() -> any LogLineParser { NbxmppLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true
    // (Only a marker's line is a record; the windows of a selective search end at
    // the next one, some 70 lines of Gajim's and nbxmpp's other loggers on.)
    static let partStartMarker: StaticString? = dataMarker
}
