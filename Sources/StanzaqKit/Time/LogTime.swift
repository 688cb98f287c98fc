#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// A time as a log writes it, read into its parts (stanzaq(1), LOGS, Times):
/// what is not written (a year, a date, a zone) is `nil`, for a ``TimeRule``
/// to supply. Seconds since the epoch are an instant already.
public struct LogTime: Equatable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z, where the text is a number of them.
    public var epoch: DateTime?
    /// `nil`: no year written (Prosody's `Nov 23 09:30:12`, logcat's `11-23 …`).
    public var year: Int?
    /// `nil` (with ``day``): no date written (Smack's `09:30:12.2`).
    public var month: Int?
    public var day: Int?
    public var hour = 0, minute = 0, second = 0
    /// 0 ..< 1_000_000
    public var microsecond = 0
    /// Seconds east of UTC, where the text writes an offset (or `Z`).
    public var offset: Int?

    /// Reads the shapes of the logs stanzaq reads, and ISO 8601:
    /// `YYYY-MM-DD[(T| )HH:MM[:SS[(.|,|:)F]]][Z|±HH[[:]MM]]`,
    /// `Mon DD HH:MM:SS[.F]` (syslog, Prosody), `Www Mon DD HH:MM:SS YYYY` (ctime),
    /// `MM-DD HH:MM:SS[.F]` (logcat), `MM/DD/YY HH:MM:SS` (the C library's `%x %X`),
    /// `HH:MM:SS[.F]` (a time of day), and 9 to 11 digits with an optional
    /// fraction (seconds since the epoch). `nil` for anything else.
    public init?(_ text: String) {
        var scanner = TimeScanner(text)
        scanner.skipSpaces()
        guard let parsed = Self.epoch(scanner) ?? Self.isoDate(scanner) ?? Self.slashedDate(scanner)
                ?? Self.namedMonth(scanner) ?? Self.monthDay(scanner) ?? Self.timeOfDay(scanner) else { return nil }
        self = parsed
        guard isValid else { return nil }
    }

    private init() {}

    private var isValid: Bool {
        if epoch != nil { return true }
        if let month, let day {
            guard (1...12).contains(month), (1...daysIn(month: month, year: year ?? 2000)).contains(day) else { return false }
        }
        if let year, !(1...9999).contains(year) { return false }
        return hour <= 23 && minute <= 59 && second <= 60 && (offset.map { abs($0) < 86_400 } ?? true)
    }

    // MARK: - Shapes

    private static func epoch(_ s: TimeScanner) -> LogTime? {
        var copy = s
        let digits = copy.digitCount
        guard (9...11).contains(digits), let seconds = copy.number(digits) else { return nil }
        var micro = 0
        if copy.eat(".") { guard let fraction = copy.fraction() else { return nil }; micro = fraction }
        guard copy.atEnd else { return nil }
        var time = LogTime()
        time.epoch = DateTime(seconds: Int64(seconds), microseconds: Int32(micro))
        return time
    }

    private static func isoDate(_ s: TimeScanner) -> LogTime? {
        var c = s
        guard c.digitCount == 4, let year = c.number(4), c.eat("-"), let month = c.number(2), c.eat("-"),
              let day = c.number(2) else { return nil }
        var time = LogTime()
        (time.year, time.month, time.day) = (year, month, day)
        if c.atEnd { return time }
        guard c.eat("T") || c.eat(" ") else { return nil }
        return c.clock(into: &time, minutesEnough: true) && c.zone(into: &time) ? time : nil
    }

    /// `MM/DD/YY HH:MM:SS`: `%x %X` in the C locale (nbxmpp's default).
    private static func slashedDate(_ s: TimeScanner) -> LogTime? {
        var c = s
        guard let month = c.number(2), c.eat("/"), let day = c.number(2), c.eat("/") else { return nil }
        var time = LogTime()
        if c.digitCount == 4, let year = c.number(4) { time.year = year } else if let year = c.number(2) { time.year = 2000 + year } else { return nil }
        (time.month, time.day) = (month, day)
        guard c.eat(" "), c.clock(into: &time, minutesEnough: false), c.zone(into: &time) else { return nil }
        return time
    }

    /// `Mon DD HH:MM:SS` (syslog), or with a weekday before and the year after (ctime).
    private static func namedMonth(_ s: TimeScanner) -> LogTime? {
        var c = s
        c.skipWeekday()
        guard let month = c.monthName(), c.eat(" ") else { return nil }
        _ = c.eat(" ")
        let digits = c.digitCount
        guard (1...2).contains(digits), let day = c.number(digits), c.eat(" ") else { return nil }
        var time = LogTime()
        (time.month, time.day) = (month, day)
        guard c.clock(into: &time, minutesEnough: false) else { return nil }
        if c.eat(" "), c.digitCount == 4, let year = c.number(4) { time.year = year }
        return c.zone(into: &time) ? time : nil
    }

    /// `MM-DD HH:MM:SS.F` (Android's logcat).
    private static func monthDay(_ s: TimeScanner) -> LogTime? {
        var c = s
        guard c.digitCount == 2, let month = c.number(2), c.eat("-"), let day = c.number(2), c.eat(" ") else { return nil }
        var time = LogTime()
        (time.month, time.day) = (month, day)
        return c.clock(into: &time, minutesEnough: false) && c.zone(into: &time) ? time : nil
    }

    private static func timeOfDay(_ s: TimeScanner) -> LogTime? {
        var c = s
        var time = LogTime()
        return c.clock(into: &time, minutesEnough: false) && c.zone(into: &time) ? time : nil
    }
}

/// The bytes of a time's text, read from the front.
struct TimeScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        var bytes = Array(text.utf8)
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        self.bytes = bytes
    }

    var atEnd: Bool { index == bytes.count }

    mutating func skipSpaces() { while index < bytes.count && bytes[index] == UInt8(ascii: " ") { index += 1 } }

    /// How many digits come next.
    var digitCount: Int {
        var end = index
        while end < bytes.count && (48...57).contains(bytes[end]) { end += 1 }
        return end - index
    }

    mutating func number(_ count: Int) -> Int? {
        guard count > 0, digitCount >= count else { return nil }
        var value = 0
        for _ in 0..<count { value = value * 10 + Int(bytes[index] - 48); index += 1 }
        return value
    }

    mutating func eat(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Digits after a decimal point, as microseconds (truncated).
    mutating func fraction() -> Int? {
        let count = digitCount
        guard count > 0 else { return nil }
        var micro = 0, scale = 100_000
        for _ in 0..<count { micro += Int(bytes[index] - 48) * scale; scale /= 10; index += 1 }
        return micro
    }

    /// `HH:MM[:SS[(.|,|:)F]]` (minutes enough only where `minutesEnough`).
    mutating func clock(into time: inout LogTime, minutesEnough: Bool) -> Bool {
        guard let hour = number(2), eat(":"), let minute = number(2) else { return false }
        (time.hour, time.minute) = (hour, minute)
        guard eat(":") else { return minutesEnough }
        guard let second = number(2) else { return false }
        time.second = second
        if eat(".") || eat(",") || eat(":") {
            guard let fraction = fraction() else { return false }
            time.microsecond = fraction
        }
        return true
    }

    /// `Z`, `±HH`, `±HHMM` or `±HH:MM` (a space before allowed), then the end.
    mutating func zone(into time: inout LogTime) -> Bool {
        _ = eat(" ")
        if atEnd { return true }
        if eat("Z") {
            time.offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return false }
            let colon = eat(":")
            let minutes = digitCount == 2 ? number(2)! : colon ? -1 : 0
            guard minutes >= 0, hours <= 23, minutes <= 59 else { return false }
            time.offset = sign * (hours * 3600 + minutes * 60)
        }
        return atEnd
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private mutating func word(in words: [String]) -> Int? {
        guard index + 3 <= bytes.count else { return nil }
        let word = String(decoding: bytes[index..<index + 3], as: UTF8.self)
        guard let found = words.firstIndex(of: word) else { return nil }
        index += 3
        return found
    }

    /// A month's English abbreviation, as its number.
    mutating func monthName() -> Int? { word(in: Self.months).map { $0 + 1 } }

    /// Passes a weekday's English abbreviation and the space after it, if they come next.
    mutating func skipWeekday() {
        var copy = self
        if copy.word(in: Self.weekdays) != nil, copy.eat(" ") { self = copy }
    }
}
