import CByteSearch

/// A run of bytes a prefilter searches for (``Prefilter``).
struct Needle: Equatable {
    let bytes: [UInt8]
    /// Whether ASCII letters match in either case.
    let caseless: Bool
    /// Whether the run is an `=` value whole (``RequiredLiteral/isWholeValue``):
    /// a place counts only where the byte before it is a quote, and the byte
    /// after a quote or not ASCII. An attribute value that is the literal is so
    /// written, and a word of a log's own text, or of a longer value, is rarely so
    /// (nbxmpp's `Register protocol "error (unknown)"` lines, `type='errors'`).
    let wholeValue: Bool
    /// What the log's format says of the places found (``NeedleCheck``); `nil`: each counts.
    var check: NeedleCheck? = nil

    /// Whether the run at `offset` of `text` counts; where the bytes around it
    /// are not in `text`, it does.
    func counts(in text: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        if let check, !check.counts(text, offset, offset + bytes.count) { return false }
        guard wholeValue else { return true }
        let after = offset + bytes.count
        if offset > 0, text[offset - 1] != 0x27, text[offset - 1] != 0x22 { return false }
        if after < text.count, text[after] != 0x27, text[after] != 0x22, text[after] < 0x80 { return false }
        return true
    }

    /// Whether the needle is at `offset` of `text`, whole, and counts there.
    func isAt(_ offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset + bytes.count <= text.count, let base = text.baseAddress else { return false }
        return bytes.withUnsafeBufferPointer { stanzaq_literal_at(base + offset, $0.baseAddress!, $0.count, caseless ? 1 : 0) } != 0
            && counts(in: text, at: offset)
    }
}

/// Needles searched for together (CByteSearch's `stanzaq_find_literals`): each
/// byte of the text is looked at once for all of them.
final class NeedleSearch {
    let needles: [Needle]
    /// Their bytes, one after the other, and what the C search is given.
    private let storage: UnsafeMutablePointer<UInt8>
    private let described: UnsafeMutablePointer<stanzaq_needle>
    /// The longest needle's length.
    let longest: Int

    init(_ needles: [Needle]) {
        self.needles = needles
        let total = needles.reduce(0) { $0 + $1.bytes.count }
        storage = .allocate(capacity: max(total, 1))
        described = .allocate(capacity: max(needles.count, 1))
        var offset = 0
        for (index, needle) in needles.enumerated() {
            (storage + offset).initialize(from: needle.bytes, count: needle.bytes.count)
            described[index] = stanzaq_needle_make(storage + offset, needle.bytes.count, needle.caseless ? 1 : 0)
            offset += needle.bytes.count
        }
        longest = needles.map(\.bytes.count).max() ?? 1
    }

    deinit {
        storage.deallocate()
        described.deallocate()
    }

    /// The first place in [from, end) of `text` where a needle starts, ends by
    /// `end` and counts (``Needle/counts(in:at:)``), and which needle it is;
    /// `nil` if there is none.
    func firstHit(in text: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> (offset: Int, needle: Int)? {
        guard let base = text.baseAddress, !needles.isEmpty else { return nil }
        var from = from
        while from < end {
            var which: Int32 = -1
            let found = stanzaq_find_literals(base, from, end, described, Int32(needles.count), &which)
            guard found < end, which >= 0 else { return nil }
            if needles[Int(which)].counts(in: text, at: found) { return (found, Int(which)) }
            // (Another needle may start there too, and count.)
            for other in needles.indices where other > Int(which) && found + needles[other].bytes.count <= end
                && needles[other].isAt(found, in: text) {
                return (found, other)
            }
            from = found + 1
        }
        return nil
    }
}
