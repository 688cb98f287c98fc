import XCTest
import Foundation
import StanzaQuery
import StanzaqTestSupport

/// The Swift example of README.md ("The Swift library"), as written there.
final class ReadmeLibraryTests: XCTestCase {
    func testTheReadmeExample() throws {
        let readme = try String(contentsOf: PackagePaths.file("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("""
            let stamp = try Query("{urn:xmpp:delay}delay@stamp|datetime")
            var stamps: [String] = []
            let reader = StanzaReader(defaultNamespace: "jabber:client") { message in
                if case .dateTime(let date)? = try? stamp.findFirst(in: message) {
                    stamps.append(date.iso8601)
                }
                return true                      // false stops reading
            }
            try reader.read(fileDescriptor: open("examples/message-delay.xml", O_RDONLY))
            // stamps == ["2002-09-10T23:08:25Z"]
            """), "README's example changed: update this test with it")

        let stamp = try Query("{urn:xmpp:delay}delay@stamp|datetime")
        var stamps: [String] = []
        let reader = StanzaReader(defaultNamespace: "jabber:client") { message in
            if case .dateTime(let date)? = try? stamp.findFirst(in: message) {
                stamps.append(date.iso8601)
            }
            return true                      // false stops reading
        }
        // As in the README, but from the package root without changing the working directory.
        try reader.read(fileDescriptor: open(PackagePaths.file("examples/message-delay.xml").path, O_RDONLY))
        XCTAssertEqual(stamps, ["2002-09-10T23:08:25Z"])
    }
}
