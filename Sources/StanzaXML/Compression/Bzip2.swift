import CBzip2

extension CompressionFormat {
    /// bzip2 ("BZh" and the block size, 1 to 9), with libbz2.
    static let bzip2 = CompressionFormat(name: "bzip2", magic: [exactly(0x42, 0x5A, 0x68) + [0x31...0x39]]) { Bzip2Decoder() }
}

/// Decompresses bzip2 input as it comes, with libbz2: one stream after another
/// (`cat a.bz2 b.bz2` is one bzip2 input too, and pbzip2 writes such).
final class Bzip2Decoder: Decompressor {
    private var stream = bz_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    /// The last stream has ended: nothing is cut off.
    private var isAtStreamEnd = false

    init() {
        // (0, 0: no messages of its own, the faster of its two ways.)
        _ = BZ2_bzDecompressInit(&stream, 0, 0)
    }

    deinit { BZ2_bzDecompressEnd(&stream) }

    func decompress(_ input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        // (A read is far below 4 GiB: avail_in is an unsigned int.)
        stream.next_in = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
        stream.avail_in = UInt32(input.count)
        defer { stream.next_in = nil; stream.avail_in = 0 }
        while true {
            if isAtStreamEnd {
                if stream.avail_in == 0 { return }
                // Another stream follows.
                BZ2_bzDecompressEnd(&stream)
                _ = BZ2_bzDecompressInit(&stream, 0, 0)
                isAtStreamEnd = false
            }
            let capacity = output.count
            let before = stream.avail_in
            let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                out.withMemoryRebound(to: CChar.self) { stream.next_out = $0.baseAddress }
                stream.avail_out = UInt32(capacity)
                return BZ2_bzDecompress(&stream)
            }
            let produced = capacity - Int(stream.avail_out)
            if produced > 0 {
                try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<produced])) }
            }
            switch status {
            case BZ_STREAM_END:
                isAtStreamEnd = true
            case BZ_OK:
                // All taken and all given out, or nothing more to do with what there is.
                if stream.avail_out > 0 && (stream.avail_in == 0 || stream.avail_in == before) { return }
            default:
                throw DecompressionFailure(message: Self.reason(status))
            }
        }
    }

    /// (libbz2 hands out all it can as the input comes: nothing is held.)
    func finish(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        isAtStreamEnd
    }

    /// What libbz2's result says, as `bzip2 -d` says it.
    private static func reason(_ status: Int32) -> String {
        switch status {
        case BZ_DATA_ERROR: return "data integrity error"
        case BZ_DATA_ERROR_MAGIC: return "bad magic number"
        case BZ_MEM_ERROR: return "out of memory"
        default: return "libbz2 error \(status)"
        }
    }
}
