import FoundationEssentials
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// An instant with microsecond precision, as read from an XEP-0082 DateTime.
///
/// Kept as whole seconds and microseconds (not a `Double`) so that printing
/// gives back exactly the digits that were read.
public struct DateTime: Equatable, Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z (floor).
    public var seconds: Int64
    /// 0 ..< 1_000_000
    public var microseconds: Int32

    public init(seconds: Int64, microseconds: Int32 = 0) {
        self.seconds = seconds
        self.microseconds = microseconds
    }

    /// The same instant as a Foundation `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(microseconds) / 1_000_000)
    }

    public static func < (lhs: DateTime, rhs: DateTime) -> Bool {
        (lhs.seconds, lhs.microseconds) < (rhs.seconds, rhs.microseconds)
    }

    /// Parses `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm|±hhmm)`; a fraction of any length
    /// is read to the microsecond (truncated). Returns `nil` for anything else.
    public init?(xep0082 text: String) {
        let b = Array(text.utf8)
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let digit = Int(b[i]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
                i += 1
            }
            return value
        }
        func eat(_ byte: Character) -> Bool {
            guard i < b.count, b[i] == byte.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = number(4), eat("-"), let month = number(2), eat("-"), let day = number(2), eat("T"),
              let hour = number(2), eat(":"), let minute = number(2), eat(":"), let second = number(2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        var micro = 0
        if eat(".") {
            let start = i
            var scale = 100_000
            while i < b.count, (48...57).contains(b[i]) {
                micro += Int(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
        }
        var offset = 0
        if eat("Z") {
            offset = 0
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            // ±hh:mm, or ±hhmm as Monal's second date formatter reads it.
            guard let offsetHours = number(2) else { return nil }
            _ = eat(":")
            guard let offsetMinutes = number(2), offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        self.seconds = Int64(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
        self.microseconds = Int32(micro)
    }

    /// `2002-09-10T23:08:25Z`, with `.fraction` (up to 6 digits, trailing zeros trimmed) when not zero.
    public var iso8601: String {
        let days = Int(seconds.floorDiv(86_400))
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civilFromDays(days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        text += fraction
        return text + "Z"
    }

    /// Seconds since the epoch, with the same fraction rule as ``iso8601``.
    public var epochString: String {
        if seconds < 0 && microseconds > 0 {
            // -1 s + 0.5 s is written -0.5.
            let negative = DateTime(seconds: -seconds - 1, microseconds: 1_000_000 - microseconds)
            return "-" + String(negative.seconds) + negative.fraction
        }
        return String(seconds) + fraction
    }

    private var fraction: String {
        guard microseconds != 0 else { return "" }
        var digits = pad(Int(microseconds), 6)
        while digits.hasSuffix("0") { digits.removeLast() }
        return "." + digits
    }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
}

extension Int64 {
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
