import Foundation
import XCTest
import StanzaqTestSupport

/// The binary under test carries one ICU, the system's, and none of its own
/// (issue 32): Foundation statically linked its ICU 76 with its data beside the
/// system's ICU 72 that libxml2 loads. Sizes and start-up times are benchmarks
/// (`make bench`), not tests.
final class LeanBinaryTests: XCTestCase {
    /// `ldd` lists ICU libraries of one version only (libicuuc and its data;
    /// libicui18n is loaded on the first regular expression, same version).
    func testOneICUIsLinked() throws {
        let binary = try Runner.requireBinary()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd") else { throw XCTSkip("no ldd here") }
        let ldd = try Runner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [binary.path], in: PackagePaths.root,
                                 environment: Runner.environment())
        XCTAssertEqual(ldd.status, 0, ldd.stderr)
        let icu = ldd.output.split(separator: "\n").compactMap { line -> String? in
            let name = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
            return name.hasPrefix("libicu") ? name : nil
        }
        XCTAssertTrue(icu.contains { $0.hasPrefix("libicuuc.so.") }, ldd.output)
        let versions = Set(icu.map { $0.split(separator: ".").last.map(String.init) ?? "" })
        XCTAssertEqual(versions.count, 1, ldd.output)
        // (A debug build links FoundationEssentials as a shared library; never Foundation or its ICU.)
        for library in ["libFoundation.so", "_FoundationICU", "FoundationInternationalization"] {
            XCTAssertFalse(ldd.output.contains(library), ldd.output)
        }
        // libedit (and the libraries it needs) are loaded by the REPL, not at every start.
        XCTAssertFalse(ldd.output.contains("libedit"), ldd.output)
    }

    /// No ICU data (`icudt76_dat`, the `icudt76l` resource names) and no
    /// Foundation beyond FoundationEssentials in the binary's bytes.
    func testNoICUDataOfItsOwn() throws {
        let bytes = try Data(contentsOf: Runner.requireBinary())
        for needle in ["icudt", "_FoundationICU", "FoundationInternationalization"] {
            XCTAssertNil(bytes.range(of: Data(needle.utf8)), "the binary contains \(needle)")
        }
    }

    /// The regular expressions still work once ICU is loaded on first use, and
    /// `--version` names the ICU they run on.
    func testRegularExpressionsLoadTheSystemICU() throws {
        let found = try Runner.stanzaq(["/<type~^CHAT$>@id"], stdin: .text("<m id='1' type='chat'/><m id='2' type='x'/>"))
        XCTAssertEqual(found.output, "1\n")
        XCTAssertEqual(found.status, 0)
        let version = try Runner.stanzaq(["--version"]).output
        XCTAssertTrue(version.contains("\nICU "), version)
    }
}
