import Foundation
import XCTest
import StanzaqTestSupport

/// stanzaq's limits on one stanza (stanzaq(1), Resource limits), at the sizes
/// that showed what happened without them: one stanza built whole took 1.35 GB
/// (10,000,000 elements; 2,000,000 took 270 MB), and libxml2's quadratic check of a start tag's
/// attributes took 100 s (300,000 attributes) or 10 s (200,000 namespace
/// declarations). Each limit is damage: one line, the stanza skipped, the rest
/// read, exit 2 — within 10 s and 200 MiB.
final class StanzaLimitCLITests: CLITestCase {
    private func message(_ place: String, _ text: String) -> String {
        NSRegularExpression.escapedPattern(for: place + ": " + text + " (stanzaq's limit)\n")
    }

    /// `<m id='1'/>`, the stanza `hostile`, and `<m id='3'><b>three</b></m>`, in a file.
    private func input(_ hostile: String) throws -> (ScratchDirectory, String) {
        let scratch = try ScratchDirectory()
        try scratch.write("input.xml", "<m id='1'><b>one</b></m>\n" + hostile + "\n<m id='3'><b>three</b></m>\n")
        return (scratch, "input.xml")
    }

    /// A stream is read by one libxml2 parser for 1,000 stanzas, then by a new one
    /// with the stream's namespaces in scope (stanzaq(1), Resource limits): one
    /// parser for the whole stream kept every distinct name and namespace in its
    /// dictionary, and 1,000,000 stanzas with distinct names took 68.6 s and 131 MB
    /// (time quadratic in the stanzas; at 4,000,000 the stream failed). Now they
    /// take about a second of processor time; the hang guard is 30 s.
    func testAMillionStanzasWithDistinctNames() throws {
        let scratch = try ScratchDirectory()
        var text = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
        text.reserveCapacity(40_000_000)
        for index in 0..<1_000_000 { text += "<n\(index) xmlns='urn:x:\(index)' id='\(index)'/>\n" }
        text += "<message id='last'><body>end</body></message>\n"
        try scratch.write("distinct.xml", text)
        try assertBounded(["-c", "/{urn:x:999999}n999999", "distinct.xml"], in: scratch.url, stdout: "1\n", status: 0, timeLimit: 30)
        // The stream's namespace is still in scope after the 1,000th parser.
        try assertBounded(["/{jabber:client}message/body#", "distinct.xml"], in: scratch.url, stdout: "end\n", status: 0, timeLimit: 30)
    }

    func testAStanzaOfTwoMillionElements() throws {
        let (scratch, file) = try input("<m id='2'>" + String(repeating: "<b/>", count: 2_000_000) + "</m>")
        let expected = message("input.xml:2:1", "<m> has more than 500000 elements")
        // Counted: -c builds the stanza one level deep; shown: whole.
        try assertBounded(["-c", "b", file], in: scratch.url, stdout: "2\n", stderrMatches: expected, status: 2)
        try assertBounded(["-s", "b#", file], in: scratch.url, stdout: "<m id='1'><b>one</b></m>\n<m id='3'><b>three</b></m>\n",
                          stderrMatches: expected, status: 2)
        try assertBounded(["/@id", file], in: scratch.url, stdout: "1\n3\n", stderrMatches: expected, status: 2)
    }

    func testAStanzaOfAMillionAttributes() throws {
        let (scratch, file) = try input("<m id='2'>" + String(repeating: "<b a='' c='' d='' e=''/>", count: 250_000) + "</m>")
        try assertBounded(["b#", file], in: scratch.url, stdout: "one\nthree\n",
                          stderrMatches: message("input.xml:2:1", "<m> has more than 500000 attributes and namespace declarations"),
                          status: 2)
    }

    func testAStanzaOfThirtyMegabytes() throws {
        let text = String(repeating: "x", count: 3_000_000)
        let (scratch, file) = try input("<m id='2'>" + String(repeating: "<b>" + text + "</b>", count: 10) + "</m>")
        try assertBounded(["/@id", file], in: scratch.url, stdout: "1\n3\n",
                          stderrMatches: message("input.xml:2:1", "<m> is longer than 20000000 bytes"), status: 2)
    }

    func testAStartTagOfThreeHundredThousandAttributes() throws {
        let attributes = (0..<300_000).map { " a\($0)=''" }.joined()   // 3.2 MB
        let (scratch, file) = try input("<m id='2'" + attributes + "><b>two</b></m>")
        let expected = message("input.xml:2:1", "<m> has more than 1024 attributes and namespace declarations")
        try assertBounded(["b#", file], in: scratch.url, stdout: "one\nthree\n", stderrMatches: expected, status: 2)
        // Below the root, in a stream that goes on after it; and from a pipe.
        let stream = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n"
        try assertBounded(["body#"], stdin: .text(stream + "<message><body>one</body></message>\n<message>\n <x" + attributes
                                                    + "/><body>two</body></message>\n<message><body>three</body></message>\n"),
                          stdout: "one\nthree\n",
                          stderrMatches: message("(standard input):4:2", "<x> has more than 1024 attributes and namespace declarations"),
                          status: 2)
    }

    func testAStartTagOfTwoHundredThousandNamespaceDeclarations() throws {
        let declarations = (0..<200_000).map { " xmlns:p\($0)='urn:x'" }.joined()
        let (scratch, file) = try input("<m id='2'" + declarations + "><b>two</b></m>")
        try assertBounded(["b#", file], in: scratch.url, stdout: "one\nthree\n",
                          stderrMatches: message("input.xml:2:1", "<m> has more than 1024 attributes and namespace declarations"),
                          status: 2)
    }
}
