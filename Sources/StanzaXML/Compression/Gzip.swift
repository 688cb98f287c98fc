import CZlib

extension CompressionFormat {
    /// gzip (RFC 1952), with zlib.
    static let gzip = CompressionFormat(name: "gzip", magic: [exactly(0x1F, 0x8B)]) { GzipInflater() }
}

/// Decompresses gzip input as it comes, with zlib: one member after another
/// (`cat a.gz b.gz` is one gzip input too).
final class GzipInflater: Decompressor {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    /// The last member has ended: nothing is cut off.
    private var isAtMemberEnd = false

    init() {
        // 15 + 16: a window of 32 KiB, gzip header and trailer (not zlib's).
        _ = inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    }

    deinit { inflateEnd(&stream) }

    func decompress(_ input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base)
        stream.avail_in = UInt32(input.count)
        defer { stream.next_in = nil; stream.avail_in = 0 }
        while true {
            if isAtMemberEnd {
                if stream.avail_in == 0 { return }
                inflateReset(&stream)   // another member follows
                isAtMemberEnd = false
            }
            let capacity = output.count
            let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(capacity)
                return inflate(&stream, Z_NO_FLUSH)
            }
            let produced = capacity - Int(stream.avail_out)
            if produced > 0 {
                try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<produced])) }
            }
            switch status {
            case Z_STREAM_END:
                isAtMemberEnd = true
            case Z_OK:
                if stream.avail_in == 0 && stream.avail_out > 0 { return }
            case Z_BUF_ERROR:
                return   // needs more input
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw DecompressionFailure(message: reason)
            }
        }
    }

    /// (zlib hands out all it can as the input comes: nothing is held.)
    func finish(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        isAtMemberEnd
    }
}
