import CByteSearch
#if canImport(StanzaXML)
import StanzaXML
#endif

/// Which records of ejabberd's log a search that skips records reads whatever
/// the needles (``EjabberdLogParser/recordSpelling``).
///
/// A record is a read of a socket, logged as it came (processone/xmpp,
/// `xmpp_socket:parse/2`): it may end anywhere in a stanza, even in a needle,
/// whose rest is in the socket's next read, maybe records later. A record
/// skipped must therefore be whole stanzas (top-level elements each complete;
/// around them white space, an XML declaration, a stream's header or end):
/// then the records skipped leave every stream as they found it, and a record
/// that opens a stanza is read, in a window that is kept only if the stanza
/// ends in it. Every record that ends a line with its term is checked (the
/// format's marks): a string, for whole stanzas; numbers, decoded, for whole
/// stanzas and the needles.
extension EjabberdLogParser {
    /// Whether the record whose term ends with the mark that `bytes` ends with
    /// is to be read (``RecordSpelling/mustRead``).
    static func mustRead(_ bytes: UnsafeBufferPointer<UInt8>, _ needles: LogNeedles) -> Bool {
        // The line's end: its line feed, or a carriage return before it.
        let end = bytes.count >= 2 && bytes[bytes.count - 2] == 0x0D ? bytes.count - 2 : bytes.count - 1
        let close = end - 2         // `>>`
        // (The mark is a line's last `>`: a term ends with two.)
        guard close > 0, bytes[close] == 0x3E else { return false }
        let lineStart = bytes.lastIndex(of: 0x0A, before: close).map { $0 + 1 } ?? 0
        let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<end])
        if line.firstRange(of: " XML on stream = <<\"") != nil {
            return !(recordString(in: line).map { isWholeStanzas($0, escaped: true) } ?? false)
        }
        // The last piece of a string wrapped onto lines (the decoder reads them,
        // `~p` writes none): its record is read, from its first line on.
        let first = line.skippingBlanks(from: 0)
        if first > 0 && first < line.count && line[first] == 0x22 { return true }
        // Numbers, over lines: the record's first line has the marker before them
        // (else the term is none of a record's: a term of another message).
        guard isASCIIDigit(bytes[close - 1]) || bytes[close - 1] == 0x3C else { return false }
        guard let (start, data) = ErlangTermSpelling.numberFormBytes(bytes, closingAt: close) else { return true }
        let marker: StaticString = " XML on stream = "
        guard start >= marker.utf8CodeUnitCount else { return true }   // (its start not held)
        guard UnsafeBufferPointer(rebasing: bytes[..<start]).hasSuffix(marker) else { return false }
        return data.withUnsafeBufferPointer { needles.holdsNeedle($0) || !isWholeStanzas($0, escaped: false) }
    }

    /// Whether a needle found at the end of `line` (its line up to the needle)
    /// may be in a record's data: after the record's marker, or in a string
    /// that a record's term goes on with in a further line (`~p` wraps none,
    /// but the decoder reads them). The lines of numbers are checked by
    /// their marks.
    static func mayBeStanzaBytes(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if line.firstRange(of: " XML on stream = ") != nil { return true }
        let first = line.skippingBlanks(from: 0)
        return first > 0 && first < line.count && line[first] == 0x22
    }

    /// The text of the string that a record's term is, all on `line`
    /// (`<<"…">>`, `<<"…"/utf8>>`), as `~p` escapes it; `nil` if there is none.
    static func recordString(in line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard let opening = line.firstRange(of: " XML on stream = <<\"") else { return nil }
        let end = line.contentEnd
        let close = line.has("\"/utf8>>", at: end - 8) ? end - 8 : line.has("\">>", at: end - 3) ? end - 3 : -1
        guard close >= opening.upperBound else { return nil }
        return UnsafeBufferPointer(rebasing: line[opening.upperBound..<close])
    }

    /// Whether `data` is whole stanzas (top-level elements each complete, the
    /// stream's header and end, white space, declarations, comments) as far as
    /// its tags tell. `escaped`: as a `~p` string writes them (`\"`, `\n`).
    static func isWholeStanzas(_ data: UnsafeBufferPointer<UInt8>, escaped: Bool) -> Bool {
        var depth = 0, index = 0
        while index < data.count {
            let byte = data[index]
            guard byte == 0x3C else {
                if depth > 0 {
                    index = data.firstIndex(of: 0x3C, from: index) ?? data.count
                } else {
                    // Only white space outside a stanza (else the text is the rest of one).
                    let next = data.firstIndex(of: 0x3C, from: index) ?? data.count
                    guard isBlank(UnsafeBufferPointer(rebasing: data[index..<next]), escaped: escaped) else { return false }
                    index = next
                }
                continue
            }
            guard let (end, change) = tag(in: data, at: index) else { return false }
            depth += change
            // The stream's header and end are no stanza's.
            if depth == 1 && change == 1 && data.has("<stream:stream", at: index) { depth = 0 }
            if depth == -1 && data.has("</stream:stream", at: index) { depth = 0 }
            if depth < 0 { return false }
            index = end
        }
        return depth == 0
    }

    /// Whether `data` ends between stanzas, as far as its tags tell: after
    /// the end of a tag (and white space), with every element it opens closed
    /// (it may close what others opened: the rest of a stanza). A guess.
    static func endsBetweenStanzas(_ data: UnsafeBufferPointer<UInt8>, escaped: Bool) -> Bool {
        var depth = 0, lowest = 0, index = 0, last = 0
        while let open = data.firstIndex(of: 0x3C, from: index) {
            guard let (end, change) = tag(in: data, at: open) else { return false }
            if !(change == 1 && data.has("<stream:stream", at: open)) && !data.has("</stream:stream", at: open) { depth += change }
            lowest = min(lowest, depth)
            index = end
            last = end
        }
        return depth == lowest && (last > 0 || data.isEmpty) && isBlank(UnsafeBufferPointer(rebasing: data[last...]), escaped: escaped)
    }

    /// Whether `text` is only white space (`escaped`: or `\n`, `\r`, `\t`).
    private static func isBlank(_ text: UnsafeBufferPointer<UInt8>, escaped: Bool) -> Bool {
        var index = 0
        while index < text.count {
            if isXMLSpace(text[index]) {
                index += 1
            } else if escaped, text[index] == 0x5C, index + 1 < text.count, [0x6E, 0x72, 0x74].contains(text[index + 1]) {
                index += 2
            } else {
                return false
            }
        }
        return true
    }

    /// The end of the markup at `start` of `data` and how it changes the depth;
    /// `nil` where the data ends inside it, or it is none a stanza holds.
    private static func tag(in data: UnsafeBufferPointer<UInt8>, at start: Int) -> (end: Int, change: Int)? {
        guard start + 1 < data.count else { return nil }
        let next = data[start + 1]
        if next == 0x3F { return data.firstRange(of: "?>", from: start + 2).map { ($0.upperBound, 0) } }
        // (Tested for only after `<!`: tshark's walk tests every chunk, a dozen tags each.)
        if next == 0x21 {
            if data.has("<!--", at: start) { return data.firstRange(of: "-->", from: start + 4).map { ($0.upperBound, 0) } }
            if data.has("<![CDATA[", at: start) { return data.firstRange(of: "]]>", from: start + 9).map { ($0.upperBound, 0) } }
            return nil
        }
        if next == 0x2F { return data.firstIndex(of: 0x3E, from: start + 2).map { ($0 + 1, -1) } }
        guard isASCIILetter(next) || next == 0x5F || next == 0x3A || next >= 0x80 else { return nil }
        // A start tag: to its `>`, past quoted values (which may hold `>` and `/`).
        guard let base = data.baseAddress else { return nil }
        var index = start + 2
        while true {
            index = stanzaq_find_any4(base, index, data.count, 0x27, 0x22, 0x3E, 0x3E)
            guard index < data.count else { return nil }
            let byte = base[index]
            if byte == 0x3E { return (index + 1, base[index - 1] == 0x2F ? 0 : 1) }
            let close = stanzaq_find_byte(base, index + 1, data.count, byte)
            guard close < data.count else { return nil }
            index = close + 1
        }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether the bytes end with `suffix`.
    func hasSuffix(_ suffix: StaticString) -> Bool {
        has(suffix, at: count - suffix.utf8CodeUnitCount)
    }
}
