import CZstd

extension CompressionFormat {
    /// Zstandard (RFC 8878): a frame, or a skippable frame (magic 0x184D2A50 to
    /// 0x184D2A5F, little-endian) before one; with libzstd, loaded when needed.
    static let zstd = CompressionFormat(name: "zstd",
                                        magic: [exactly(0x28, 0xB5, 0x2F, 0xFD), [0x50...0x5F] + exactly(0x2A, 0x4D, 0x18)]) {
        try ZstandardDecoder()
    }
}

/// Decompresses zstd input as it comes, with the system's libzstd: one frame
/// after another, skippable frames skipped (`cat a.zst b.zst` is one zstd
/// input too, and pzstd writes such).
final class ZstandardDecoder: Decompressor {
    private let stream: UnsafeMutableRawPointer
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    /// The last frame has ended (decoded and all of it given out): nothing is cut off.
    private var isAtFrameEnd = false
    /// How much input the decoder asks for next (its hint; 1 at a frame's start).
    private var wanted = 1
    /// The last call filled the output buffer: more output may be held.
    private var isFull = false

    init() throws {
        guard let stream = stanzaq_zstd_create() else {
            throw DecompressorUnavailable(message: "zstd input needs libzstd.so.1, which is not installed")
        }
        self.stream = stream
    }

    deinit { stanzaq_zstd_free(stream) }

    func decompress(_ input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        var taken = 0, stalled = 0
        while taken < input.count {
            // No more than the decoder asks for: a block is decoded and handed
            // out in a call of its own, before a checksum or block after it can
            // fail (a failing call hands out nothing), however the input is
            // cut into chunks.
            let size = min(wanted, input.count - taken)
            var source = ZSTD_inBuffer(src: base + taken, size: size, pos: 0)
            try call(&source, body)
            taken += source.pos
            // (It takes what it is given, to hold it if need be: never is nothing taken twice.)
            stalled = source.pos == 0 && !isFull ? stalled + 1 : 0
            if stalled > 1 { throw DecompressionFailure(message: "libzstd takes no more input") }
            // What a full output buffer left behind, before more input.
            while isFull {
                var none = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
                try call(&none, body)
            }
        }
    }

    func finish(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        isAtFrameEnd
    }

    /// One call of ZSTD_decompressStream into the output buffer, which goes to `body`.
    private func call(_ source: inout ZSTD_inBuffer, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let capacity = output.count
        var target = ZSTD_outBuffer()
        let result = output.withUnsafeMutableBytes { out -> Int in
            target = ZSTD_outBuffer(dst: out.baseAddress, size: capacity, pos: 0)
            return stanzaq_zstd_decompress(stream, &target, &source)
        }
        if let name = stanzaq_zstd_error_name(result) {
            // zstd's names start with a capital ("Data corruption detected").
            let reason = String(cString: name)
            throw DecompressionFailure(message: reason.prefix(1).lowercased() + reason.dropFirst())
        }
        if target.pos > 0 {
            try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<target.pos])) }
        }
        isFull = target.pos == capacity
        // 0: a frame is decoded and handed out (another may follow in the input).
        if result == 0 {
            isAtFrameEnd = true
            wanted = 1
        } else if source.pos > 0 || target.pos > 0 {
            isAtFrameEnd = false
            wanted = max(1, result)
        }
    }
}
