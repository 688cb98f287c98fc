import XCTest
import StanzaQuery

/// Input is UTF-8 only (stanzaq(1), INPUT), and messages stay on one line.
final class EncodingTests: XCTestCase {
    func testAUTF8ByteOrderMarkIsSkippedWholeOrByteByByte() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<a>é</a>".utf8)
        XCTAssertEqual(readInChunks(bytes, chunk: 1 << 16).stanzas, ["<a>é</a>"])
        XCTAssertEqual(readInChunks(bytes, chunk: 1).stanzas, ["<a>é</a>"])
        XCTAssertNil(readInChunks(bytes, chunk: 1).error)
    }

    func testADeclaredEncodingIsIgnoredAndOtherBytesAreMalformed() {
        let latin1: [UInt8] = Array("<?xml version='1.0' encoding='ISO-8859-1'?><a>".utf8) + [0xE9] + Array("</a>".utf8)
        let result = readInChunks(latin1, chunk: 1 << 16)
        XCTAssertEqual(result.stanzas, [])
        XCTAssertEqual(result.error, "1:47: not UTF-8: bytes 0xE9 0x3C 0x2F 0x61 (the XML declaration says encoding='ISO-8859-1', but XMPP is UTF-8 only)")
    }

    func testAControlCharacterInAQueryIsNamedNotPrinted() {
        XCTAssertThrowsError(try Query("a\tb")) { error in
            XCTAssertEqual("\(error)", """
                query: unexpected U+0009: expected '/', '<', an extraction (@ @@ # $ \\…\\), a conversion (|…) or the end at column 2
                  a b
                   ^
                """)
        }
    }
}
