import XCTest
@testable import StanzaXML

/// An input that starts with `<` is told uncompressed without the registry
/// being made (``CompressionFormat/recognised(_:atEnd:)``, a start-up cost):
/// so no format's data may start with `<`.
final class CompressionMagicTests: XCTestCase {
    func testNoFormatStartsWithALessThanSign() {
        XCTAssertEqual(CompressionFormat.registry.map(\.name), ["gzip", "xz", "zstd", "bzip2"])
        for format in CompressionFormat.registry {
            for pattern in format.magic {
                XCTAssertFalse(pattern.first?.contains(UInt8(ascii: "<")) ?? true, format.name)
            }
        }
        XCTAssertEqual(CompressionFormat.recognised(Array("<message/>".utf8), atEnd: false), .some(nil))
        XCTAssertEqual(CompressionFormat.recognised([0x1F, 0x8B, 0x08], atEnd: false), .some(.gzip))
    }
}
