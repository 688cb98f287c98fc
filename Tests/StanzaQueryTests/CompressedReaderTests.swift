import XCTest
import StanzaQuery
import StanzaqTestSupport

/// The XML reader undoes gzip, xz, zstd and bzip2 (stanzaq(1), INPUT) the same
/// however its input is cut into chunks: the same stanzas, and damage or none.
/// (The reader fuzzer found a zstd frame whose checksum fails read whole losing
/// its last block, and read in chunks keeping it: Fuzz/regressions/reader.)
final class CompressedReaderTests: XCTestCase {
    /// capture.xml as `command` compresses it.
    private func compressed(_ command: String) throws -> [UInt8] {
        let run = try Runner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\(command) < capture.xml | od -An -v -tu1"],
                                 in: Runner.examples, environment: Runner.environment())
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { UInt8($0) }
    }

    func testWholeCutAndCorruptReadTheSameInAnyChunks() throws {
        for command in ["gzip -c", "xz -c", "zstd -q -c", "bzip2 -c"] {
            let bytes = try compressed(command)
            XCTAssertEqual(readInChunks(bytes, chunk: 1 << 16).stanzas.count, 18, command)
            XCTAssertNil(readInChunks(bytes, chunk: 1 << 16).error, command)
            // Cut at, and a byte changed at, places through the data (the last: its checksum, its end).
            var variants: [[UInt8]] = []
            for place in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 12)) + [bytes.count - 2] {
                variants.append(Array(bytes[..<place]))
                var changed = bytes
                changed[place] ^= 0x10
                variants.append(changed)
            }
            for variant in variants {
                let whole = readInChunks(variant, chunk: 1 << 16)
                for chunk in 1...7 {
                    let pieces = readInChunks(variant, chunk: chunk)
                    XCTAssertEqual(pieces.stanzas, whole.stanzas, "\(command), \(variant.count) bytes, chunks of \(chunk)")
                    XCTAssertEqual(pieces.error == nil, whole.error == nil, "\(command), \(variant.count) bytes, chunks of \(chunk)")
                }
            }
        }
    }

    /// The fuzzer's zstd input: its frame's checksum fails after its one block,
    /// whose stanzas are read, whole or in chunks.
    func testAZstdChecksumThatFailsAfterItsBlock() throws {
        let file = PackagePaths.root.appendingPathComponent("Fuzz/regressions/reader/zstd-checksum-fails-after-its-block.zst")
        let bytes = Array(try Data(contentsOf: file))
        for chunk in [1, 5, 1 << 16] {
            let result = readInChunks(bytes, chunk: chunk)
            XCTAssertEqual(result.stanzas.count, 15, "chunks of \(chunk)")
            XCTAssertNotNil(result.error, "chunks of \(chunk)")
        }
    }
}
