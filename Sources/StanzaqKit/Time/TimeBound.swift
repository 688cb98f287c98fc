#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The TIME of `--since` or `--until` (stanzaq(1), `--since`).
public enum TimeBound: Equatable, Sendable {
    /// An instant: seconds since the epoch (`@SECONDS`), or a relative time made one.
    case instant(DateTime)
    /// `-10m`: so many seconds before the last record of the inputs (``SearchOptions/resolvingRelativeBounds(paths:standardInput:)``),
    /// or before now with `--follow` (and where it is not resolved).
    case beforeLast(seconds: Int64)
    /// A time as a log or ISO 8601 writes it, made an instant by each input's
    /// ``TimeRule`` as that input's times are (its zone, its year).
    case written(LogTime)

    /// Reads TIME: `-N` with a unit `s`, `m`, `h` or `d` (repeatable: `-1h30m`),
    /// `@SECONDS`, or any time ``LogTime`` reads. `nil` for anything else.
    public init?(_ text: String) {
        if text.hasPrefix("-"), let seconds = Self.duration(text.dropFirst()) {
            self = .beforeLast(seconds: seconds)
        } else if text.hasPrefix("@") {
            guard let epoch = LogTime(String(text.dropFirst()))?.epoch ?? Self.shortEpoch(text.dropFirst()) else { return nil }
            self = .instant(epoch)
        } else if let time = LogTime(text), time.epoch == nil {
            self = .written(time)
        } else {
            return nil
        }
    }

    /// The instant `seconds` before `instant`.
    static func before(_ instant: DateTime, seconds: Int64) -> DateTime {
        DateTime(seconds: instant.seconds - seconds, microseconds: instant.microseconds)
    }

    /// `1h30m`: seconds.
    private static func duration(_ text: Substring) -> Int64? {
        var total: Int64 = 0, number: Int64?
        for character in text {
            if let digit = character.wholeNumberValue, character.isASCII {
                guard (number ?? 0) < 1_000_000_000 else { return nil }
                number = (number ?? 0) * 10 + Int64(digit)
                continue
            }
            let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
            guard let count = number, let unit = units[character] else { return nil }
            total += count * unit
            number = nil
        }
        return number == nil && !text.isEmpty ? total : nil
    }

    /// `@0` … `@99999999`, which ``LogTime`` does not take for seconds.
    private static func shortEpoch(_ text: Substring) -> DateTime? {
        guard !text.isEmpty, text.count < 9, text.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let seconds = Int64(text) else { return nil }
        return DateTime(seconds: seconds)
    }

    func instant(_ rule: TimeRule) -> DateTime? {
        switch self {
        case .instant(let instant): return instant
        case .written(let time): return rule.instant(of: time)
        case .beforeLast(let seconds): return TimeBound.before(TimeFilter.now, seconds: seconds)
        }
    }
}

/// `--since` and `--until` for one input (stanzaq(1), `--since`): a stanza is
/// kept when its time is at or after the one and at or before the other; one
/// without a time, or with one that is not read, is left out, and a warning
/// says so once per input. And `--time-format=iso`, which needs the same rule.
final class TimeFilter {
    private let rule: TimeRule
    private let since: DateTime?, until: DateTime?
    /// `--since selects`, `--until selects`, `--since and --until select`.
    private let selects: String
    private var warned = false
    /// `--follow`: a stanza is read as it is written, so now is its reference moment.
    private let follows: Bool

    init(options: SearchOptions, reference: DateTime) {
        follows = options.follow
        let rule = TimeRule(zone: options.timeZone, reference: reference)
        self.rule = rule
        // A bound that names no instant in this input's year (the 29th of February) selects nothing.
        since = options.since.map { $0.instant(rule) ?? DateTime(seconds: Int64.max) }
        until = options.until.map { $0.instant(rule) ?? DateTime(seconds: Int64.min) }
        switch (options.since, options.until) {
        case (.some, .some): selects = "--since and --until select"
        case (.some, nil): selects = "--since selects"
        default: selects = "--until selects"
        }
    }

    /// Whether the stanza's time, read once into `instant` (``instant(of:)``), is
    /// inside the bounds (any time, where none is asked); `warn` is given the
    /// warning, once, and the key that makes it once per input.
    func keeps(_ source: StanzaSource?, at instant: DateTime?, file: String, warn: (Diagnostic, _ key: String) -> Void) -> Bool {
        guard since != nil || until != nil else { return true }
        guard let source else {
            if !warned { warn(.warning("\(file.shownFileName): XML input has no time: \(selects) none of its stanzas"), file + "\ntime") }
            warned = true
            return false
        }
        guard let instant else {
            if !warned {
                let what = source.time.map { "the stanza's time '\($0)' is not one stanzaq reads" } ?? "the stanza has no time"
                warn(.warning("\(file.shownFileName): line \(source.line): \(what): \(selects) no such stanza"), file + "\ntime")
            }
            warned = true
            return false
        }
        return since.map { instant >= $0 } ?? true && until.map { instant <= $0 } ?? true
    }

    /// The instant of the stanza's time, if it has one that is read: what
    /// `--since`, `--until`, `--time-format=iso` and `--merge` take of it.
    func instant(of source: StanzaSource?) -> DateTime? {
        if follows { rule.reference = Self.now }
        guard let text = source?.time, let time = LogTime(text) else { return nil }
        return rule.instant(of: time)
    }

    /// `instant` as ISO 8601 in the zone (`--time-format=iso`).
    func iso8601(_ instant: DateTime) -> String {
        rule.iso8601(instant)
    }

    /// When `fd` was last changed if it is a file, else now: what a time without a year or a date is taken to be before.
    static func reference(of fd: Int32) -> DateTime {
        var status = stat()
        if fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
            #if canImport(Darwin)
            let modified = status.st_mtimespec
            #else
            let modified = status.st_mtim
            #endif
            return DateTime(seconds: Int64(modified.tv_sec), microseconds: Int32(modified.tv_nsec / 1000))
        }
        return now
    }

    /// The time of day now.
    static var now: DateTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return DateTime(seconds: Int64(spec.tv_sec), microseconds: Int32(spec.tv_nsec / 1000))
    }
}
