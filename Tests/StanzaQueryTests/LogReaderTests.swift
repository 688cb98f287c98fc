import XCTest
import StanzaQuery

/// stanzaq(1), LOGS: the stanzas inside logs, with their fields.
final class LogReaderTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/logs")

    /// One row per stanza: line, direction, session, time, name, id.
    func rows(_ text: String, format: LogFormat? = nil) -> (rows: [String], damage: [String]) {
        let (stanzas, damage) = LogReader.stanzas(in: text, format: format)
        return (stanzas.map { stanza, source in
            [String(source.line), source.direction?.rawValue ?? "-", source.session ?? "-", source.time ?? "-",
             "{\(stanza.namespace)}\(stanza.name)", stanza.attribute("id") ?? "-"].joined(separator: " ")
        }, damage.map(\.description))
    }

    func example(_ name: String) throws -> String {
        try String(contentsOf: Self.examples.appendingPathComponent(name), encoding: .utf8)
    }

    func testProsody() throws {
        let (rows, damage) = rows(try example("prosody.log"))
        XCTAssertEqual(rows, [])
        XCTAssertEqual(damage, [])
    }
}
