/// Undoes gzip as an input comes, when its first bytes say it is gzip (its
/// magic bytes, not its name), so that what reads it — XML, any log format,
/// format detection — sees the decompressed bytes (stanzaq(1), INPUT). Other
/// input is passed on as it is.
///
/// ```swift
/// let input = DecompressedInput()
/// try input.feed(chunk) { reader.feed($0) }
/// if let damage = try input.finish({ reader.feed($0) }) { print(damage) }
/// ```
public final class DecompressedInput {
    private var undecided = true
    private var prefix: [UInt8] = []
    private var inflater: GzipInflater?
    /// Whether the rest of the input is skipped (its gzip data is corrupt).
    public private(set) var isSkippingRest = false
    /// Where the decompressed bytes passed on end: the line and column after them.
    private var line = 1, column = 1

    public init() {}

    /// Whether the input is gzip (known once its first two bytes have come).
    public var isCompressed: Bool { inflater != nil }

    /// Damage of the gzip data: the message, and the place in the decompressed
    /// input it belongs to.
    public typealias Damage = (message: String, place: InputPosition)

    /// Passes `bytes` on to `body`, decompressed if the input is gzip. Returns
    /// the damage of corrupt gzip data, once; the rest of the input is then skipped.
    public func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Damage? {
        guard !isSkippingRest else { return nil }
        if undecided {
            prefix.append(contentsOf: bytes)
            guard prefix.count >= 2 else { return nil }
            return try decide(body)
        }
        return try pass(bytes, body)
    }

    /// The input ended: passes on what is held, and says whether gzip data was
    /// cut off (the place the message belongs to), or corrupt.
    public func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Damage? {
        if undecided && !prefix.isEmpty, let corrupt = try decide(body) { return corrupt }
        undecided = false
        guard let inflater, !inflater.isAtMemberEnd, !isSkippingRest else { return nil }
        return ("the gzip data is cut off (its end is missing)", InputPosition(offset: 0, line: line, column: column))
    }

    private func decide(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Damage? {
        undecided = false
        if prefix.starts(with: [0x1F, 0x8B]) { inflater = GzipInflater() }
        let held = prefix
        prefix = []
        return try held.withUnsafeBytes { try pass($0, body) }
    }

    private func pass(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Damage? {
        guard let inflater else {
            try body(bytes)
            return nil
        }
        do {
            try inflater.inflate(bytes.bindMemory(to: UInt8.self)) { out in
                count(out)
                try body(UnsafeRawBufferPointer(out))
            }
        } catch let failure as GzipInflater.Failure {
            isSkippingRest = true
            return ("the gzip data is corrupt (\(failure.message)); the rest of the input is skipped",
                    InputPosition(offset: 0, line: line, column: column))
        }
        return nil
    }

    /// Counts lines and columns (characters) over decompressed bytes.
    private func count(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
    }
}
