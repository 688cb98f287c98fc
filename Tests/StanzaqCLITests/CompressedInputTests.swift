import XCTest
import Foundation
import StanzaqTestSupport

/// stanzaq(1), INPUT: xz, zstd and bzip2 are read as gzip is (DamagedInputTests
/// tests gzip): recognised by their first bytes, decompressed as they come,
/// member after member, before anything looks at what they hold; damage
/// reported, what came before it read. The inputs are made by the programs
/// themselves (xz, zstd, bzip2) at test time.
final class CompressedInputTests: CLITestCase {
    /// A format: its name in messages and the command that compresses standard input.
    private struct Format {
        var name: String
        var compress: String
    }

    private static let xz = Format(name: "xz", compress: "xz -c")
    private static let zstd = Format(name: "zstd", compress: "zstd -q -c")
    private static let bzip2 = Format(name: "bzip2", compress: "bzip2 -c")

    // MARK: A file and a pipe

    func testXZFileAndPipeReadAsTheUncompressedInput() throws { try assertFileAndPipe(Self.xz) }
    func testZstdFileAndPipeReadAsTheUncompressedInput() throws { try assertFileAndPipe(Self.zstd) }
    func testBzip2FileAndPipeReadAsTheUncompressedInput() throws { try assertFileAndPipe(Self.bzip2) }

    /// The same output as from capture.xml itself, from a file (named as it
    /// likes: the bytes tell), with one thread and two, and from a pipe.
    private func assertFileAndPipe(_ format: Format, file: StaticString = #filePath, line: UInt = #line) throws {
        let scratch = try ScratchDirectory()
        let arguments = ["-e", "/@from", "-e", "body#"]
        let plain = try Runner.stanzaq(arguments + ["capture.xml"])
        XCTAssertEqual(plain.output.split(separator: "\n").count, 13, file: file, line: line)
        try make(scratch, "\(format.compress) $EXAMPLES/capture.xml > capture.data")
        for threads in ["1", "2"] {
            try assertStanzaq(["--threads", threads] + arguments + ["capture.data"], in: scratch.url,
                              stdout: plain.output, status: 0, file: file, line: line)
        }
        try assertShell("\(format.compress) capture.xml | stanzaq -c /", stdout: "18\n", file: file, line: line)
    }

    // MARK: Members one after another

    func testXZStreamsOneAfterAnother() throws {
        try assertMembers(Self.xz)
        // xz allows padding (NULs, four at a time) between its streams.
        try assertShell("(xz -c capture.xml; printf '\\0\\0\\0\\0'; xz -c capture.xml) | stanzaq -c /", stdout: "36\n")
    }

    func testZstdFramesOneAfterAnotherAndSkippableFramesSkipped() throws {
        try assertMembers(Self.zstd)
        // A skippable frame (magic 0x184D2A50 to 0x184D2A5F, its length, its bytes) before, between and after frames.
        let skippable = "printf 'P*M\\030\\004\\0\\0\\0abcd'"
        try assertShell("(\(skippable); zstd -q -c capture.xml; \(skippable); zstd -q -c capture.xml; \(skippable)) | stanzaq -c /",
                        stdout: "36\n")
    }

    func testBzip2StreamsOneAfterAnother() throws { try assertMembers(Self.bzip2) }

    /// `cat a b` of two compressed files is one input, read to its end, from a file and from a pipe.
    private func assertMembers(_ format: Format, file: StaticString = #filePath, line: UInt = #line) throws {
        let scratch = try ScratchDirectory()
        try make(scratch, "\(format.compress) $EXAMPLES/capture.xml > a && \(format.compress) $EXAMPLES/message-delay.xml > b && cat a b a > all")
        try assertStanzaq(["-c", "/", "all"], in: scratch.url, stdout: "37\n", status: 0, file: file, line: line)
        try assertShell("cat a b a | stanzaq -e 'body#' | tail -n 2", in: scratch.url,
                        stdout: "Where is Tybalt?\nI'll send thee word from Mantua.\n", file: file, line: line)
    }

    // MARK: Damage

    func testXZCutOff() throws { try assertCutOff(Self.xz) }
    func testZstdCutOff() throws { try assertCutOff(Self.zstd) }
    func testBzip2CutOff() throws { try assertCutOff(Self.bzip2) }

    /// A member cut off after one whole member: the first member's stanzas are
    /// read, the cut is reported where its decompressed bytes end, exit 2.
    private func assertCutOff(_ format: Format, file: StaticString = #filePath, line: UInt = #line) throws {
        let first = "printf \"<message id='1'/>\\n<message id='2'/>\\n\" | \(format.compress)"
        let second = "printf \"<message id='3'/>\\n\" | \(format.compress) | head -c 5"
        try assertShell("(\(first); \(second)) | stanzaq /@id", stdout: "1\n2\n",
                        stderr: "(standard input):3:1: the \(format.name) data is cut off (its end is missing)\n", status: 2,
                        file: file, line: line)
    }

    /// Cut inside its only stream: what was decompressed before the cut is read.
    func testXZCutInsideItsOnlyStream() throws {
        try assertShell("head -c 100 capture.xml | xz -c | head -c 60 | stanzaq -c /", stdout: "0\n", stderr: """
            (standard input):2:3: the xz data is cut off (its end is missing)
            (standard input):2:1: <s> is not closed (the input ends at 2:3)

            """, status: 2)
    }

    func testXZCorrupt() throws {
        try assertCorrupt(Self.xz, member: "\\3757zXZ\\0\\0\\011junkjunkjunkjunk", reason: "invalid data")
        try assertCorrupt(Self.xz, member: "garbage after the stream", reason: "invalid data")
    }

    func testZstdCorrupt() throws {
        try assertCorrupt(Self.zstd, member: "(\\265/\\375\\377junkjunkjunkjunk", reason: "unsupported frame parameter")
        try assertCorrupt(Self.zstd, member: "garbage after the frame", reason: "unknown frame descriptor")
    }

    func testBzip2Corrupt() throws {
        try assertCorrupt(Self.bzip2, member: "BZh9junkjunkjunkjunk", reason: "data integrity error")
        try assertCorrupt(Self.bzip2, member: "garbage after the stream", reason: "bad magic number")
    }

    /// A whole member, then corrupt data (`member`, printf's escapes): the
    /// member's stanzas are read, the rest is skipped with one message, exit 2.
    private func assertCorrupt(_ format: Format, member: String, reason: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        try assertShell("(printf \"<message id='1'/>\\n<message id='2'/>\\n\" | \(format.compress); printf '\(member)') | stanzaq /@id",
                        stdout: "1\n2\n",
                        stderr: "(standard input):3:1: the \(format.name) data is corrupt (\(reason)); the rest of the input is skipped\n",
                        status: 2, file: file, line: line)
    }

    // MARK: Logs and envelopes inside

    func testXZLogAndEnvelope() throws { try assertLogAndEnvelope(Self.xz) }
    func testZstdLogAndEnvelope() throws { try assertLogAndEnvelope(Self.zstd) }
    func testBzip2LogAndEnvelope() throws { try assertLogAndEnvelope(Self.bzip2) }

    /// What a compressed file holds is recognised after it is decompressed: a
    /// log is a log, a log in an envelope is taken out of it (a file, with one
    /// thread and two, and a pipe).
    private func assertLogAndEnvelope(_ format: Format, file: StaticString = #filePath, line: UInt = #line) throws {
        let scratch = try ScratchDirectory()
        try make(scratch, "\(format.compress) $EXAMPLES/logs/prosody.log > prosody && \(format.compress) $EXAMPLES/envelopes/journal-slixmpp.json > journal")
        let log = "6\tout\tfeatures\t\n7\tin\tiq\tbind_1\n10\tout\tiq\tbind_1\n11\tin\tmessage\tmsg1\n"
            + "15\tout\tmessage\tmsg1\n17\tin\tpresence\tp1\n"
        let envelope = "bot[4444]\tin\tmessage\tmsg1\nbot[4444]\tout\tmessage\tmsg2\n"
        for threads in ["1", "2"] {
            try assertStanzaq(["--threads", threads, "--fields", "line,direction", "-e", "/$", "-e", "/@id", "prosody"], in: scratch.url,
                              stdout: log, status: 0, file: file, line: line)
            try assertStanzaq(["--threads", threads, "--fields", "source,direction", "-e", "/$", "-e", "/@id",
                               "--where", "/{jabber:client}message", "journal"], in: scratch.url,
                              stdout: envelope, status: 0, file: file, line: line)
        }
        try assertShell("\(format.compress) envelopes/journal-slixmpp.json | stanzaq --fields source,direction -e '/$' -e /@id "
                        + "--where '/{jabber:client}message'", stdout: envelope, file: file, line: line)
    }

    // MARK: The REPL

    /// A compressed file cannot be read again by offsets: its stanzas are kept,
    /// as for gzip (REPLTests.testGzipFileIsLoadedWhole).
    func testCompressedFilesAreLoadedWhole() throws {
        let scratch = try ScratchDirectory()
        for format in [Self.xz, Self.zstd, Self.bzip2] {
            try make(scratch, "\(format.compress) $EXAMPLES/capture.xml > capture.\(format.name)")
            let result = try InProcess.stanzaq(["-i", "capture.\(format.name)"], stdin: Data(":use 16\n/@id\n:all /<type=error>@id\n".utf8),
                                               in: scratch.url)
            XCTAssertEqual(result.output, "disco-3e9f\ncapture.\(format.name):15:b7eec9a1-1ebb-496d-b2e8-e6a6f17b1b5f\n"
                           + "capture.\(format.name):16:disco-3e9f\n", format.name)
            XCTAssertEqual(result.stderr, "", format.name)
        }
    }

    // MARK: libzstd missing

    /// libzstd is loaded when a zstd input comes: without it, that input gets
    /// one message and exit 2, the others are read (`-c`: one total). (Hidden by a file bound
    /// over it in a mount namespace of the test's own: skipped where there is none.)
    func testZstdWithoutLibzstdIsOneMessage() throws {
        let scratch = try ScratchDirectory()
        try make(scratch, "zstd -q -c $EXAMPLES/capture.xml > capture.zst")
        let probe = try Runner.shell("unshare -rm true", in: scratch.url)
        guard probe.status == 0 else { throw XCTSkip("no mount namespace here (unshare -rm: \(probe.stderr))") }
        let hide = "for library in /usr/lib/*/libzstd.so.1 /lib/*/libzstd.so.1 /usr/lib/libzstd.so.1; do "
            + "[ -e \"$library\" ] && mount --bind /dev/null \"$(readlink -f \"$library\")\"; done"
        let run = try Runner.shell("unshare -rm sh -c '\(hide); stanzaq -c / capture.zst \(Runner.examples.path)/capture.xml'",
                                   in: scratch.url)
        XCTAssertEqual(run.output, "18\n")
        XCTAssertEqual(run.stderr, "capture.zst:1:1: zstd input needs libzstd.so.1, which is not installed\n")
        XCTAssertEqual(run.status, 2)
    }

    // MARK: Helpers

    /// Runs `command` in `scratch`, with the examples in `$EXAMPLES`.
    private func make(_ scratch: ScratchDirectory, _ command: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let made = try Runner.shell("EXAMPLES=\(shellQuote(Runner.examples.path)); \(command)", in: scratch.url)
        XCTAssertEqual(made.status, 0, made.stderr, file: file, line: line)
    }

    private func assertShell(_ command: String, in directory: URL = Runner.examples, stdout: String, stderr: String = "",
                             status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try Runner.shell(command, in: directory)
        XCTAssertEqual(run.output, stdout, command, file: file, line: line)
        XCTAssertEqual(run.stderr, stderr, command, file: file, line: line)
        XCTAssertEqual(run.status, status, command, file: file, line: line)
    }
}
