import Foundation
import XCTest
import StanzaqTestSupport

/// `make deb` (packaging/deb/make-deb.sh) on the binary under test: the
/// package's control data and contents, then the binary, the man pages and the
/// completions from the unpacked tree. dpkg-deb and dpkg-shlibdeps (dpkg-dev)
/// are test dependencies (make test-deps); the test is skipped, with a message,
/// only where dpkg-deb is missing (not a Debian system).
final class DebianPackageTests: XCTestCase {
    private static let script = PackagePaths.file("packaging/deb/make-deb.sh")

    /// What the package holds: path, mode (as `dpkg-deb -c` shows them).
    private static let contents: [(String, String)] = [
        ("./", "drwxr-xr-x"), ("./usr/", "drwxr-xr-x"), ("./usr/bin/", "drwxr-xr-x"),
        ("./usr/bin/stanzaq", "-rwxr-xr-x"),
        ("./usr/share/", "drwxr-xr-x"),
        ("./usr/share/bash-completion/", "drwxr-xr-x"), ("./usr/share/bash-completion/completions/", "drwxr-xr-x"),
        ("./usr/share/bash-completion/completions/stanzaq", "-rw-r--r--"),
        ("./usr/share/doc/", "drwxr-xr-x"), ("./usr/share/doc/stanzaq/", "drwxr-xr-x"),
        ("./usr/share/doc/stanzaq/changelog.Debian.gz", "-rw-r--r--"),
        ("./usr/share/doc/stanzaq/copyright", "-rw-r--r--"),
        ("./usr/share/fish/", "drwxr-xr-x"), ("./usr/share/fish/vendor_completions.d/", "drwxr-xr-x"),
        ("./usr/share/fish/vendor_completions.d/stanzaq.fish", "-rw-r--r--"),
        ("./usr/share/lintian/", "drwxr-xr-x"), ("./usr/share/lintian/overrides/", "drwxr-xr-x"),
        ("./usr/share/lintian/overrides/stanzaq", "-rw-r--r--"),
        ("./usr/share/man/", "drwxr-xr-x"), ("./usr/share/man/man1/", "drwxr-xr-x"),
        ("./usr/share/man/man1/stanzaq.1.gz", "-rw-r--r--"),
        ("./usr/share/man/man7/", "drwxr-xr-x"), ("./usr/share/man/man7/stanzaq-query.7.gz", "-rw-r--r--"),
        ("./usr/share/zsh/", "drwxr-xr-x"), ("./usr/share/zsh/vendor-completions/", "drwxr-xr-x"),
        ("./usr/share/zsh/vendor-completions/_stanzaq", "-rw-r--r--"),
    ]

    func testTheDebianPackage() throws {
        guard let dpkgDeb = Self.find("dpkg-deb") else {
            throw XCTSkip("dpkg-deb is not installed: not a Debian system")
        }
        let binary = try Runner.requireBinary()
        let scratch = try ScratchDirectory()
        let environment = Runner.environment(["DEB_COMPRESS": "none", "DEB_MAINTAINER": nil])
        let made = try Runner.run(URL(fileURLWithPath: "/bin/sh"), [Self.script.path, binary.path, scratch.url.path],
                                  in: PackagePaths.root, environment: environment, timeout: 120)
        XCTAssertEqual(made.status, 0, made.stderr)
        let version = try Runner.stanzaq(["--version"]).output.split(separator: "\n")[0]
            .replacingOccurrences(of: "stanzaq ", with: "")
        let architecture = try Runner.run(dpkgDeb.deletingLastPathComponent().appendingPathComponent("dpkg"),
                                          ["--print-architecture"], in: scratch.url, environment: environment)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = scratch.url.appendingPathComponent("stanzaq_\(version)-1_\(architecture).deb")
        XCTAssertEqual(made.output, deb.path + "\n")

        // The control data.
        let info = try Runner.run(dpkgDeb, ["-I", deb.path, "control"], in: scratch.url, environment: environment)
        XCTAssertEqual(info.status, 0, info.stderr)
        let fields = Dictionary(info.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.compactMap { line in
            line.firstIndex(of: ":").map { (String(line[..<$0]), line[line.index(after: $0)...].trimmingCharacters(in: .whitespaces)) }
        }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(fields["Package"], "stanzaq")
        XCTAssertEqual(fields["Version"], "\(version)-1")
        XCTAssertEqual(fields["Architecture"], architecture)
        XCTAssertEqual(fields["Maintainer"], "stanzaq developers <stanzaq@example.org>")
        XCTAssertEqual(fields["Section"], "utils")
        XCTAssertEqual(fields["Priority"], "optional")
        XCTAssertEqual(fields["Description"], "query XMPP stanzas from the shell")
        // Depends from dpkg-shlibdeps: the libraries the binary loads, ICU once.
        let depends = (fields["Depends"] ?? "").components(separatedBy: ", ").map { String($0.prefix { $0 != " " }) }
        for library in ["libc6", "libxml2", "libedit2", "libssl3", "zlib1g", "liblzma5", "libbz2-1.0", "libzstd1"] {
            XCTAssertTrue(depends.contains(library), "Depends: \(fields["Depends"] ?? "")")
        }
        XCTAssertEqual(depends.filter { $0.hasPrefix("libicu") }.count, 1, "Depends: \(fields["Depends"] ?? "")")
        XCTAssertNotNil(Int(fields["Installed-Size"] ?? ""), "Installed-Size in KiB")

        // The contents.
        let listing = try Runner.run(dpkgDeb, ["-c", deb.path], in: scratch.url, environment: environment)
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let listed = listing.output.split(separator: "\n").map { line -> (String, String, String) in
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            return (String(words.last!), String(words[0]), String(words[1]))
        }
        XCTAssertEqual(listed.map(\.0), Self.contents.map(\.0))
        XCTAssertEqual(listed.map(\.1), Self.contents.map(\.1))
        XCTAssertTrue(listed.allSatisfy { $0.2 == "root/root" }, listing.output)

        // Unpacked: the binary runs, as the one packaged.
        let tree = scratch.url.appendingPathComponent("tree")
        let unpacked = try Runner.run(dpkgDeb, ["-x", deb.path, tree.path], in: scratch.url, environment: environment)
        XCTAssertEqual(unpacked.status, 0, unpacked.stderr)
        let packaged = tree.appendingPathComponent("usr/bin/stanzaq")
        XCTAssertEqual(try Runner.run(packaged, ["--version"], in: scratch.url, environment: environment).output,
                       try Runner.stanzaq(["--version"]).output)
        let found = try Runner.run(packaged, ["/<type~^CHAT$>@id"], stdin: .text("<m id='1' type='chat'/><m id='2'/>"),
                                   in: scratch.url, environment: environment)
        XCTAssertEqual(found.output, "1\n")
        XCTAssertEqual(found.status, 0)
        // Stripped.
        if let file = Self.find("file") {
            XCTAssertTrue(try Runner.run(file, [packaged.path], in: scratch.url, environment: environment).output.contains(", stripped"))
        }

        // The man pages, gzipped, read by man from the tree.
        let man = try XCTUnwrap(Self.find("man"), "man is not installed (make test-deps)")
        for (page, title) in [("usr/share/man/man1/stanzaq.1.gz", "stanzaq — query XMPP stanzas"),
                              ("usr/share/man/man7/stanzaq-query.7.gz", "stanzaq-query — ")] {
            let shown = try Runner.run(man, ["-l", tree.appendingPathComponent(page).path], in: scratch.url,
                                       environment: Runner.environment(["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"]))
            XCTAssertEqual(shown.status, 0, shown.stderr)
            XCTAssertTrue(shown.output.contains(title), String(shown.output.prefix(400)))
        }

        // The completions: the binary's own, bash's without its #! line (bash-completion sources it).
        let bash = try String(contentsOf: tree.appendingPathComponent("usr/share/bash-completion/completions/stanzaq"), encoding: .utf8)
        let generated = try Runner.stanzaq(["--generate-completion-script", "bash"]).output
        XCTAssertTrue(generated.hasPrefix("#!"))
        XCTAssertEqual(bash, generated.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)[1] + "")
        XCTAssertEqual(try String(contentsOf: tree.appendingPathComponent("usr/share/zsh/vendor-completions/_stanzaq"), encoding: .utf8),
                       try Runner.stanzaq(["--generate-completion-script", "zsh"]).output)
        XCTAssertEqual(try String(contentsOf: tree.appendingPathComponent("usr/share/fish/vendor_completions.d/stanzaq.fish"), encoding: .utf8),
                       try Runner.stanzaq(["--generate-completion-script", "fish"]).output)
        if let bashShell = Self.find("bash") {
            let completes = try Runner.run(bashShell, ["-c", "source \(shellQuote(tree.path))/usr/share/bash-completion/completions/stanzaq && complete -p stanzaq"],
                                           in: scratch.url, environment: environment)
            XCTAssertEqual(completes.output, "complete -o filenames -F _stanzaq stanzaq\n", completes.stderr)
        }

        // The copyright file is machine-readable (DEP-5).
        let copyright = try String(contentsOf: tree.appendingPathComponent("usr/share/doc/stanzaq/copyright"), encoding: .utf8)
        XCTAssertTrue(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
    }

    private static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in (path + ":/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
