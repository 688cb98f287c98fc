import Foundation
import StanzaqTestSupport
import XCTest

/// Records of whole stanzas (Prosody's `SEND:`/`RECV:`) are read together, by a
/// reader shared by the channels of a stream, unless a record is not read there
/// as its own channel reads it (stanzaq(1), LOGS): what is read is the same
/// either way — stanzas, their fields, damage and where it is told.
final class LogBatchTests: CLITestCase {
    /// Damage in one record among clean ones: reported where it is, in log order with the stanzas, and the records after it read.
    func testDamageAmongRecordsReadTogether() throws {
        let log = """
            Nov 23 00:00:01 c2s1\tdebug\tRECV: <iq id="a"/>
            Nov 23 00:00:02 c2s2\tdebug\tRECV: <iq id="b"><x></iq>
            Nov 23 00:00:03 c2s1\tdebug\tSEND: <iq id="c"/>
            Nov 23 00:00:04 c2s2\tdebug\tRECV: <iq id="d"/>
            Nov 23 00:00:05 c2s3\tdebug\tRECV: <iq id="e"/><iq id="f">
            Nov 23 00:00:06 c2s3\tdebug\tRECV: <iq id="g"/>
            """ + "\n"
        try assertStanzaq(["--fields", "line,direction,session", "-e", "/$", "-e", "/@id"], stdin: log, stdout: """
            1\tin\tc2s1\tiq\ta
            3\tout\tc2s1\tiq\tc
            4\tin\tc2s2\tiq\td
            5\tin\tc2s3\tiq\te
            6\tin\tc2s3\tiq\tg
            """ + "\n",
                          stderr: "(standard input):2:53: Opening and ending tag mismatch: x line 2 and iq\n(standard input):5:46: <iq> is not closed (the log record ends at 5:57)\n", status: 2)
    }
}
