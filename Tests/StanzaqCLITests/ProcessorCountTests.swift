import Foundation
import StanzaqKit
import StanzaqTestSupport
import XCTest

/// `--threads`' default is the CPUs the process may use: the CPU quota of its
/// cgroup where one is set, else its affinity mask, as `nproc` counts it (and
/// Rust's `available_parallelism`, which ripgrep uses). ``availableProcessorCount()``
/// reads them from the kernel's files without Foundation, whose reading cost
/// start-up time.
final class ProcessorCountTests: XCTestCase {
    func testTheCountIsTheAffinityMasks() throws {
        for line in ["/sys/fs/cgroup/cpu.max", "/sys/fs/cgroup/cpu/cpu.cfs_quota_us"] {
            if let text = try? String(contentsOfFile: line, encoding: .utf8), !text.hasPrefix("max"), !text.hasPrefix("-1") {
                throw XCTSkip("a cgroup CPU quota is set (\(line)): nproc does not count it")
            }
        }
        let nproc = try Runner.shell("nproc", in: PackagePaths.root)
        XCTAssertEqual("\(availableProcessorCount())\n", nproc.output)
    }
}
