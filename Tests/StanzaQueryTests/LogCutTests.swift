import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs
import StanzaqTestSupport

/// Parts of a log read on their own (stanzaq(1), "Parallelism"): a part read by
/// a reader started at its first line finds what one reader of the whole log
/// finds there when the reader before it ended at a clean cut, the part's
/// reader depends on nothing before it, and its start tags fare as in one
/// reader (``LogHistory``).
final class LogCutTests: XCTestCase {
    /// A Prosody log as mod_stanza_debug, stanza_router and sessionmanager write it:
    /// two sessions, stanzas spanning lines, start tags before and after their stanzas.
    static let log = [
        "Nov 23 09:30:12 c2s55e8a7f1c3a0\tdebug\tRECV: <message id='m1' type='chat'><body>one",
        "\ttwo</body></message>",
        "Nov 23 09:30:12 c2s55e8a7f1c3a0\tdebug\tReceived[c2s]: <message id='m1' type='chat'>",
        "Nov 23 09:30:12 c2s7f3b2c0d9e11\tdebug\tSending[c2s]: <message id='m1' type='chat'>",
        "Nov 23 09:30:12 c2s7f3b2c0d9e11\tdebug\tSEND: <message id='m1' type='chat'><body>one two</body></message>",
        "Nov 23 09:30:13 c2s55e8a7f1c3a0\tdebug\tClient sent opening <stream:stream> to montague.lit",
        "Nov 23 09:30:13 c2s55e8a7f1c3a0\tdebug\tRECV: <iq id='i1' type='get'><ping xmlns='urn:xmpp:ping'/></iq>",
        "Nov 23 09:30:13 c2s7f3b2c0d9e11\tdebug\tRECV: <presence id='p1'/>",
        "Nov 23 09:30:13 c2s55e8a7f1c3a0\tdebug\tReceived[c2s]: <iq id='i1' type='get'>",
        "Nov 23 09:30:13 c2s7f3b2c0d9e11\tdebug\tReceived[c2s]: <presence id='p1'>",
        "Nov 23 09:30:14 c2s55e8a7f1c3a0\tdebug\tSending[c2s]: <iq id='i1' type='result'>",
        "Nov 23 09:30:14 c2s55e8a7f1c3a0\tdebug\tSEND: <iq id='i1' type='result'/>",
        "Nov 23 09:30:14 c2s7f3b2c0d9e11\tdebug\tRECV: <message id='m2'><body>three</body></message>",
    ]

    /// What a reader finds, as rows, and the reader.
    func read(_ lines: ArraySlice<String>, midLog: Bool, toEnd: Bool = false) -> (rows: [String], reader: LogReader) {
        var rows: [String] = []
        let handler: LogReader.Handler = { stanza, source in
            rows.append("\(source.line) \(source.direction!.rawValue) \(stanza.name) \(stanza.attribute("id") ?? "-")")
            return true
        }
        let reader: LogReader
        if midLog {
            // Started as a parallel search starts a part: the lines before not read.
            let start = LogCheckpoint(unknownPastAt: lines.startIndex + 1, format: .prosody, handover: LogHandover())
            reader = LogReader(resuming: start, handler: handler, damage: { XCTFail("damage: \($0)") })
        } else {
            reader = LogReader(format: .prosody, handler: handler, damage: { XCTFail("damage: \($0)") })
            reader.continueInNewFile(linesBefore: lines.startIndex)
        }
        reader.keepLedger()
        reader.feed(Array(lines.map { $0 + "\n" }.joined().utf8))
        // A part that ends inside the log hands off as in a parallel search.
        if toEnd { reader.finish() } else { reader.handOff() }
        return (rows, reader)
    }

    /// Cutting and skipping are what a format opts into: these formats do
    /// (every one today; a new format is read by one reader until it says so).
    func testTheFormatsThatOptIntoCuttingAndSkipping() {
        XCTAssertEqual(LogFormat.allCases.filter(\.isCut).map(\.rawValue).sorted(), LogFormat.allCases.map(\.rawValue).sorted())
        XCTAssertEqual(LogFormat.allCases.filter { $0.recordSpelling != nil }.map(\.rawValue).sorted(),
                       ["ejabberd", "generic", "jabberd2", "libpurple", "libstrophe", "monal", "nbxmpp", "profanity", "prosody", "qxmpp", "slixmpp", "smack",
                        "strophejs", "tshark"])
    }

    func testEveryCutBeforeAStanzaOfWholeStanzasIsClean() {
        let (whole, _) = read(Self.log[...], midLog: false, toEnd: true)
        XCTAssertEqual(whole, ["1 in message m1", "5 out message m1", "7 in iq i1", "8 in presence p1",
                               "12 out iq i1", "13 in message m2"])
        // Before a RECV line that follows no start tag alone, and whose part holds
        // every stanza its start tags belong to.
        for cut in [6, 12] {
            let first = read(Self.log[..<cut], midLog: false)
            let second = read(Self.log[cut...], midLog: true, toEnd: true)
            XCTAssertNil(first.reader.handOffTrouble, "cut before line \(cut + 1)")
            XCTAssertFalse(second.reader.dependsOnUnknownPast, "cut before line \(cut + 1)")
            let state = LogHistory()
            XCTAssertTrue(state.apply(first.reader.ledger!) && state.apply(second.reader.ledger!), "cut before line \(cut + 1)")
            XCTAssertEqual(first.rows + second.rows, whole, "cut before line \(cut + 1)")
        }
    }

    func testCutsThatAreNotClean() {
        // Inside a stanza spanning lines: the line after continues a record begun before.
        XCTAssertTrue(read(Self.log[1...], midLog: true).reader.dependsOnUnknownPast)
        // Between a start tag and its stanza: the start tag waits.
        XCTAssertFalse(read(Self.log[..<4], midLog: false).reader.canHandOff)
    }

    func testStartTagAccountedForByAStanzaBeforeTheCut() {
        // Line 9's start tag is that of line 7's stanza: a reader started at line 8
        // reports it, one reader of the log does not.
        let first = read(Self.log[..<7], midLog: false)
        let second = read(Self.log[7...], midLog: true)
        XCTAssertTrue(first.reader.canHandOff)
        XCTAssertFalse(second.reader.dependsOnUnknownPast)
        let state = LogHistory()
        XCTAssertTrue(state.apply(first.reader.ledger!))
        XCTAssertFalse(state.apply(second.reader.ledger!))
    }

    func testWhereAPartMayStart() {
        func starts(_ line: Int) -> Bool {
            Array(Self.log[line].utf8).withUnsafeBufferPointer { current in
                Array(Self.log[line - 1].utf8).withUnsafeBufferPointer { LogFormat.prosody.mayStartPart(at: current, after: $0) }
            }
        }
        // Not after a start tag alone (lines 5 and 12), nor at a start tag or text.
        XCTAssertEqual((1..<Self.log.count).filter(starts), [6, 7, 12])
    }
}

/// A format's part-start marker (``LogFormatDefinition/partStartMarker``): the
/// search for a window's end looks only at the lines that hold it, so every
/// line its parser reads as a record must.
final class PartStartMarkerTests: XCTestCase {
    func testEveryRecordOfNbxmppsLogHoldsItsMarker() throws {
        let log = try String(contentsOf: PackagePaths.file("Tests/Fixtures/real-logs/logs/nbxmpp-carol.log"), encoding: .utf8)
        var lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The marker's neighbours: another word after it, one without its space, one in data.
        lines += ["11/25/26 19:05:15 (I) nbxmpp.connection | (carol) ::::: DATABASE SENT ::::",
                  "11/25/26 19:05:15 (I) nbxmpp.connection | (carol) ::::: DATA:::: ::::: DATA RECEIVED ::::",
                  "<body>::::: DATA SENT ::::</body>"]
        let marker = try XCTUnwrap(LogFormat.nbxmpp.partStartMarker)
        let markerText = "\(marker)"
        var starts = 0
        for (index, line) in lines.enumerated() where index > 0 {
            Array(line.utf8).withUnsafeBufferPointer { current in
                Array(lines[index - 1].utf8).withUnsafeBufferPointer { previous in
                    let parsed = NbxmppLogParser().parse(current)
                    if parsed.kind == .record {
                        XCTAssertTrue(line.contains(markerText), "line \(index + 1): \(line)")
                    }
                    if LogFormat.nbxmpp.mayStartPart(at: current, after: previous) {
                        starts += 1
                        XCTAssertEqual(parsed.kind, .record, "line \(index + 1)")
                    }
                }
            }
        }
        // Each `::::: DATA` record of the fixture, the second line added, and the
        // one in data (a record to a parser that reads a line alone).
        XCTAssertEqual(starts, log.components(separatedBy: "::::: DATA ").count - 1 + 2)
    }
}
