import Foundation
import StanzaqTestSupport
import XCTest

/// Issue 41's test set: logs as they are pasted into bug reports of XMPP
/// software (Tests/Fixtures/pasted, modelled on public issues, each cited in
/// its README.md), with a truth counted by hand from each paste's text
/// (truth.tsv): every complete top-level element, in order, with the direction
/// the text states. stanzaq finds each of them with that direction, and
/// nothing else; a paste says nothing on standard error unless its text really
/// holds a damaged element, and then exactly that.
final class PastedLogSetTests: CLITestCase {
    static let folder = PackagePaths.file("Tests/Fixtures/pasted")

    /// Pastes that stanzaq still reads wrong (README.md, "Known defects"; Linux's
    /// XCTest has no XCTExpectFailure): their truth is kept, and not asserted.
    static let knownDefects: Set<String> = []

    /// One paste's truth: its elements (`DIRECTION\tNAME\tID`) and its damage
    /// (`PASTE:LINE:COLUMN: MESSAGE`).
    struct Truth {
        var elements: [String] = []
        var damage: [String] = []
    }

    /// truth.tsv, by paste.
    static func truths() throws -> [String: Truth] {
        let text = try String(contentsOf: folder.appendingPathComponent("truth.tsv"), encoding: .utf8)
        var truths: [String: Truth] = [:]
        for row in text.split(separator: "\n") where !row.hasPrefix("#") {
            let columns = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(columns.count, 4, "truth.tsv: \(row)")
            guard columns.count == 4 else { continue }
            let paste = columns[0]
            if columns[1] == "!" {
                truths[paste, default: Truth()].damage.append("\(paste):\(columns[2]): \(columns[3])")
            } else {
                XCTAssertTrue(["in", "out", "-"].contains(columns[1]), "truth.tsv: \(row)")
                truths[paste, default: Truth()].elements.append(columns[1...].joined(separator: "\t"))
            }
        }
        return truths
    }

    /// The pastes in the folder.
    static func pastes() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }.sorted()
    }

    func testTheSetHasItsPastesAndEachHasATruth() throws {
        let pastes = try Self.pastes()
        XCTAssertEqual(pastes.count, 22, "the pastes: \(pastes)")
        XCTAssertEqual(Set(try Self.truths().keys), Set(pastes))
        let readme = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        for paste in pastes {
            XCTAssertTrue(readme.contains("| `\(paste)` |"), "README.md cites \(paste)")
        }
        let known = try XCTUnwrap(readme.components(separatedBy: "## Known defects").last)
        for paste in Self.knownDefects {
            XCTAssertTrue(known.contains("`\(paste)`"), "README.md lists \(paste) as a known defect")
        }
        // The totals of truth.tsv.
        let truths = try Self.truths().values
        let elements = truths.flatMap(\.elements)
        XCTAssertEqual(elements.count, 86)
        XCTAssertEqual(elements.filter { $0.hasPrefix("in\t") }.count, 48)
        XCTAssertEqual(elements.filter { $0.hasPrefix("out\t") }.count, 38)
        XCTAssertEqual(truths.flatMap(\.damage).count, 1)
    }

    /// Every paste: its elements, in order, with their directions, and its damage.
    func testEveryPasteGivesItsTruth() throws {
        let truths = try Self.truths()
        for paste in try Self.pastes() where !Self.knownDefects.contains(paste) {
            let truth = try XCTUnwrap(truths[paste], paste)
            let run = try InProcess.stanzaq(["--fields", "direction", "-e", "/$", "-e", "/@id", paste], in: Self.folder)
            let read = run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
                $0.hasPrefix("\t") ? "-" + $0 : String($0)
            }
            XCTAssertEqual(read, truth.elements, paste)
            XCTAssertEqual(run.stderr, truth.damage.map { $0 + "\n" }.joined(), paste)
            XCTAssertEqual(run.status, truth.damage.isEmpty ? 0 : 2, paste)
        }
    }

    /// The pastes' directions split them: `--direction in` and `out` count the truth's.
    func testDirectionSplitsEveryPaste() throws {
        let truths = try Self.truths()
        for paste in try Self.pastes() where !Self.knownDefects.contains(paste) {
            let elements = try XCTUnwrap(truths[paste], paste).elements
            for direction in ["in", "out"] {
                let run = try InProcess.stanzaq(["--direction", direction, "-c", "/", paste], in: Self.folder)
                XCTAssertEqual(run.output, "\(elements.filter { $0.hasPrefix(direction + "\t") }.count)\n", "\(paste) \(direction)")
            }
        }
    }
}
