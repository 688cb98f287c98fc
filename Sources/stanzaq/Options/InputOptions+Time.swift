import ArgumentParser
import StanzaQuery
import StanzaqKit

extension InputOptions {
    /// What `--since` and `--until` take (stanzaq(1), `--since`), for their errors.
    private static let timeForms = "ISO 8601 such as 2026-11-23T09:30:00Z, the log's own form, @SECONDS, or -10m, -2h, -1d"

    /// Checks `--since`, `--until`, `--tz` and `--time-format`: a TIME, ZONE or form that is not read is an error.
    func validateTimes() throws {
        for (name, text) in [("--since", since), ("--until", until)] {
            if let text, TimeBound(text) == nil {
                throw ValidationError("\(name): '\(text)' is not a time (\(Self.timeForms))")
            }
        }
        if let timeFormat, timeFormat != "log" && timeFormat != "iso" {
            throw ValidationError("--time-format: unknown form '\(timeFormat)' (log or iso)")
        }
        if let timeZone, TimeZoneChoice(offset: timeZone) == nil && !Self.isZoneName(timeZone) {
            throw ValidationError("--tz: unknown zone '\(timeZone)' (UTC, +HH:MM, -HH:MM, or a name of the system's time zone database)")
        }
    }

    /// `--since`, `--until` (a relative time is counted back from the last
    /// record once the inputs are known: ``SearchOptions/resolvingRelativeBounds(paths:standardInput:)``)
    /// and `--tz`. A zone's name is set as the process's `TZ`, for the C library's local time.
    var timeBounds: (since: TimeBound?, until: TimeBound?, zone: TimeZoneChoice) {
        var zone = TimeZoneChoice.local
        if let timeZone {
            if let fixed = TimeZoneChoice(offset: timeZone) {
                zone = fixed
            } else {
                setenv("TZ", timeZone, 1)
                tzset()
            }
        }
        return (since.flatMap { TimeBound($0) }, until.flatMap { TimeBound($0) }, zone)
    }

    /// Whether `name` is a zone of the system's database (`$TZDIR` or /usr/share/zoneinfo).
    private static func isZoneName(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { return false }
        let directory = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
        var status = stat()
        return stat(directory + "/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
