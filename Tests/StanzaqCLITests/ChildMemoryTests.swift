import Foundation
import StanzaqTestSupport
import XCTest

/// The peak memory the tests read of a child (``Child``) is the child's own,
/// whatever the test process itself has used: the memory guards of
/// ``CLITestCase/assertBounded`` fail for a child that uses too much, and only then.
final class ChildMemoryTests: XCTestCase {
    private func peakKiB(allocating megabytes: Int) throws -> Int {
        let python = try XCTUnwrap(["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) })
        // The bytes are written, so that they are resident, and kept a while.
        let child = try Child([python, "-c", "import time; b = bytearray(\(megabytes) << 20); time.sleep(0.3)"], environment: [:])
        return try XCTUnwrap(child.wait(timeout: 60)).peakMemoryKiB
    }

    func testAChildsPeakIsItsOwn() throws {
        // The test process holding more than the child uses does not show in the child's peak.
        let held = [UInt8](repeating: 1, count: 256 << 20)
        let small = try peakKiB(allocating: 64)
        XCTAssertGreaterThan(small, 64 << 10)
        XCTAssertLessThan(small, 160 << 10, "the test process holds \(held.count >> 20) MiB")
        let large = try peakKiB(allocating: 320)
        XCTAssertGreaterThan(large, 320 << 10)
    }
}
