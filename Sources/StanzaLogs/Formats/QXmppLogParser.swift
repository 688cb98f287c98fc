#if canImport(StanzaXML)
import StanzaXML
#endif

/// QXmpp's log (the library of Kaidan and other Qt clients), as `QXmppLogger`
/// writes it to a file or to standard output (`FileLogging`,
/// `StdoutLogging`). src/base/QXmppLogger.cpp, `formatted()`, writes each
/// message as `QDateTime::currentDateTime().toString() + " " + typeName(type)
/// + " " + text`: the local time in Qt's `TextDate` shape (`Sat Nov 28
/// 04:00:20 2026`, the day not padded), then `SENT`, `RECEIVED`, `DEBUG`,
/// `INFO` or `WARNING` (QXmpp 1.0 to 1.10 alike). src/base/QXmppStream.cpp
/// logs the data of each `sendData()` as SENT (a stanza, or the stream's
/// header with its XML declaration, or `</stream:stream>`) and, as RECEIVED,
/// the bytes received once they parse (`_q_socketReadyRead` and `processData`: the stream's
/// header with the features after it, or several stanzas in one record).
/// So both directions are the bytes of the stream; a stanza with newlines
/// goes on in lines without the prefix. No session: a log is a client's.
final class QXmppLogParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let time = timeEnd(line) else { return false }
        return line.has(" SENT <", at: time) || line.has(" RECEIVED <", at: time)
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        guard let time = Self.timeEnd(line) else { return ParsedLine(kind: .maybeMore, payload: 0..<end) }
        var header = LineHeader(shape: .stream)
        let data: Int
        if line.has(" SENT ", at: time) {
            header.direction = .outgoing
            data = time + 6
        } else if line.has(" RECEIVED ", at: time) {
            header.direction = .incoming
            data = time + 10
        } else {
            return .text
        }
        header.time = 0..<time
        return ParsedLine(record: header, payload: min(data, end)..<end)
    }

    /// Where Qt's `TextDate` time that starts each of QXmpp's lines ends
    /// (`Www Mmm D HH:MM:SS YYYY`, the day one digit or two); `nil` for a line
    /// without one.
    static func timeEnd(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.count > 24 else { return nil }
        for index in [0, 1, 2, 4, 5, 6] where !isASCIILetter(line[index]) { return nil }
        guard line[3] == 0x20, line[7] == 0x20, isASCIIDigit(line[8]) else { return nil }
        let clock = isASCIIDigit(line[9]) ? 11 : 10
        guard line[clock - 1] == 0x20 else { return nil }
        for (offset, byte) in Array("00:00:00 0000".utf8).enumerated() {
            let found = line[clock + offset]
            guard byte == 0x30 ? isASCIIDigit(found) : found == byte else { return nil }
        }
        return clock + 13
    }
}

// MARK: - The format

extension LogFormat {
    public static let qxmpp = LogFormat(QXmppLogParser.self)
}

extension QXmppLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "qxmpp"
    /// No other format's lines start with a weekday and say `SENT <` after the year.
    static let detectionRank: Int? = 3
    static func makeParser() -> any LogLineParser { QXmppLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let learnsRecordPrefix = true
}
