/// A compressed format stanzaq undoes as it reads (stanzaq(1), INPUT): the name
/// its messages give it, the bytes its data starts with, and its decompressor.
/// A format is one file in `Compression/` (its ``Decompressor`` and its
/// `CompressionFormat`) and one line in ``registry``; an input is recognised by
/// its first bytes, never by its name, so standard input is too.
public struct CompressionFormat: Sendable {
    /// The name messages give it ("the xz data is cut off").
    public let name: String
    /// The patterns its data starts with (any one of them), a range of bytes a place.
    let magic: [[ClosedRange<UInt8>]]
    /// A decompressor for one input; throws ``DecompressorUnavailable`` when
    /// the library it needs is missing.
    let makeDecompressor: @Sendable () throws -> any Decompressor

    /// The formats, looked for in this order.
    static let registry: [CompressionFormat] = [.gzip, .xz, .zstd, .bzip2]

    /// How many first bytes tell every format.
    static let longestMagic = registry.flatMap(\.magic).map(\.count).max() ?? 0

    /// The format the input starting with `head` is in: `.some(nil)` if it is
    /// in none, `nil` while `head` is too short to tell and the input goes on
    /// (`atEnd`: `head` is all of it).
    public static func recognised(_ head: some Sequence<UInt8>, atEnd: Bool) -> CompressionFormat?? {
        // XML (and most logs) starts with `<`, which no format's data starts
        // with: told without making the registry, at every start
        // (testNoFormatStartsWithALessThanSign).
        var first = head.makeIterator()
        if first.next() == UInt8(ascii: "<") { return .some(nil) }
        let head = Array(head.prefix(longestMagic))
        var undecided = false
        for format in registry {
            for pattern in format.magic {
                let matched = zip(head, pattern).allSatisfy { $1.contains($0) }
                if matched && head.count >= pattern.count { return .some(format) }
                if matched { undecided = true }
            }
        }
        return undecided && !atEnd ? nil : .some(nil)
    }

    /// Whether the input starting with `head` (as much of it as there is) is compressed.
    public static func startsCompressed(_ head: some Sequence<UInt8>) -> Bool {
        guard case .some(.some) = recognised(head, atEnd: true) else { return false }
        return true
    }
}

/// Undoes one compressed format as its data comes, in constant memory, one
/// member (stream, frame) after another: `cat a.xz b.xz` is one xz input too.
protocol Decompressor: AnyObject {
    /// Decompresses `input`, handing each piece of output to `body`; throws
    /// ``DecompressionFailure`` when the data is corrupt.
    func decompress(_ input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws

    /// The data has ended: hands what is still held to `body`; false when the
    /// last member is cut off (its end is missing).
    func finish(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool
}

/// Why compressed data cannot be read: the library's reason.
struct DecompressionFailure: Error {
    var message: String
}

/// The library a format needs cannot be loaded: the whole message.
struct DecompressorUnavailable: Error {
    var message: String
}

extension CompressionFormat: Equatable {
    public static func == (left: CompressionFormat, right: CompressionFormat) -> Bool { left.name == right.name }
}

/// A pattern of exact bytes.
func exactly(_ bytes: UInt8...) -> [ClosedRange<UInt8>] {
    bytes.map { $0...$0 }
}
