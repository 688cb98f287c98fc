import CByteSearch
import XCTest

/// The prefilter's search for several needles at once (`stanzaq_find_literals`),
/// against a search one place at a time: texts over a few letters (so that
/// needles occur often, in either case), needle sets of one to ten (past eight
/// the search takes another way), places near the ends of 16- and 32-byte blocks.
final class LiteralSearchTests: XCTestCase {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func naive(_ text: [UInt8], from: Int, end: Int, _ needles: [(bytes: [UInt8], caseless: Bool)]) -> (Int, Int) {
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 32 : byte }
        var at = from
        while at < end {
            for (index, needle) in needles.enumerated() where at + needle.bytes.count <= end {
                let matches = needle.bytes.indices.allSatisfy { offset in
                    needle.caseless ? lower(text[at + offset]) == lower(needle.bytes[offset]) : text[at + offset] == needle.bytes[offset]
                }
                if matches { return (at, index) }
            }
            at += 1
        }
        return (end, -1)
    }

    /// The bytes a needle is searched for by: its two rarest, the first of equals.
    func testTheRarestBytesOfANeedle() {
        func pair(_ text: String, caseless: Bool) -> [Int] {
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                let needle = stanzaq_needle_make(bytes.baseAddress!, bytes.count, caseless ? 1 : 0)
                return [needle.at, needle.at2]
            }
        }
        XCTAssertEqual(pair("error", caseless: true), [1, 2])
        XCTAssertEqual(pair("<stream:stream", caseless: false), [0, 7])
        XCTAssertEqual(pair("&#", caseless: false), [0, 1])
        XCTAssertEqual(pair("x", caseless: false), [0, 0])
    }

    func testSameAsOnePlaceAtATime() {
        var random = Generator(state: 30)
        let alphabet = Array("abAB<>'\"&#e".utf8)
        for round in 0..<3000 {
            let text = (0..<Int.random(in: 0...300, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let needles = (0..<Int.random(in: 1...10, using: &random)).map { _ in
                (bytes: (0..<Int.random(in: 1...(round % 3 == 0 ? 20 : 4), using: &random)).map { _ in alphabet.randomElement(using: &random)! },
                 caseless: Bool.random(using: &random))
            }
            let from = text.isEmpty ? 0 : Int.random(in: 0..<text.count, using: &random)
            let end = Int.random(in: from...text.count, using: &random)
            var described = needles.map { needle in
                let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: needle.bytes.count)
                copy.initialize(from: needle.bytes, count: needle.bytes.count)
                var made = stanzaq_needle_make(copy, needle.bytes.count, needle.caseless ? 1 : 0)
                // Every second round, any two of its bytes compared first, not the rarest.
                if round % 2 == 1 {
                    let one = Int.random(in: 0..<needle.bytes.count, using: &random)
                    let two = Int.random(in: 0..<needle.bytes.count, using: &random)
                    (made.at, made.at2) = (min(one, two), max(one, two))
                }
                return made
            }
            defer { described.forEach { UnsafeMutablePointer(mutating: $0.bytes).deallocate() } }
            var which: Int32 = 0
            let found = text.withUnsafeBufferPointer { bytes in
                stanzaq_find_literals(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, from, end, &described, Int32(needles.count), &which)
            }
            let expected = Self.naive(text, from: from, end: end, needles)
            XCTAssertEqual(found, expected.0, "round \(round)")
            XCTAssertEqual(Int(which), expected.1, "round \(round)")
            if found == expected.0 && found < end {
                let needle = needles[Int(which)]
                XCTAssertLessThanOrEqual(found + needle.bytes.count, end)
            }
        }
    }
}
