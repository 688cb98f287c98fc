import StanzaqTestSupport
import XCTest

/// Long runs of file operands, which the command takes out before ArgumentParser
/// parses the rest (it takes quadratic time over positionals): the same files,
/// in the same order, whatever comes before them and wherever options are.
final class ManyOperandsTests: CLITestCase {
    private var scratch: ScratchDirectory!
    private let names = (0..<20).map { String(format: "f%02d.xml", $0) }

    override func setUpWithError() throws {
        scratch = try ScratchDirectory()
        for (index, name) in names.enumerated() {
            try scratch.write(name, "<m><body>\(index)</body></m>\n")
        }
    }

    override func tearDown() {
        scratch = nil
    }

    func testAnOptionsValueThenTheQueryThenTheFiles() throws {
        let expected = names.enumerated().map { "\($1):\($0)\n" }.joined()
        try assertStanzaq(["--threads", "1", "-H", "body#"] + names, in: scratch.url, stdout: expected, status: 0)
        try assertStanzaq(["-H", "--threads", "1", "body#"] + names, in: scratch.url, stdout: expected, status: 0)
        try assertStanzaq(["-H", "--", "body#"] + names, in: scratch.url, stdout: expected, status: 0)
    }

    func testQueriesByOptionThenOnlyFiles() throws {
        let expected = names.enumerated().map { "\($1):\($0)\t\n" }.joined()
        try assertStanzaq(["-e", "body#", "-e", "/@id", "-H"] + names, in: scratch.url, stdout: expected, status: 0)
    }

    func testAnOptionAfterTheFilesAndAMissingFileInOrder() throws {
        let operands = Array(names[..<10]) + ["missing.xml"] + Array(names[10...])
        let expected = names.map { "\($0):1\n" }.joined()
        try assertStanzaq(["-H", "body#"] + operands + ["-c"], in: scratch.url, stdout: expected,
                          stderr: "stanzaq: error: missing.xml: No such file or directory\n", status: 2)
        try assertStanzaq(["-c", "-H", "body#"] + operands, in: scratch.url, stdout: expected,
                          stderr: "stanzaq: error: missing.xml: No such file or directory\n", status: 2)
    }
}
