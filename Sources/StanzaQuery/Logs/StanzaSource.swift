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
    public var time: String?
    /// Received or sent.
    public var direction: LogDirection?
    /// The session, connection or stream the log names (`c2s55e8a7f1c3a0`, `tls|<0.1234.0>`).
    public var session: String?
    /// Other named values of the record: the other columns of an archive row.
    public var fields: [LogField]

    public init(line: Int, time: String? = nil, direction: LogDirection? = nil, session: String? = nil, fields: [LogField] = []) {
        self.line = line
        self.time = time
        self.direction = direction
        self.session = session
        self.fields = fields
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

/// Damaged XML found inside a log: reported, and the stanza skipped.
public struct LogDamage: Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line and column of the log where the damage was seen.
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}
