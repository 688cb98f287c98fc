import StanzaQuery
import StanzaqTestSupport
import XCTest
@testable import StanzaqKit

/// StanzaqKit's pieces of grep's habits on their own: the file walk (reusable by
/// a parallel search), globs, and the bounds of the context and pair sinks.
final class WalkAndSinkTests: XCTestCase {
    func testWalkYieldsInputsInOrder() throws {
        let scratch = try ScratchDirectory()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("d/e"), withIntermediateDirectories: true)
        for name in ["d/b", "d/a", "d/e/c", "d/é", "d/Z"] { try scratch.write(name, "<a/>") }
        let folder = open(scratch.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        XCTAssertEqual(Array(FileWalk(operands: ["d", "-", "x"], recursive: true, directory: folder)),
                       [.input("d/Z"), .input("d/a"), .input("d/b"), .input("d/e/c"), .input("d/é"), .input("-"), .input("x")])
        XCTAssertEqual(Array(FileWalk(operands: [], directory: folder)), [.input("-")])
        XCTAssertEqual(Array(FileWalk(operands: ["d"], directory: folder)), [.input("d")])
        XCTAssertEqual(Array(FileWalk(operands: ["d/e"], recursive: true, filter: try GlobFilter(["!c"]), directory: folder)), [])
    }

    func testGlobs() throws {
        func admits(_ globs: [String], _ path: String, directory: Bool = false) throws -> Bool {
            try GlobFilter(globs).admits(path, isDirectory: directory)
        }
        XCTAssertTrue(try admits([], "a/b.xml"))
        XCTAssertTrue(try admits(["*.xml"], "a/b.xml"))
        XCTAssertFalse(try admits(["*.xml"], "a/b.log"))
        XCTAssertTrue(try admits(["*.xml"], "a", directory: true))
        XCTAssertFalse(try admits(["a/*.xml"], "x/a/b.xml"))
        XCTAssertTrue(try admits(["**/a/*.xml"], "x/a/b.xml"))
        XCTAssertTrue(try admits(["a/**"], "a/x/y"))
        XCTAssertTrue(try admits(["a/**/b"], "a/b"))
        XCTAssertTrue(try admits(["a/**/b"], "a/x/y/b"))
        XCTAssertFalse(try admits(["a*b"], "a/b"))
        XCTAssertTrue(try admits(["*.{xml,log}"], "x.log"))
        XCTAssertTrue(try admits(["{a,b{c,d}}.x"], "bd.x"))
        XCTAssertTrue(try admits(["[!a]?.x"], "bc.x"))
        XCTAssertFalse(try admits(["[!a]?.x"], "ac.x"))
        XCTAssertTrue(try admits(["\\*.x"], "*.x"))
        XCTAssertFalse(try admits(["\\*.x"], "a.x"))
        XCTAssertFalse(try admits(["!logs/"], "logs", directory: true))
        XCTAssertTrue(try admits(["!logs/"], "logs"))
        XCTAssertThrowsError(try GlobFilter(["[b-a]"]))
        XCTAssertThrowsError(try GlobFilter(["!"]))
    }

    private func stanzas(_ text: String) throws -> [Element] {
        try StanzaReader.stanzas(in: text)
    }

    /// -B keeps only the last n stanzas, however many pass.
    func testContextHoldsOnlyTheStanzasBefore() throws {
        let output = Output.inMemory()
        let sink = ContextSink(formatter: RecordFormatter(format: .text), output: output, invert: false,
                               context: StanzaContext(before: 2, after: 0))
        let stanza = try stanzas("<a/>")[0]
        for number in 1...10_000 {
            try sink.passed(stanza, in: StanzaPlace(file: "f", number: number))
            XCTAssertLessThanOrEqual(sink.heldStanzas, 2)
        }
        try sink.counted(stanza, in: StanzaPlace(file: "f", number: 10_001))
        try output.flush()
        XCTAssertEqual(output.text, "<a/>\n<a/>\n<a/>\n")
        XCTAssertEqual(sink.heldStanzas, 0)
    }

    /// A request is forgotten `window` stanzas later; a response is awaited as long.
    func testPairWindow() throws {
        let output = Output.inMemory()
        let sink = PairSink(formatter: RecordFormatter(format: .text, withStanzaNumber: true), output: output, invert: false, window: 2)
        let all = try stanzas("<iq type='get' id='1'/><x/><x/><iq type='result' id='1'/><iq type='get' id='2'/><x/><iq type='result' id='2'/>")
        func place(_ number: Int) -> StanzaPlace { StanzaPlace(file: "f", number: number) }
        try sink.passed(all[0], in: place(1))
        try sink.passed(all[1], in: place(2))
        try sink.passed(all[2], in: place(3))
        XCTAssertEqual(sink.heldStanzas, 1)
        // Three stanzas after the request: it is forgotten, the response printed alone.
        try sink.counted(all[3], in: place(4))
        XCTAssertEqual(sink.heldStanzas, 0)
        try sink.counted(all[4], in: place(5))
        XCTAssertTrue(sink.wantsMoreStanzas)
        try sink.passed(all[5], in: place(6))
        try sink.passed(all[6], in: place(7))
        try output.flush()
        XCTAssertEqual(output.text, "4:<iq type='result' id='1'/>\n5:<iq type='get' id='2'/>\n7-<iq type='result' id='2'/>\n")
        XCTAssertFalse(sink.wantsMoreStanzas)
        // One stanza too far: not printed, and no longer awaited.
        try sink.endInput("f", count: 2)
        try sink.counted(all[4], in: place(1))
        try sink.passed(all[1], in: place(2))
        try sink.passed(all[2], in: place(3))
        XCTAssertTrue(sink.wantsMoreStanzas)
        try sink.passed(all[6], in: place(4))
        XCTAssertFalse(sink.wantsMoreStanzas)
        try output.flush()
        XCTAssertEqual(output.text, "4:<iq type='result' id='1'/>\n5:<iq type='get' id='2'/>\n7-<iq type='result' id='2'/>\n--\n1:<iq type='get' id='2'/>\n")
    }

    /// Past its budget of bytes, the sink forgets the oldest requests first.
    func testPairBudget() throws {
        let output = Output.inMemory()
        let sink = PairSink(formatter: RecordFormatter(format: .text, withStanzaNumber: true), output: output, invert: false,
                            window: 100, budget: 200)
        let all = try stanzas("<iq type='get' id='1'/><iq type='get' id='2'/><iq type='result' id='2'/><iq type='result' id='1'/>")
        try sink.passed(all[0], in: StanzaPlace(file: "f", number: 1))
        try sink.passed(all[1], in: StanzaPlace(file: "f", number: 2))
        XCTAssertEqual(sink.heldStanzas, 1)
        try sink.counted(all[2], in: StanzaPlace(file: "f", number: 3))
        try sink.counted(all[3], in: StanzaPlace(file: "f", number: 4))
        try output.flush()
        XCTAssertEqual(output.text, "2-<iq type='get' id='2'/>\n3:<iq type='result' id='2'/>\n4:<iq type='result' id='1'/>\n")
    }
}
