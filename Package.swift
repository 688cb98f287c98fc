// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "stanzaq",
    products: [
        .library(name: "StanzaQuery", targets: ["StanzaQuery"]),
        .library(name: "StanzaqKit", targets: ["StanzaqKit"]),
        .executable(name: "stanzaq", targets: ["stanzaq"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Thin wrappers around the system's C libraries (Debian: libxml2-dev, libedit-dev, libssl-dev,
        // zlib1g-dev, liblzma-dev, libbz2-dev, libicu-dev). ICU is the one libxml2 already loads: its regular expressions, through
        // its C API, are the engine NSRegularExpression wraps.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CICUSystem", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]),
        // ICU's regular expressions and version for Swift, with plain C types (ICU's
        // headers stay in its .c file: see Sources/CICU/include/CICU.h).
        // On Linux libicui18n is loaded on first use (see Sources/CICU/CICU.c); elsewhere it is linked.
        .target(name: "CICU", dependencies: ["CICUSystem"],
                linkerSettings: [.linkedLibrary("icui18n", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS]))]),
        // libedit for the REPL: loaded when the REPL starts on Linux (see Sources/CLibEdit/CLibEdit.c),
        // linked elsewhere; its header (libedit-dev) gives the types.
        .target(name: "CLibEdit", linkerSettings: [.linkedLibrary("edit", .when(platforms: [.macOS]))]),
        // SHA-256: OpenSSL's libcrypto on Linux (libssl-dev; loaded on first use), CommonCrypto on Apple's systems.
        .target(name: "CCrypto"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLzma", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"]), .brew(["xz"])]),
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"])]),
        // zstd's streaming decompression: libzstd loaded when a zstd input first
        // comes (see Sources/CZstd/CZstd.c), its header not needed.
        .target(name: "CZstd"),

        // Byte searches sixteen bytes at a time, for the stanza boundary scanner.
        .target(name: "CByteSearch"),

        // The XML reader: stanzas out of single elements, sequences and XMPP
        // streams (libxml2's SAX2 push parser), damage skipped, gzip, xz, zstd and bzip2 undone.
        .target(name: "StanzaXML", dependencies: ["CLibXML2", "CZlib", "CLzma", "CBzip2", "CZstd", "CByteSearch"]),

        // The log readers: the logs of servers, clients and libraries, one
        // parser a format (Formats/), each session's directions read as XML streams.
        .target(name: "StanzaLogs", dependencies: ["StanzaXML", "CByteSearch"]),

        // The query language (and the library's one module: it re-exports the
        // readers); regular expressions and case folding through the system's ICU.
        .target(name: "StanzaQuery", dependencies: ["StanzaXML", "StanzaLogs", "CLibXML2", "CICU", "CCrypto"]),

        // What the command line does, without the process: search options, the search
        // loop, one sink per kind of output, diagnostics, the REPL's commands.
        .target(name: "StanzaqKit", dependencies: ["StanzaQuery", "CByteSearch"]),

        // The process: argument parsing, the terminal (libedit), signals, exit codes.
        .executableTarget(
            name: "stanzaq",
            dependencies: [
                "StanzaqKit", "CLibEdit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // How the tests find the package and start programs: one place for both.
        .target(name: "StanzaqTestSupport", dependencies: ["CSpawn"], path: "Tests/StanzaqTestSupport"),
        .target(name: "CSpawn", path: "Tests/CSpawn"),
        .testTarget(name: "StanzaQueryTests", dependencies: ["StanzaQuery", "StanzaXML", "StanzaLogs", "CByteSearch", "StanzaqTestSupport"]),
        .testTarget(name: "StanzaqCLITests", dependencies: ["stanzaq", "StanzaqKit", "StanzaqTestSupport"]),
    ]
)
