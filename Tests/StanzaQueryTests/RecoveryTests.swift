import XCTest
import Foundation
import StanzaQuery
import StanzaqTestSupport

/// StanzaReader with `.skipDamage`: what is skipped, what is read, and the damage values.
final class RecoveryTests: XCTestCase {
    private func read(_ bytes: [UInt8], chunk: Int = 1 << 16) throws -> (stanzas: [String], damages: [InputDamage]) {
        var stanzas: [String] = []
        var damages: [InputDamage] = []
        let reader = StanzaReader(recovery: .skipDamage) { stanzas.append($0.xmlString()); return true }
        reader.damageHandler = { damages.append($0); return true }
        try reader.feed(bytes, inChunksOf: chunk)
        try reader.finish()
        XCTAssertEqual(reader.stanzaCount, stanzas.count)
        XCTAssertEqual(reader.damageCount, damages.count)
        return (stanzas, damages)
    }

    func testDamageSaysWhatWasSkipped() throws {
        let result = try read(Array("<a/>\n<b>x & y</b>\n<c/>".utf8))
        XCTAssertEqual(result.stanzas, ["<a/>", "<c/>"])
        XCTAssertEqual(result.damages, [InputDamage(
            line: 2, column: 7, message: "xmlParseEntityRef: no name",
            skippedFrom: InputPosition(offset: 5, line: 2, column: 1),
            resumedAt: InputPosition(offset: 17, line: 2, column: 13))])
        XCTAssertEqual("\(result.damages[0])", "2:7: xmlParseEntityRef: no name")
        // Cut off at the end: nothing to resume at.
        let cut = try read(Array("<a/>\n<b><c>".utf8))
        XCTAssertEqual(cut.damages.map(\.description), ["2:1: <b> is not closed (the input ends at 2:7, inside <c>)"])
        XCTAssertNil(cut.damages[0].resumedAt)
    }

    func testTheHandlerMayThrow() {
        struct Stop: Error {}
        var names: [String] = []
        let reader = StanzaReader { stanza in
            names.append(stanza.name)
            if stanza.name == "b" { throw Stop() }
            return true
        }
        XCTAssertThrowsError(try reader.feed(Array("<a/><b/><c/>".utf8))) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(names, ["a", "b"])
        XCTAssertTrue(reader.isStopped)
    }

    func testAStanzaStartingWhereAnotherEndedIsReadAlikeHoweverItIsFed() throws {
        // The root of <iq id='b'> is at column 12 of its line; a child <iq> indented
        // by 2 is taken for a new stanza (the one before cut off). Fed in small
        // pieces, the reader keeps only the stanza's own bytes and saw the root at
        // column 0, so the child was a child: found by the reader fuzzer. (And the
        // stray end tag's name, cut by a read, was quoted as far as it had come.)
        let bytes = Array("<iq id='a'/><iq id='b' type='get'>\n  <iq id='c'/>\n</iq>\n<iq id='d'/>\n".utf8)
        let whole = try read(bytes)
        XCTAssertEqual(whole.stanzas, ["<iq id='a'/>", "<iq id='c'/>", "<iq id='d'/>"])
        XCTAssertEqual(whole.damages.map(\.description), ["1:13: <iq> is not closed (a new <iq> starts at 2:3)",
                                                          "3:1: end tag </iq> where no element is open"])
        for chunk in 1...7 {
            let split = try read(bytes, chunk: chunk)
            XCTAssertEqual(split.stanzas, whole.stanzas, "chunk \(chunk)")
            XCTAssertEqual(split.damages.map(\.description), whole.damages.map(\.description), "chunk \(chunk)")
        }
    }

    func testABadCharacterInTextAfterTheLastStanzaIsDamageHoweverTheInputIsFed() throws {
        // A stream cut off after a stanza, then text with a control character:
        // libxml2 checks text when it sees its end or has 300 bytes of it, so the
        // damage was found when the text came in one read and not in small ones
        // (the reader fuzzer found it). The reader now shows libxml2 the end.
        let head = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><m id='1'/>"
        for text in [head + "abc\u{1F}def", head + String(repeating: "a", count: 300) + "\u{1F}b"] {
            let bytes = Array(text.utf8)
            for chunk in [1 << 16, 1, 2, 7, 64] {
                let result = try read(bytes, chunk: chunk)
                XCTAssertEqual(result.stanzas, ["<m xmlns='jabber:client' id='1'/>"], "chunk \(chunk)")
                XCTAssertEqual(result.damages.map(\.description), ["1:\(text.utf8.count - (text.hasSuffix("def") ? 3 : 1)): PCDATA invalid Char value 31"],
                               "chunk \(chunk)")
            }
        }
    }

    /// The same in a CDATA section never closed (the log-damage issue, item 11;
    /// the reader fuzzer found it): only `]]>` shows libxml2 where it ends.
    func testABadByteInACDATASectionLeftOpenAfterTheLastStanzaIsDamageHoweverTheInputIsFed() throws {
        let head = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><m id='1'/>\n"
        let bytes = Array((head + "<![CDATA[ some text " + String(repeating: "x", count: 600)).utf8) + [0xFF, 0x03] + Array(" end".utf8)
        var messages: Set<String> = []
        for chunk in [1 << 16, 1, 2, 7, 64, 512] {
            let result = try read(bytes, chunk: chunk)
            XCTAssertEqual(result.stanzas, ["<m xmlns='jabber:client' id='1'/>"], "chunk \(chunk)")
            XCTAssertEqual(result.damages.count, 1, "chunk \(chunk): \(result.damages)")
            messages.formUnion(result.damages.map { $0.message.components(separatedBy: " (").first ?? "" })
        }
        XCTAssertEqual(messages, ["not UTF-8: bytes 0xFF"])
    }

    /// The text a message quotes is the same however the input was fed (it was
    /// cut where a read ended: 'he' for 'hello world').
    func testTextOutsideAnyStanzaIsQuotedAlikeHoweverTheInputIsFed() throws {
        let bytes = Array("<m id='a'/>hello world<m id='b'/>\n<m id='c'/>tail text\n".utf8)
        for chunk in [1 << 16, 1, 2, 7, 13] {
            let result = try read(bytes, chunk: chunk)
            XCTAssertEqual(result.stanzas, ["<m id='a'/>", "<m id='b'/>", "<m id='c'/>"], "chunk \(chunk)")
            XCTAssertEqual(result.damages.map { "\($0.line):\($0.column): \($0.message)" },
                           ["1:12: text outside any stanza: 'hello world'", "2:12: text outside any stanza: 'tail text'"], "chunk \(chunk)")
        }
    }

    /// A byte no UTF-8 character starts with, between stanzas, then CDATA: named
    /// alike however the input is fed (byte by byte, libxml2 said only "detected
    /// an error in element content").
    func testAByteNoCharacterStartsWithIsNamedAlikeHoweverTheInputIsFed() throws {
        let head = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><m id='a'/>"
        let bytes = Array(head.utf8) + [0xFF, 0xFE] + Array("<![CDATA[x]]><m id='b'/>".utf8)
        for chunk in [1 << 16, 1, 2, 7] {
            let result = try read(bytes, chunk: chunk)
            XCTAssertEqual(result.stanzas, ["<m xmlns='jabber:client' id='a'/>", "<m xmlns='jabber:client' id='b'/>"], "chunk \(chunk)")
            XCTAssertEqual(result.damages.map { "\($0.line):\($0.column): \($0.message)" },
                           ["1:97: not UTF-8: bytes 0xFF (XMPP is UTF-8 only)"], "chunk \(chunk)")
        }
    }

    func testByteOrderMarkSplitAcrossReadsGivesTheSameAnswer() throws {
        // A stray 0xEF, then XML: the same answer whether it comes alone or not.
        let bytes: [UInt8] = [0xEF] + Array("    <m id='1'/>".utf8)
        let whole = try read(bytes)
        let split = try read(bytes, chunk: 1)
        XCTAssertEqual(whole.stanzas, split.stanzas)
        XCTAssertEqual(whole.damages.map(\.description), split.damages.map(\.description))
        XCTAssertEqual(whole.stanzas, ["<m id='1'/>"])
        XCTAssertEqual(whole.damages, [])
    }

    func testTextLimitIsPerTextNodeWhateverTheDepthLimit() throws {
        // Two text runs of 6 MB around a child: each is within the 10,000,000-byte limit.
        let run = String(repeating: "x", count: 6_000_000)
        let xml = Array("<m>\(run)<c/>\(run)</m>".utf8)
        for limit in [nil, 0] as [Int?] {
            var count = 0
            let reader = StanzaReader { _ in count += 1; return true }
            reader.depthLimit = limit
            try reader.feed(xml)
            try reader.finish()
            XCTAssertEqual(count, 1)
        }
    }

    func testManySmallTopLevelElementsFedAtOnce() throws {
        // Each gets a parser of its own; none is handed (and copies) the rest of the input.
        let xml = Array(String(repeating: "<a/>", count: 200_000).utf8)
        var count = 0
        let reader = StanzaReader { _ in count += 1; return true }
        let started = Date()
        try reader.feed(xml)
        try reader.finish()
        XCTAssertEqual(count, 200_000)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "hang guard")
    }

    /// Dozens of stanzas of the shared corpus damaged at random (seeded): every other
    /// stanza is still read, in order, and every damage is reported.
    func testRandomDamageOverTheCorpus() throws {
        try ReaderTests.requireCorpus()
        let corpus = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ReaderTests.corpusPath)))
        let stanzas = try StanzaReader.stanzas(in: String(decoding: corpus, as: UTF8.self)).map { $0.xmlString() }
        XCTAssertEqual(stanzas.count, ReaderTests.corpusStanzaCount)
        for seed in UInt64(1)...12 {
            try damageCorpus(stanzas, seed: seed)
        }
    }

    private func damageCorpus(_ stanzas: [String], seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var damaged = Set<Int>()
        while damaged.count < 60 { damaged.insert(Int.random(in: 0..<stanzas.count, using: &generator)) }
        var input = "<?xml version='1.0'?>\n<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
        var expected: [String] = []
        /// What was done to each damaged stanza, and how many undamaged ones came before it.
        var kinds: [(kind: String, before: Int, text: String)] = []
        for (index, stanza) in stanzas.enumerated() {
            guard damaged.contains(index) else {
                input += stanza + "\n"
                expected.append(stanza)
                continue
            }
            let characters = Array(stanza)
            let firstEnd = characters.firstIndex(of: ">")!
            let kind: String, text: String
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:   // a stray '&' in the start tag's last attribute value (as a client that does not escape writes it)
                let valueEnd = characters[..<firstEnd].lastIndex(of: "'") ?? (firstEnd - (characters[firstEnd - 1] == "/" ? 1 : 0))
                text = String(characters[..<valueEnd]) + (characters[valueEnd] == "'" ? "&" : " x='&'") + String(characters[valueEnd...])
                kind = "ampersand"
            case 1:   // cut (as logcat cuts), the next stanza on the next line; not just after a '>'
                      // (and blanks): a cut between tags followed by an element that is not message,
                      // presence, iq or of the same name looks like an unindented child, which the
                      // resynchronisation cannot tell apart (stanzaq(1), INPUT)
                var cut = Int.random(in: 2..<characters.count, using: &generator)
                while cut > 2 && (characters[cut - 1] == ">" || characters[cut - 1].isWhitespace) { cut -= 1 }
                text = String(characters[..<cut])
                kind = "cut"
            case 2:   // a '<' in the first attribute value, or a '<' in text
                if let quote = characters.firstIndex(of: "'"), quote < firstEnd {
                    text = String(characters[...quote]) + "<" + String(characters[(quote + 1)...])
                } else {
                    text = String(characters[...firstEnd]) + "a < b" + String(characters[(firstEnd + 1)...])
                }
                kind = "less-than"
            default:  // a mismatched end tag
                if let close = stanza.range(of: "</", options: .backwards) {
                    text = stanza[..<close.lowerBound] + "</mismatched>"
                } else {
                    text = String(characters[..<(characters.count - 2)]) + "></mismatched>"
                }
                kind = "mismatch"
            }
            input += text + "\n"
            kinds.append((kind, expected.count, text))
        }
        let result = try read(Array(input.utf8), chunk: 4093)
        func damageBefore(_ stanza: Int) -> String {
            guard let last = kinds.last(where: { $0.before <= stanza }) else { return "none" }
            return "\(last.kind): \(last.text.prefix(400))"
        }
        if let first = zip(result.stanzas, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            XCTFail("seed \(seed): stanza \(first) is \(result.stanzas[first].prefix(300)), expected \(expected[first].prefix(300)); after damage \(damageBefore(first))")
        } else {
            XCTAssertEqual(result.stanzas.count, expected.count, "seed \(seed)")
        }
        XCTAssertEqual(result.damages.count, damaged.count, "seed \(seed): " + result.damages.map(\.description).joined(separator: "\n"))
    }
}
