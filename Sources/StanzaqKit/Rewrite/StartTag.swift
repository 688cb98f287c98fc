/// A start tag found in bytes that are not parsed as XML (a stream header
/// between stanzas), with its attributes, so that values can be replaced in
/// place: the tag is written back as it was, quotes and spacing included.
struct StartTag {
    /// The tag's name as written, and its local name (after a prefix).
    let name: String
    var localName: Substring { name.split(separator: ":").last ?? Substring(name) }
    /// Where the tag ends (after its `>`).
    let end: Int
    /// The tag's bytes cut at each attribute value: `pieces[0]`, value 0,
    /// `pieces[1]`, value 1, …, the last piece.
    private var pieces: [ArraySlice<UInt8>] = []
    private var attributes: [(name: String, value: ArraySlice<UInt8>)] = []

    /// The start tag that begins at `start` (a `<`), or `nil` if none does
    /// (an end tag, a comment, a declaration, a tag not closed in `text`).
    init?(_ text: ArraySlice<UInt8>, at start: Int) {
        var index = start + 1
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        func isNameEnd(_ byte: UInt8) -> Bool { isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") }
        let nameStart = index
        while index < text.endIndex, !isNameEnd(text[index]) { index += 1 }
        guard index > nameStart, index < text.endIndex, text[nameStart] != UInt8(ascii: "/"), text[nameStart] != UInt8(ascii: "!"),
              text[nameStart] != UInt8(ascii: "?") else { return nil }
        name = String(decoding: text[nameStart..<index], as: UTF8.self)
        var pieceStart = start
        while true {
            while index < text.endIndex, isSpace(text[index]) { index += 1 }
            guard index < text.endIndex else { return nil }
            if text[index] == UInt8(ascii: ">") || text[index] == UInt8(ascii: "/") { break }
            let attributeStart = index
            while index < text.endIndex, !isNameEnd(text[index]) { index += 1 }
            let attributeName = String(decoding: text[attributeStart..<index], as: UTF8.self)
            while index < text.endIndex, isSpace(text[index]) { index += 1 }
            guard index < text.endIndex, text[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            while index < text.endIndex, isSpace(text[index]) { index += 1 }
            guard index < text.endIndex, text[index] == UInt8(ascii: "'") || text[index] == UInt8(ascii: "\"") else { return nil }
            let quote = text[index]
            let valueStart = index + 1
            guard let valueEnd = text[valueStart...].firstIndex(of: quote) else { return nil }
            pieces.append(text[pieceStart..<valueStart])
            attributes.append((attributeName, text[valueStart..<valueEnd]))
            pieceStart = valueEnd
            index = valueEnd + 1
        }
        guard let close = text[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        end = close + 1
        pieces.append(text[pieceStart..<end])
    }

    /// The tag's bytes with the value of each attribute that `replacement`
    /// gives a value for (by name and value as written) replaced.
    func bytes(replacing replacement: (String, String) -> [UInt8]?) -> [UInt8] {
        var output: [UInt8] = []
        for (index, attribute) in attributes.enumerated() {
            output += pieces[index]
            output += replacement(attribute.name, String(decoding: attribute.value, as: UTF8.self)) ?? Array(attribute.value)
        }
        output += pieces[attributes.count]
        return output
    }
}
