#if canImport(StanzaXML)
import StanzaXML
#endif

/// slixmpp's log. slixmpp/xmlstream/xmlstream.py logs `log.debug("SEND: %s", data)`
/// in `send_raw` (a whole stanza as serialised, or the stream header) and
/// `log.debug("RECV: %s", stanza)` in `_spawn_event` (each whole stanza
/// received), plus `RECV: <stream:stream …>` for the start tag of the stream
/// (`tostring(…, open_only=True)`; slixmpp 1.17 doubles the prefix of names in
/// the streams namespace, ``prefixedOnce(_:_:)``). The line prefix is whatever the program's
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
        let payload = found.payload..<line.contentEnd
        if found.direction == .incoming, line.firstRange(of: "stream:stream:", from: payload.lowerBound) != nil {
            return ParsedLine(record: header, payload: payload, decoded: Self.prefixedOnce(line, payload))
        }
        return ParsedLine(record: header, payload: payload)
    }

    /// The data with `stream:stream:` in a tag's name written `stream:`. slixmpp's
    /// `tostring()` (slixmpp/xmlstream/tostring.py, in 1.17.0) looks the
    /// element's namespace up in `stream.namespace_map` twice and puts its prefix
    /// before the name each time: what it received in the streams namespace is
    /// logged `RECV: <stream:stream:stream xmlns="http://etherx.jabber.org/streams" …>`,
    /// `<stream:stream:features xmlns="…">` … `</stream:stream:features>`. The
    /// `xmlns` it writes after such a name is the namespace of that prefix
    /// (`xmlns:stream`): as a default namespace it would put the stanzas after
    /// the stream's header in the streams namespace.
    static func prefixedOnce(_ line: UnsafeBufferPointer<UInt8>, _ payload: Range<Int>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count)
        var index = payload.lowerBound
        while index < payload.upperBound {
            let opens = index > payload.lowerBound && line[index - 1] == 0x3C
            let closes = index > payload.lowerBound + 1 && line[index - 1] == 0x2F && line[index - 2] == 0x3C
            guard opens || closes, line.has("stream:stream:", at: index) else {
                bytes.append(line[index])
                index += 1
                continue
            }
            index += 7                                      // the first `stream:`
            while index < payload.upperBound, !isXMLSpace(line[index]), line[index] != 0x3E, line[index] != 0x2F {
                bytes.append(line[index])
                index += 1
            }
            if opens, line.has(" xmlns=\"", at: index) {
                bytes += Array(" xmlns:stream=\"".utf8)
                index += 8
            }
        }
        return bytes
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
