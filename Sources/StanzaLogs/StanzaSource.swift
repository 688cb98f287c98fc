#if canImport(StanzaXML)
import StanzaXML
#endif

/// Which way a stanza went, as the log that recorded it says.
public enum LogDirection: String, Sendable, CaseIterable {
    /// Received by the program that wrote the log.
    case incoming = "in"
    /// Sent by the program that wrote the log.
    case outgoing = "out"
}

/// Where a stanza read from a log was found: the fields a log gives it.
///
/// Only ``line`` is always known; the others are `nil` where the format does
/// not record them (a Prosody log has no year, a JSON archive row no direction).
public struct StanzaSource: Equatable, Sendable {
    /// The 1-based line of the log where the stanza starts.
    public var line: Int
    /// The time the log wrote for the stanza, as the log wrote it (no year is
    /// invented for a log that has none).
    public var time: String? {
        get { timeText?.string }
        set { timeText = newValue.map(LogText.init) }
    }
    /// Received or sent.
    public var direction: LogDirection?
    /// The session, connection or stream the log names (`c2s55e8a7f1c3a0`, `tls|<0.1234.0>`).
    public var session: String? {
        get { sessionText?.string }
        set { sessionText = newValue.map(LogText.init) }
    }
    /// Other named values of the record: the other columns of an archive row.
    public var fields: [LogField]
    /// The full JID bound in the stanza's session, as known when the stanza
    /// was read (`--fields jid`): filled by the search from the bind results
    /// before it; a log's reader sets it only where the record names the JID of
    /// its session (MongooseIM's `to_jid=` of a stanza routed to a session).
    public var jid: String?

    /// The time and the session as the log's bytes: a String is made only when asked for.
    var timeText: LogText?
    var sessionText: LogText?

    public init(line: Int, time: String? = nil, direction: LogDirection? = nil, session: String? = nil, fields: [LogField] = []) {
        self.line = line
        self.direction = direction
        self.fields = fields
        self.timeText = time.map(LogText.init)
        self.sessionText = session.map(LogText.init)
    }

    /// A record's fields, as a parser finds them (the line is set by the reader).
    @inline(__always)
    init(line: Int = 0, direction: LogDirection? = nil, sessionText: LogText? = nil, timeText: LogText? = nil) {
        self.line = line
        self.direction = direction
        self.fields = []
        self.sessionText = sessionText
        self.timeText = timeText
    }

    public static func == (lhs: StanzaSource, rhs: StanzaSource) -> Bool {
        lhs.line == rhs.line && lhs.time == rhs.time && lhs.direction == rhs.direction
            && lhs.session == rhs.session && lhs.fields == rhs.fields && lhs.jid == rhs.jid
    }
}

/// A short text of a log record (a time, a session's name): up to 15 bytes are
/// kept in place, so that reading a record makes no String (a log has one or two
/// on every line, and most are never printed) and comparing two is comparing
/// two integers. Longer texts are Strings.
struct LogText: Hashable, Sendable {
    /// The bytes, little-endian, and the count in the top byte of `high`.
    private var low: UInt64 = 0, high: UInt64 = 0
    private var long: String?

    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 15, let base = bytes.baseAddress else {
            long = String(decoding: bytes, as: UTF8.self)
            return
        }
        // Whole words where there are eight bytes (no call to memcpy): the bytes
        // 8..<count are the top ones of the word that ends the text.
        let raw = UnsafeRawPointer(base), count = bytes.count
        if count >= 8 {
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            if count > 8 {
                high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) >> (8 * (16 - count))
            }
        } else {
            for index in 0..<count { low |= UInt64(base[index]) << (8 * index) }
        }
        high |= UInt64(count) << 56
    }

    init(_ string: String) {
        var string = string
        if let made = string.withUTF8({ $0.count <= 15 ? LogText($0) : nil }) {
            self = made
        } else {
            long = string
        }
    }

    var string: String {
        if let long { return long }
        var words = (low.littleEndian, (high & 0x00FF_FFFF_FFFF_FFFF).littleEndian)
        let count = Int(high >> 56)
        return withUnsafeBytes(of: &words) { String(decoding: $0.prefix(count), as: UTF8.self) }
    }
}

/// A named value of a log record (an archive row's column).
public struct LogField: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

