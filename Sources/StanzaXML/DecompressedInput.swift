/// Undoes compression as an input comes, when its first bytes say it is
/// compressed (gzip, xz, zstd or bzip2: its magic bytes, not its name; see
/// ``CompressionFormat``), so that what reads it — XML, any log format, format
/// detection, envelopes — sees the decompressed bytes (stanzaq(1), INPUT).
/// Other input is passed on as it is.
///
/// ```swift
/// let input = DecompressedInput()
/// try input.feed(chunk) { reader.feed($0) }
/// if let damage = try input.finish({ reader.feed($0) }) { print(damage) }
/// ```
public final class DecompressedInput {
    private var undecided = true
    private var prefix: [UInt8] = []
    private var decompressor: (any Decompressor)?
    /// The input's format, once its first bytes have told it (`nil`: not compressed).
    public private(set) var format: CompressionFormat?
    /// Whether the rest of the input is skipped (its compressed data is corrupt,
    /// or its format's library is missing).
    public private(set) var isSkippingRest = false
    /// Where the decompressed bytes passed on end: the line and column after them.
    private var line = 1, column = 1

    public init() {}

    /// Whether the input is compressed (known once its first bytes have come).
    public var isCompressed: Bool { format != nil }

    /// Whether the input is known not to be compressed: it is passed on as it is.
    public var isPlain: Bool { !undecided && format == nil }

    /// Damage of the compressed data: the message, and the place in the
    /// decompressed input it belongs to.
    public typealias Damage = (message: String, place: InputPosition)

    /// Passes `bytes` on to `body`, decompressed if the input is compressed.
    /// Returns the damage of corrupt data, once; the rest of the input is then skipped.
    public func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Damage? {
        guard !isSkippingRest else { return nil }
        if undecided {
            prefix.append(contentsOf: bytes)
            guard let format = CompressionFormat.recognised(prefix, atEnd: false) else { return nil }
            return try decide(format, body)
        }
        return try pass(bytes, body)
    }

    /// The input ended: passes on what is held, and says whether the compressed
    /// data was cut off (the place the message belongs to), or corrupt.
    public func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Damage? {
        if undecided && !prefix.isEmpty, let damage = try decide(CompressionFormat.recognised(prefix, atEnd: true) ?? nil, body) {
            return damage
        }
        undecided = false
        guard let format, let decompressor, !isSkippingRest else { return nil }
        do {
            if try decompressor.finish({ try passOn($0, body) }) { return nil }
        } catch let failure as DecompressionFailure {
            return corrupt(failure)
        }
        return ("the \(format.name) data is cut off (its end is missing)", here)
    }

    private func decide(_ format: CompressionFormat?, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Damage? {
        undecided = false
        self.format = format
        let held = prefix
        prefix = []
        if let format {
            do {
                decompressor = try format.makeDecompressor()
            } catch let unavailable as DecompressorUnavailable {
                isSkippingRest = true
                return (unavailable.message, here)
            }
        }
        return try held.withUnsafeBytes { try pass($0, body) }
    }

    private func pass(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Damage? {
        guard let decompressor else {
            try body(bytes)
            return nil
        }
        do {
            try decompressor.decompress(bytes.bindMemory(to: UInt8.self)) { try passOn($0, body) }
        } catch let failure as DecompressionFailure {
            return corrupt(failure)
        }
        return nil
    }

    private func passOn(_ out: UnsafeBufferPointer<UInt8>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        count(out)
        try body(UnsafeRawBufferPointer(out))
    }

    private func corrupt(_ failure: DecompressionFailure) -> Damage {
        isSkippingRest = true
        return ("the \(format?.name ?? "compressed") data is corrupt (\(failure.message)); the rest of the input is skipped", here)
    }

    /// The place after the decompressed bytes passed on.
    private var here: InputPosition { InputPosition(offset: 0, line: line, column: column) }

    /// Counts lines and columns (characters) over decompressed bytes.
    private func count(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
    }
}
