import StanzaQuery
import XCTest
@testable import StanzaqKit

/// Each log's form of time read into an instant (stanzaq(1), LOGS, Times), with
/// the rules for what it does not write: the zone (fixed here, never the
/// machine's), the year and the date (from a reference moment given here).
final class LogTimeTests: XCTestCase {
    /// 2026-11-27T21:00:00Z, as if the log were last written then.
    private let reference = DateTime(seconds: 1_795_813_200)

    private func instant(_ text: String, zone: TimeZoneChoice = .offset(0), reference: DateTime? = nil) -> String? {
        guard let time = LogTime(text) else { return nil }
        return TimeRule(zone: zone, reference: reference ?? self.reference).instant(of: time)?.iso8601
    }

    func testEachLogsForm() {
        let cases: [(String, String)] = [
            ("2026-11-23 09:30:12.103410+00:00", "2026-11-23T09:30:12.10341Z"),  // ejabberd
            ("2026-11-23T09:30:12.240385+00:00", "2026-11-23T09:30:12.240385Z"),  // MongooseIM
            ("2026-11-23T09:30:12.213005+01", "2026-11-23T08:30:12.213005Z"),  // Profanity
            ("2026-11-23T09:30:12+0000", "2026-11-23T09:30:12Z"),  // Dino
            ("2026-11-23T09:30:12", "2026-11-23T09:30:12Z"),  // nbxmpp
            ("2026-11-23 09:30:12,213", "2026-11-23T09:30:12.213Z"),  // slixmpp
            ("2026-11-23 09:30:12:212", "2026-11-23T09:30:12.212Z"),  // Monal
            ("2026-11-23 09:30:12", "2026-11-23T09:30:12Z"),  // an SQL datetime (ejabberd's archive)
            ("1795426212", "2026-11-23T09:30:12Z"),  // seconds since the epoch (Prosody's archive)
            ("1795426212.5", "2026-11-23T09:30:12.5Z"),
            ("Nov 23 09:30:12", "2026-11-23T09:30:12Z"),  // Prosody, syslog
            ("Nov  3 09:30:12", "2026-11-03T09:30:12Z"),
            ("Mon Nov 23 09:30:12 2026", "2026-11-23T09:30:12Z"),  // Gajim's console (ctime)
            ("11-23 09:30:12.300", "2026-11-23T09:30:12.3Z"),  // logcat (Conversations)
            ("11/25/26 19:05:15", "2026-11-25T19:05:15Z"),  // nbxmpp's %x %X
            ("09:30:12.2", "2026-11-27T09:30:12.2Z"),  // Smack: a time of day
            ("2026-11-23", "2026-11-23T00:00:00Z"),
            ("2026-11-23T09:30Z", "2026-11-23T09:30:00Z"),
            ("2026-11-23T09:30:12-05:30", "2026-11-23T15:00:12Z"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(instant(text), expected, text)
        }
    }

    func testTheZoneOfATimeWithoutOneAndTheOffsetOfATimeWithOne() {
        XCTAssertEqual(instant("2026-11-23 09:30:12", zone: .offset(3600)), "2026-11-23T08:30:12Z")
        XCTAssertEqual(instant("Nov 23 09:30:12", zone: .offset(-7200)), "2026-11-23T11:30:12Z")
        // A written offset wins over the zone.
        XCTAssertEqual(instant("2026-11-23T09:30:12Z", zone: .offset(3600)), "2026-11-23T09:30:12Z")
        XCTAssertEqual(instant("1795426212", zone: .offset(3600)), "2026-11-23T09:30:12Z")
        XCTAssertEqual(TimeZoneChoice(offset: "UTC"), .offset(0))
        XCTAssertEqual(TimeZoneChoice(offset: "+01:00"), .offset(3600))
        XCTAssertEqual(TimeZoneChoice(offset: "-0530"), .offset(-19800))
        XCTAssertEqual(TimeZoneChoice(offset: "+05"), .offset(18000))
        XCTAssertNil(TimeZoneChoice(offset: "Europe/Paris"))
        XCTAssertNil(TimeZoneChoice(offset: "+25:00"))
    }

    /// A year-less time is of the reference's year, unless that puts it more
    /// than a day after the reference; a time of day is of the reference's
    /// date, unless that puts it after the reference.
    func testTheYearAndTheDateRules() {
        XCTAssertEqual(instant("Nov 28 20:59:59"), "2026-11-28T20:59:59Z")  // less than a day after
        XCTAssertEqual(instant("Nov 28 21:00:01"), "2025-11-28T21:00:01Z")  // more than a day after
        XCTAssertEqual(instant("Dec 31 23:59:59"), "2025-12-31T23:59:59Z")
        let january = DateTime(seconds: 1_799_150_400)  // 2027-01-05T12:00:00Z
        XCTAssertEqual(instant("Dec 30 10:00:00", reference: january), "2026-12-30T10:00:00Z")
        XCTAssertEqual(instant("Jan 05 10:00:00", reference: january), "2027-01-05T10:00:00Z")
        XCTAssertEqual(instant("21:00:00"), "2026-11-27T21:00:00Z")
        XCTAssertEqual(instant("21:00:00.1"), "2026-11-26T21:00:00.1Z")
        XCTAssertEqual(instant("23:59:59", zone: .offset(3600)), "2026-11-26T22:59:59Z")  // the reference is 2026-11-27T22:00+01:00
        // The zone decides the reference's date: 21:00Z is the 28th at +05:00.
        XCTAssertEqual(instant("01:00:00", zone: .offset(5 * 3600)), "2026-11-27T20:00:00Z")
        // The 29th of February of a year without one is no instant.
        XCTAssertNil(instant("Feb 29 10:00:00"))
        XCTAssertEqual(instant("Feb 29 10:00:00", reference: DateTime(seconds: 1_835_611_200)), "2028-02-29T10:00:00Z")
    }

    func testWhatIsNotATime() {
        for text in ["", "yesterday", "2026-13-01", "2026-02-30", "Nov 23", "25:00:00", "12345", "2026-11-23T09:30:12+", "Foo 23 09:30:12",
                     "2026-11-23X09:30", "09:30:12 extra"] {
            XCTAssertNil(LogTime(text), text)
        }
    }

    func testTheTimesOfSinceAndUntil() {
        // (A relative time is resolved once the inputs are read: SearchOptions.resolvingRelativeBounds.)
        XCTAssertEqual(TimeBound("-10m"), .beforeLast(seconds: 600))
        XCTAssertEqual(TimeBound("-1h30m"), .beforeLast(seconds: 5400))
        XCTAssertEqual(TimeBound("-2d"), .beforeLast(seconds: 172_800))
        XCTAssertEqual(TimeBound("@1795426212"), .instant(DateTime(seconds: 1_795_426_212)))
        XCTAssertEqual(TimeBound("@0"), .instant(DateTime(seconds: 0)))
        XCTAssertEqual(TimeBound("Nov 23 09:30:12"), .written(LogTime("Nov 23 09:30:12")!))
        for text in ["-10", "-10x", "-", "-m", "@", "@x", "1795426212", "yesterday", "now"] {
            XCTAssertNil(TimeBound(text), text)
        }
    }
}
