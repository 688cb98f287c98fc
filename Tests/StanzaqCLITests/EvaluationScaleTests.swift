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
}
