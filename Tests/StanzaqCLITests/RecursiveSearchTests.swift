import Foundation
import StanzaqTestSupport
import XCTest

/// `-r` and `-g` (stanzaq(1), Directories): a tree searched in name order, globs,
/// symbolic links, and files or directories that cannot be read.
final class RecursiveSearchTests: CLITestCase {
    private var scratch: ScratchDirectory!

    /// root/{A.xml, a.xml, b.log, notes.txt, sub/{c.xml, deeper/d.xml}, z.xml,
    /// link-to-a.xml → a.xml, link-to-sub → sub}, and linked → root/sub beside root.
    override func setUpWithError() throws {
        scratch = try ScratchDirectory()
        let files = FileManager.default
        try files.createDirectory(at: scratch.url.appendingPathComponent("root/sub/deeper"), withIntermediateDirectories: true)
        for (path, body) in [("root/A.xml", "A"), ("root/a.xml", "a"), ("root/sub/c.xml", "c"), ("root/sub/deeper/d.xml", "d"),
                             ("root/z.xml", "z")] {
            try scratch.write(path, "<message><body>\(body)</body></message>\n")
        }
        try scratch.write("root/b.log", "10:00 RECV: <message><body>b</body></message>\n")
        try scratch.write("root/notes.txt", "Nothing here.\n")
        try files.createSymbolicLink(atPath: scratch.url.appendingPathComponent("root/link-to-a.xml").path, withDestinationPath: "a.xml")
        try files.createSymbolicLink(atPath: scratch.url.appendingPathComponent("root/link-to-sub").path, withDestinationPath: "sub")
        try files.createSymbolicLink(atPath: scratch.url.appendingPathComponent("linked").path, withDestinationPath: "root/sub")
    }

    private func run(_ arguments: [String], in directory: String? = nil, stdin: String? = nil, stdout: String,
                     stderr: String = "", status: Int32, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = directory.map { scratch.url.appendingPathComponent($0) } ?? scratch.url
        try assertStanzaq(arguments, stdin: stdin, in: folder, stdout: stdout, stderr: stderr, status: status, file: file, line: line)
    }

    /// Name order (bytes: upper case first), depth first; links inside are not followed.
    func testTreeInNameOrder() throws {
        try run(["-r", "-H", "body#", "root"], stdout: """
            root/A.xml:A
            root/a.xml:a
            root/b.log:b
            root/sub/c.xml:c
            root/sub/deeper/d.xml:d
            root/z.xml:z

            """, status: 0)
        try run(["--recursive", "-l", "body#", "root/"], stdout: """
            root/A.xml
            root/a.xml
            root/b.log
            root/sub/c.xml
            root/sub/deeper/d.xml
            root/z.xml

            """, status: 0)
        try run(["-r", "-c", "-H", "body#", "root/sub"], stdout: "root/sub/c.xml:1\nroot/sub/deeper/d.xml:1\n", status: 0)
    }

    /// No operand: the working directory, its files named without "./".
    func testWorkingDirectory() throws {
        try run(["-r", "-l", "body#"], in: "root/sub", stdout: "c.xml\ndeeper/d.xml\n", status: 0)
        try run(["-r", "-l", "body#", "."], in: "root/sub", stdout: "./c.xml\n./deeper/d.xml\n", status: 0)
        // "-" is standard input, with -r too.
        try run(["-r", "-H", "body#", "-", "sub"], in: "root", stdin: "<m><body>in</body></m>",
                stdout: "(standard input):in\nsub/c.xml:c\nsub/deeper/d.xml:d\n", status: 0)
    }

    /// A link named on the command line is followed, as grep -r does.
    func testLinksOnTheCommandLineAreFollowed() throws {
        try run(["-r", "-H", "body#", "linked", "root/link-to-a.xml"],
                stdout: "linked/c.xml:c\nlinked/deeper/d.xml:d\nroot/link-to-a.xml:a\n", status: 0)
    }

    func testGlobs() throws {
        func names(_ globs: [String], _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try run(["-r", "-l"] + globs.flatMap { ["-g", $0] } + ["body#", "root"], stdout: expected,
                    status: expected.isEmpty ? 1 : 0, file: file, line: line)
        }
        try names(["*.xml"], "root/A.xml\nroot/a.xml\nroot/sub/c.xml\nroot/sub/deeper/d.xml\nroot/z.xml\n")
        try names(["*.xml", "!sub/"], "root/A.xml\nroot/a.xml\nroot/z.xml\n")
        try names(["!deeper"], "root/A.xml\nroot/a.xml\nroot/b.log\nroot/sub/c.xml\nroot/z.xml\n")
        try names(["sub/**/*.xml"], "root/sub/c.xml\nroot/sub/deeper/d.xml\n")
        try names(["/sub/*.xml"], "root/sub/c.xml\n")
        try names(["{a,z}.xml"], "root/a.xml\nroot/z.xml\n")
        try names(["[A-Z]*"], "root/A.xml\n")
        try names(["?.log"], "root/b.log\n")
        // The last glob that matches decides; with an including glob, what matches none is left out.
        try names(["*.xml", "!a.xml"], "root/A.xml\nroot/sub/c.xml\nroot/sub/deeper/d.xml\nroot/z.xml\n")
        try names(["!*.xml", "a.xml"], "root/a.xml\n")
        try names(["a.xml", "!*.xml"], "")
        // A file named on the command line is searched whatever the globs say.
        try run(["-r", "-l", "-g", "*.log", "body#", "root/a.xml", "root"], stdout: "root/a.xml\nroot/b.log\n", status: 0)
    }

    func testDirectoryWithoutRecursion() throws {
        try run(["-H", "body#", "root", "root/a.xml"], stdout: "root/a.xml:a\n",
                stderr: "stanzaq: error: root: Is a directory (-r searches the files under it)\n", status: 2)
    }

    /// Each file or directory that cannot be read: one message; the others are
    /// searched; exit 2 at the end.
    func testUnreadableFilesAndDirectories() throws {
        let directory = scratch.url.appendingPathComponent("root/sub/deeper")
        let file = scratch.url.appendingPathComponent("root/a.xml")
        XCTAssertEqual(chmod(directory.path, 0), 0)
        XCTAssertEqual(chmod(file.path, 0), 0)
        defer {
            chmod(directory.path, 0o755)
            chmod(file.path, 0o644)
        }
        let messages = "stanzaq: error: root/a.xml: Permission denied\nstanzaq: error: root/sub/deeper: Permission denied\n"
        let searched = "root/A.xml:A\nroot/b.log:b\nroot/sub/c.xml:c\nroot/z.xml:z\n"
        let listed = "root/A.xml\nroot/b.log\nroot/notes.txt\nroot/sub/c.xml\nroot/z.xml\n"
        let probe = open(file.path, O_RDONLY)
        guard probe >= 0 else {
            try run(["-r", "-H", "body#", "root"], stdout: searched, stderr: messages, status: 2)
            try run(["-r", "-L", "nothing", "root"], stdout: listed, stderr: messages, status: 2)
            return
        }
        close(probe)
        // chmod 000 does not keep root out; it keeps out an unprivileged user, as whom
        // the binary runs then (setpriv drops every privilege, as su would).
        let setpriv = "/usr/bin/setpriv"
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else {
            throw XCTSkip("chmod 000 does not make a file unreadable here (CAP_DAC_OVERRIDE), and setpriv cannot drop it")
        }
        for (arguments, expected) in [(["-r", "-H", "body#", "root"], searched), (["-r", "-L", "nothing", "root"], listed)] {
            let result = try Runner.run(URL(fileURLWithPath: setpriv),
                                        ["--reuid=65534", "--regid=65534", "--clear-groups", try Runner.requireBinary().path] + arguments,
                                        in: scratch.url, environment: Runner.environment())
            XCTAssertEqual(result.output, expected, "stdout of stanzaq \(arguments) as nobody")
            XCTAssertEqual(result.stderr, messages, "stderr of stanzaq \(arguments) as nobody")
            XCTAssertEqual(result.status, 2, "exit status of stanzaq \(arguments) as nobody")
        }
    }

    /// A name that is not UTF-8 is searched under its own bytes, and shown with `\xHH`
    /// (stanzaq(1), DIAGNOSTICS); with -l -0 it is written as its bytes, for xargs -0.
    func testNameNotUTF8() throws {
        let path = Array((scratch.url.appendingPathComponent("root/sub").path + "/").utf8CString.dropLast()) + [0x63, -0x17 /* 0xE9 */, 0x2E, 0x78, 0]
        let descriptor = path.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(write(descriptor, "<m><body>e</body></m>", 21), 21)
        close(descriptor)
        try run(["-r", "-H", "body#", "root/sub"], stdout: "root/sub/c.xml:c\nroot/sub/c\\xe9.x:e\nroot/sub/deeper/d.xml:d\n", stderr: "", status: 0)
        let names = try Runner.stanzaq(["-r", "-l", "-0", "body#", "root/sub"], in: scratch.url)
        XCTAssertEqual(names.stdout, Data("root/sub/c.xml\0root/sub/c".utf8) + Data([0xE9]) + Data(".x\0root/sub/deeper/d.xml\0".utf8))
    }

    func testUsageErrors() throws {
        let usage = "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n"
        try run(["-g", "*.xml", "body#", "root"], stdout: "", stderr: "stanzaq: error: -g filters the files -r finds: add -r\n" + usage, status: 2)
        try run(["-r", "-g", "[a", "body#", "root"], stdout: "", stderr: "stanzaq: error: -g '[a': '[' is not closed\n" + usage, status: 2)
        try run(["-r", "-g", "{a,b", "body#", "root"], stdout: "", stderr: "stanzaq: error: -g '{a,b': '{' is not closed\n" + usage, status: 2)
        try run(["-r", "--follow", "body#", "root"], stdout: "",
                stderr: "stanzaq: error: --follow follows one file, not a directory (-r)\n" + usage, status: 2)
    }
}
