#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The zone of a time written without an offset (`--tz`, stanzaq(1), LOGS, Times).
public enum TimeZoneChoice: Equatable, Sendable {
    /// The local zone: the `TZ` environment variable's, else the system's.
    case local
    /// A fixed offset, in seconds east of UTC.
    case offset(Int)

    /// Reads `UTC`, `GMT`, `Z`, `±HH`, `±HHMM` and `±HH:MM`; `nil` for anything
    /// else (a zone's name is set as `TZ`, and is then ``local``).
    public init?(offset text: String) {
        if ["UTC", "GMT", "Z", "utc"].contains(text) {
            self = .offset(0)
            return
        }
        guard text.hasPrefix("+") || text.hasPrefix("-"), let time = LogTime("00:00:00" + text), let offset = time.offset else {
            return nil
        }
        self = .offset(offset)
    }
}

/// How the times of one input become instants (stanzaq(1), LOGS, Times): a
/// time without an offset is in ``zone``; a time without a year takes the year
/// of ``reference`` (the input file's modification time), or the year before if
/// that would put it more than a day after the reference; a time of day without
/// a date takes the reference's date, or the day before if that would put it
/// after the reference.
public final class TimeRule {
    public let zone: TimeZoneChoice
    /// The moment no time of the input is supposed to be later than.
    public var reference: DateTime
    /// The local zone's offset for each hour asked about (the local time's hour
    /// since the epoch), so that the C library is asked once an hour of the log.
    private var localOffsets: [Int: Int] = [:]

    public init(zone: TimeZoneChoice, reference: DateTime) {
        self.zone = zone
        self.reference = reference
    }

    /// The instant `time` stands for, or `nil` where it names none (the 29th of
    /// February of a year that has none).
    public func instant(of time: LogTime) -> DateTime? {
        if let epoch = time.epoch { return epoch }
        var time = time
        if time.month == nil {
            (time.year, time.month, time.day) = date(of: reference, offset: time.offset)
            guard let candidate = civilInstant(time) else { return nil }
            if candidate <= reference { return candidate }
            (time.year, time.month, time.day) = civilFromDays(daysFromCivil(year: time.year!, month: time.month!, day: time.day!) - 1)
        } else if time.year == nil {
            time.year = date(of: reference, offset: time.offset).year
            guard let candidate = civilInstant(time) else { return nil }
            if candidate.seconds <= reference.seconds + 86_400 { return candidate }
            time.year! -= 1
        }
        return civilInstant(time)
    }

    /// `instant` in ``zone``, as ISO 8601 with its offset (`Z` for UTC):
    /// `2026-11-23T10:30:12.213+01:00`, the fraction to the microsecond, trailing zeros dropped.
    public func iso8601(_ instant: DateTime) -> String {
        let offset: Int
        if let fixed = zone.fixedOffset {
            offset = fixed
        } else {
            var seconds = time_t(instant.seconds), parts = tm()
            localtime_r(&seconds, &parts)
            offset = Int(parts.tm_gmtoff)
        }
        let local = DateTime(seconds: instant.seconds + Int64(offset), microseconds: instant.microseconds).iso8601
        guard offset != 0 || zone != .offset(0) else { return local }
        let minutes = abs(offset) / 60
        let written = (offset < 0 ? "-" : "+") + twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60)
        return local.dropLast() + written
    }

    /// The date of `moment` in the time's zone (its own offset, else ``zone``).
    private func date(of moment: DateTime, offset: Int?) -> (year: Int, month: Int, day: Int) {
        if let offset = offset ?? zone.fixedOffset {
            return civilFromDays(Int((moment.seconds + Int64(offset)).flooredDivision(by: 86_400)))
        }
        var seconds = time_t(moment.seconds), parts = tm()
        localtime_r(&seconds, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// A time with its date made an instant in its zone.
    private func civilInstant(_ time: LogTime) -> DateTime? {
        guard let year = time.year, let month = time.month, let day = time.day,
              day <= daysIn(month: month, year: year) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let naive = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
        let offset = time.offset ?? zone.fixedOffset ?? localOffset(hour: days * 24 + time.hour, time, year, month, day)
        return DateTime(seconds: Int64(naive - offset), microseconds: Int32(time.microsecond))
    }

    /// The local zone's offset at a local time (the C library's `mktime`; a time
    /// that a change to summer time skips, or that its end repeats, as it decides).
    private func localOffset(hour key: Int, _ time: LogTime, _ year: Int, _ month: Int, _ day: Int) -> Int {
        if let known = localOffsets[key] { return known }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(time.hour)
        parts.tm_isdst = -1
        let made = Int(mktime(&parts))
        let offset = key * 3600 - made
        localOffsets[key] = offset
        return offset
    }
}

extension TimeZoneChoice {
    var fixedOffset: Int? {
        if case .offset(let seconds) = self { return seconds }
        return nil
    }
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

extension Int64 {
    fileprivate func flooredDivision(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor != 0 && (self < 0) != (divisor < 0) ? quotient - 1 : quotient
    }
}
