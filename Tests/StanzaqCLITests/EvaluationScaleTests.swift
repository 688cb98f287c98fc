import Foundation
import XCTest
import StanzaqTestSupport

/// Hostile input at scale on the evaluation side: serialising, matching and
/// extracting cost time and memory in proportion to the stanza, never to its
/// square nor to the number of results (stanzaq(1), "Resource limits").
final class EvaluationScaleTests: CLITestCase {
    /// 150,000 namespace declarations in scope (150 nested elements declaring
    /// 1,000 prefixes each) are written back in linear time: the serializer used
    /// to search every declaration in scope for each one it wrote (25 s).
    func testManyNamespaceDeclarationsSerialiseInLinearTime() throws {
        let scratch = try ScratchDirectory()
        var xml = ""
        for level in 0..<150 {
            xml += "<e\(level)"
            for index in 0..<1000 { xml += " xmlns:p\(level)_\(index)='urn:\(level):\(index)'" }
            xml += ">"
        }
        xml += "x"
        for level in (0..<150).reversed() { xml += "</e\(level)>" }
        try scratch.write("declarations.xml", xml)
        // Written back as it was read (single quotes, nothing to change).
        try assertBounded(["-s", "", "declarations.xml"], in: scratch.url, stdout: xml + "\n", status: 0)
    }

    /// A `~` filter that backtracks catastrophically on many stanzas costs three
    /// abandoned matches, not one per stanza: then it is given up, said once,
    /// and later stanzas that need it have no result and no message (each
    /// such match took 0.6 s: 1,000 of these 66-byte stanzas took 10 minutes).
    func testARegexIsGivenUpAfterThreeAbandonedMatches() throws {
        let scratch = try ScratchDirectory()
        let bad = (2...1001).map { "<m id='\($0)' from='\(String(repeating: "a", count: 30))@example.co'/>\n" }
        try scratch.write("input.xml", "<m id='1' from='juliet@example.com'/>\n" + bad.joined()
                          + "<m id='1002' from='romeo@example.com'/>\n<m id='1003'/>\n")
        let query = #"/<from~^([a-z0-9]+\.?)+@example\.com$>@id"#
        let abandoned = #"input.xml:stanza N: query '/<from~^([a-z0-9]+\.?)+@example\.com$>@id': "#
            + #"the regular expression '^([a-z0-9]+\.?)+@example\.com$' backtracked more than 20000000 times "#
            + "on attribute 'from' of <m> (matching abandoned"
        let expected = ["2", "3"].map { abandoned.replacingOccurrences(of: "stanza N", with: "stanza \($0)") + ")\n" }.joined()
            + abandoned.replacingOccurrences(of: "stanza N", with: "stanza 4")
            + " 3 times: given up for the rest of the input, where stanzas that need it have no result and no message)\n"
        try assertBounded([query, "input.xml"], in: scratch.url, stdout: "1\n",
                          stderrMatches: NSRegularExpression.escapedPattern(for: expected), status: 2, timeLimit: 60)
        // Counting: the stanzas with an error have no result (so -v counts them).
        try assertBounded(["-c", "-v", query, "input.xml"], in: scratch.url, stdout: "1002\n",
                          stderrMatches: NSRegularExpression.escapedPattern(for: expected), status: 2, timeLimit: 60)
    }

    /// Duplicates kept through `..` are made once and shared, and the results of
    /// one query on one stanza may add up to 100,000,000 bytes at most: `#` of
    /// an element with 1 MB of text in two runs, reached through each of its
    /// 1,000 children, built a new 1 MB string per result (1 GB); `@@` a new
    /// map per result; elements were printed whole, 1 GB, each time.
    func testResultsAreBoundedInBytes() throws {
        let scratch = try ScratchDirectory()
        let text = String(repeating: "x", count: 1_000_000)
        try scratch.write("tworuns.xml", "<m>\(text)" + String(repeating: "<c/>", count: 1000) + "y</m>\n")
        try assertBounded(["{*}*/..#", "tworuns.xml"], in: scratch.url, stdout: "",
                          stderrMatches: NSRegularExpression.escapedPattern(
                            for: "tworuns.xml:stanza 1: query '{*}*/..#': the results add up to more than 100000000 bytes, "
                                + "counting duplicates (evaluation abandoned)\n"),
                          status: 2)
        try assertBounded(["{*}*/..", "tworuns.xml"], in: scratch.url, stdout: "",
                          stderrMatches: NSRegularExpression.escapedPattern(
                            for: "tworuns.xml:stanza 1: query '{*}*/..': the results add up to more than 100000000 bytes, "
                                + "counting duplicates (evaluation abandoned)\n"),
                          status: 2)
        // (An element has at most 1,024 attributes: long values make up for it.)
        let value = String(repeating: "v", count: 200)
        let attributes = (0..<1024).map { "a\($0)='\(value)'" }.joined(separator: " ")
        try scratch.write("attributes.xml", "<m \(attributes)>" + String(repeating: "<c/>", count: 1000) + "</m>\n")
        try assertBounded(["{*}*/..@@", "attributes.xml"], in: scratch.url, stdout: "",
                          stderrMatches: NSRegularExpression.escapedPattern(
                            for: "attributes.xml:stanza 1: query '{*}*/..@@': the results add up to more than 100000000 bytes, "
                                + "counting duplicates (evaluation abandoned)\n"),
                          status: 2)
        // Within the limit, every duplicate is a result (Monal's find:).
        let short = String(repeating: "x", count: 100_000)
        try scratch.write("twenty.xml", "<m>\(short)" + String(repeating: "<c/>", count: 20) + "y</m>\n")
        try assertBounded(["{*}*/..#", "twenty.xml"], in: scratch.url, stdout: String(repeating: short + "y\n", count: 20),
                          status: 0)
        try assertBounded(["-c", "{*}*/..#", "tworuns.xml"], in: scratch.url, stdout: "1\n", status: 0)
    }

    /// Counting and testing print no element, so the reader builds stanzas only
    /// as deep as the queries look: `-c '/'` on a stanza of 5,000,000 children
    /// built them all (7 s, 680 MB). A stanza now has 500,000 elements at most
    /// (stanzaq(1), Resource limits), which take some 90 MB built: too little to
    /// tell from a child's peak memory, which on Linux starts at the test
    /// process's own (DepthLimitTests checks what the reader builds).
    func testCountingBuildsOnlyWhatTheQueryNeeds() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("wide.xml", "<m>" + String(repeating: "<b/>", count: 499_999) + "</m>\n")
        for arguments in [["-c", "/"], ["-q", "/m"], ["-c", "-v", "/x"]] {
            try assertBounded(arguments + ["wide.xml"], in: scratch.url, stdout: arguments[0] == "-q" ? "" : "1\n", status: 0)
        }
        // While a prefix of the query is still to be seen bound, stanzas are built
        // whole: the declaration may be deep inside one (then no warning).
        try assertStanzaq(["-c", "/stream:features"], stdin: "<features/><a><b xmlns:stream='urn:s'/></a>",
                          stdout: "0\n", status: 1)
        try assertStanzaq(["/stream:features#"], stdin: "<features>t</features><a><b xmlns:stream='urn:s'/></a>",
                          stdout: "", status: 1)
    }
}
