import CLzma

extension CompressionFormat {
    /// xz (the .xz container of LZMA2), with liblzma.
    static let xz = CompressionFormat(name: "xz", magic: [exactly(0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00)]) { try XZDecoder() }
}

/// Decompresses xz input as it comes, with liblzma: one stream after another,
/// and the padding xz allows between them (`cat a.xz b.xz` is one xz input too).
final class XZDecoder: Decompressor {
    private var stream = lzma_stream()   // (all zero: LZMA_STREAM_INIT)
    private var output = [UInt8](repeating: 0, count: 1 << 16)

    init() throws {
        // No memory limit: what the file needs (its dictionary, at most 1.5 GiB
        // by xz's format; xz -9 writes 64 MiB), as xz -d takes.
        // LZMA_CONCATENATED: streams one after another, ended by LZMA_FINISH.
        let concatenated: UInt32 = 0x08
        guard lzma_stream_decoder(&stream, UInt64.max, concatenated) == LZMA_OK else {
            throw DecompressionFailure(message: "out of memory")
        }
    }

    deinit { lzma_end(&stream) }

    func decompress(_ input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        stream.next_in = base
        stream.avail_in = input.count
        defer { stream.next_in = nil; stream.avail_in = 0 }
        // (Until the input is taken and the output buffer is not filled: all it gave is out.)
        while stream.avail_in > 0 || stream.avail_out == 0 {
            let status = try code(LZMA_RUN, body)
            // (A stream's end is told only at LZMA_FINISH: another may follow.)
            guard status == LZMA_OK else { throw DecompressionFailure(message: Self.reason(status)) }
        }
    }

    func finish(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        while true {
            let status = try code(LZMA_FINISH, body)
            if status == LZMA_STREAM_END { return true }
            // Short of input: no progress (the data ends inside a stream).
            if status == LZMA_BUF_ERROR || (status == LZMA_OK && stream.avail_out > 0) { return false }
            guard status == LZMA_OK else { throw DecompressionFailure(message: Self.reason(status)) }
        }
    }

    /// One call of lzma_code into the output buffer, which goes to `body`.
    private func code(_ action: lzma_action, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> lzma_ret {
        let capacity = output.count
        let status = output.withUnsafeMutableBufferPointer { out -> lzma_ret in
            stream.next_out = out.baseAddress
            stream.avail_out = capacity
            return lzma_code(&stream, action)
        }
        let produced = capacity - stream.avail_out
        if produced > 0 {
            try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<produced])) }
        }
        return status
    }

    /// What liblzma's result says.
    private static func reason(_ status: lzma_ret) -> String {
        switch status {
        case LZMA_FORMAT_ERROR: return "not an xz stream"
        case LZMA_OPTIONS_ERROR: return "unsupported options"
        case LZMA_DATA_ERROR: return "invalid data"
        case LZMA_MEM_ERROR: return "out of memory"
        case LZMA_MEMLIMIT_ERROR: return "memory usage limit reached"
        default: return "liblzma error \(status.rawValue)"
        }
    }
}
