import XCTest
@testable import StanzaLogs
@testable import StanzaXML
import StanzaqTestSupport

/// The invariant that makes reading a log in parts safe: at a line boundary
/// where a reader hands out its ``LogCheckpoint``, a reader started from it
/// hands over, for the lines after, exactly what the reader of the whole log
/// hands over — stanzas (whole, with their fields and places), damage and
/// stanza numbers.
final class LogCheckpointTests: XCTestCase {
    /// The logs real software wrote, the samples of every format, and the
    /// inputs the log fuzzer found.
    static func logs() throws -> [(name: String, bytes: [UInt8])] {
        var logs: [(String, [UInt8])] = []
        for directory in ["Tests/Fixtures/real-logs/logs", "examples/logs", "Fuzz/regressions/log"] {
            let url = PackagePaths.file(directory)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name != "README.md" {
                logs.append((directory + "/" + name, Array(try Data(contentsOf: url.appendingPathComponent(name)))))
            }
        }
        return logs
    }

    /// What a reader hands over, a line each, in order.
    final class Transcript {
        var lines: [String] = []
        let serializer = XMLSerializer()

        func reader(resuming checkpoint: LogCheckpoint? = nil) -> LogReader {
            let handler: LogReader.Handler = { [unowned self] stanza, source in
                lines.append("\(source) \(serializer.string(for: stanza))")
                return true
            }
            let damage: (InputDamage) -> Void = { [unowned self] in lines.append("damage \($0.line):\($0.column) \($0.message)") }
            guard let checkpoint else { return LogReader(handler: handler, damage: damage) }
            let reader = LogReader(resuming: checkpoint, handler: handler, damage: damage)
            XCTAssertEqual(reader.checkpoint, checkpoint, "a reader started from a checkpoint hands out the same")
            return reader
        }
    }

    func testAReaderStartedAtACheckpointReadsOnAsTheWholeLogsReader() throws {
        var generator = SeededGenerator(seed: 40)
        var taken = 0, boundaries = 0
        for (name, bytes) in try Self.logs() {
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
            // At up to 24 line boundaries of each log, at random.
            let chosen = Set((0..<24).map { _ in Int(generator.next() % UInt64(lines.count)) })
            let whole = Transcript()
            let reader = whole.reader()
            var checkpoints: [(line: Int, checkpoint: LogCheckpoint, handedOver: Int)] = []
            for (index, line) in lines.enumerated() {
                reader.feed(index == lines.count - 1 ? Array(line.dropLast()) : line)
                guard chosen.contains(index + 1) else { continue }
                boundaries += 1
                if let checkpoint = reader.checkpoint { checkpoints.append((index + 1, checkpoint, whole.lines.count)) }
            }
            reader.finish()
            for (line, checkpoint, handedOver) in checkpoints {
                XCTAssertEqual(checkpoint.line, line, name)
                let resumed = Transcript()
                let next = resumed.reader(resuming: checkpoint)
                next.feed(Array(lines[line...].joined().dropLast()))
                next.finish()
                XCTAssertEqual(resumed.lines, Array(whole.lines[handedOver...]), "\(name), from line \(line + 1) on")
                taken += 1
            }
        }
        print("checkpoints: \(taken) at \(boundaries) boundaries")
        // Most boundaries have a checkpoint: the test is not made of the few.
        XCTAssertGreaterThan(taken, boundaries / 2, "\(taken) checkpoints at \(boundaries) boundaries")
    }
}
