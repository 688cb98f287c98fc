import Foundation

/// Where the package's files are: the one place the tests compute it (this
/// file is `Tests/StanzaqTestSupport/PackagePaths.swift`). No test changes the
/// working directory; they pass these paths.
public enum PackagePaths {
    /// The package root.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `examples/`.
    public static let examples: URL = root.appendingPathComponent("examples")

    /// `../shared/`, beside the package (the shared corpus, as on CI).
    public static let shared: URL = root.deletingLastPathComponent().appendingPathComponent("shared")

    /// A file of the package, by its path from the root.
    public static func file(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }
}
