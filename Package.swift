// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "stanzaq",
    products: [
        .library(name: "StanzaQuery", targets: ["StanzaQuery"]),
        .executable(name: "stanzaq", targets: ["stanzaq"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Thin wrappers around the system's C libraries (Debian: libxml2-dev, libedit-dev, libssl-dev).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The language and the XML reader: no command line, no libedit.
        .target(name: "StanzaQuery", dependencies: ["CLibXML2", "CCrypto"]),

        // The command line and the REPL.
        .executableTarget(
            name: "stanzaq",
            dependencies: [
                "StanzaQuery", "CLibEdit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "StanzaQueryTests", dependencies: ["StanzaQuery"]),
        .testTarget(name: "StanzaqCLITests", dependencies: ["stanzaq"]),
    ]
)
