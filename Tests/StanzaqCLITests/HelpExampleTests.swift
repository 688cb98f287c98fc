import Foundation
import XCTest
import StanzaqTestSupport

/// Every example command of `stanzaq --help` runs, on a copy of examples/, and finds something.
final class HelpExampleTests: XCTestCase {
    func testEveryHelpExampleRuns() throws {
        let help = try Runner.run(Runner.requireBinary(), ["--help"], in: PackagePaths.root, environment: Runner.environment())
        // An example is an indented line starting with "stanzaq", with its continuation lines.
        var examples: [String] = []
        var pending: String?
        for line in help.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let command = pending {
                pending = nil
                examples.append(command + " " + trimmed)
                continue
            }
            guard line.hasPrefix("  stanzaq ") else { continue }
            if trimmed.hasSuffix("\\") { pending = String(trimmed.dropLast()) } else { examples.append(trimmed) }
        }
        XCTAssertGreaterThanOrEqual(examples.count, 7, help.output)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stanzaq-help-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Runner.examples, to: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let path = try Runner.requireBinary().deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        for example in examples {
            let result = try Runner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", example], in: scratch,
                                        environment: Runner.environment(["PATH": path]))
            XCTAssertEqual(result.status, 0, "\(example): \(result.stderr)")
            XCTAssertTrue(!result.stdout.isEmpty || example.contains(">"), "\(example) printed nothing")
        }
        let avatar = try Data(contentsOf: scratch.appendingPathComponent("avatar.png"))
        XCTAssertEqual(Array(avatar.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }
}
