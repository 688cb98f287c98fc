import CByteSearch

// What the scanners of raw XML bytes share (``Resynchronizer``, ``StanzaBoundaryScanner``):
// the bytes before a buffer, lines, columns and names.
/// What the input held before the bytes a reader still keeps (its `base`), as
/// far as the functions below look back: their answers are then those they give
/// with the whole input kept, however it was fed. (Looking back no further than
/// the bytes kept, a reader fed in small pieces, which keeps fewer, saw a
/// stanza's root at column 0 and took a child for a new stanza or not
/// depending on where the pieces ended; the reader fuzzer found it.)
struct BytesBefore {
    /// How far `base` is from the start of its line.
    var column = 0
    /// Whether only spaces, tabs and carriage returns precede `base` on its line.
    var lineIsBlank = true
    /// The last byte before `base` that is not an XML space (`nil`: none).
    var lastNonSpace: UInt8?

    /// The start of the input.
    static let start = BytesBefore()

    /// What precedes `bytes.count` bytes further on, when `bytes` follow what this describes.
    // (Called whenever a reader forgets bytes: the line feed is found sixteen bytes at a time, and
    // the other scans stop at the first byte that is not blank.)
    func advanced(over bytes: UnsafeBufferPointer<UInt8>) -> BytesBefore {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return self }
        var after = self
        let lineStart: Int
        let newline = stanzaq_find_last_byte(base, bytes.count, 0x0A)
        if newline >= 0 {
            lineStart = newline + 1
            after.column = bytes.count - lineStart
            after.lineIsBlank = true
        } else {
            lineStart = 0
            after.column += bytes.count
        }
        if after.lineIsBlank {
            after.lineIsBlank = !bytes[lineStart...].contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
        }
        if let last = bytes.lastIndex(where: { !isXMLSpace($0) }) { after.lastNonSpace = bytes[last] }
        return after
    }
}

/// How far `offset` is from the start of its line, when only spaces and tabs
/// precede it there (`nil`: something else is before it on its line).
func indentation(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>, base: Int, before: BytesBefore) -> Int? {
    var index = offset - 1
    while index >= base {
        let byte = bytes[index - base]
        if byte == 0x0A { return offset - index - 1 }
        if byte != 0x20 && byte != 0x09 && byte != 0x0D { return nil }
        index -= 1
    }
    return before.lineIsBlank ? offset - base + before.column : nil
}

/// Whether the last non-blank byte before the line that starts at `lineStart` is a
/// '>' (a line cut off in the middle of text or of a tag does not end so).
func lineBeforeEndsWithTag(_ lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>, base: Int, before: BytesBefore) -> Bool {
    var index = lineStart - 1
    while index >= base && isXMLSpace(bytes[index - base]) { index -= 1 }
    if index < base { return before.lastNonSpace.map { $0 == UInt8(ascii: ">") } ?? true }
    return bytes[index - base] == UInt8(ascii: ">")
}

/// How far `offset` is from the start of its line, in bytes.
func column(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>, base: Int, before: BytesBefore) -> Int {
    var index = offset - 1
    while index >= base && bytes[index - base] != 0x0A { index -= 1 }
    return index < base ? offset - base + before.column : offset - index - 1
}

/// The part of a qualified name after its prefix.
func localName(_ name: [UInt8]) -> [UInt8] {
    guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
    return Array(name[(colon + 1)...])
}

/// Bytes that can start an XML name (any non-ASCII byte may: UTF-8 of a name character).
@inline(__always)
func isNameStartByte(_ byte: UInt8) -> Bool {
    (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
        || byte == UInt8(ascii: ":") || byte >= 0x80
}

@inline(__always)
func isNameByte(_ byte: UInt8) -> Bool {
    isNameStartByte(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
}
