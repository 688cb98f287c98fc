/// What the input is before it is XML: compressed (decompressed; see
/// ``DecompressedInput``), a UTF-8 byte order mark (skipped), and input that is
/// not UTF-8 XML at all (UTF-16, binary data, text), which gets a message that
/// says what it is.
extension StanzaReader {
    private static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Bytes as they come: decompressed first when they are compressed (by their magic bytes).
    func feedRaw(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if rawUndecided {
            rawUndecided = false
            // Most inputs say with their first byte that they are not compressed.
            if case .some(nil) = CompressionFormat.recognised(bytes, atEnd: false) { return try feedDecoded(bytes) }
            decompressed = DecompressedInput()
        }
        guard let decompressed else { return try feedDecoded(bytes) }
        let damage = try decompressed.feed(UnsafeRawBufferPointer(bytes)) { try feedDecoded($0.bindMemory(to: UInt8.self)) }
        if decompressed.isPlain { self.decompressed = nil }
        if let damage {
            compressionDamage(damage.message)
            ignoringRest = true
        }
    }

    /// The raw input has ended: what is held back goes on, and compressed data must be complete.
    func finishRaw() throws {
        rawUndecided = false
        guard let decompressed, let damage = try decompressed.finish({ try feedDecoded($0.bindMemory(to: UInt8.self)) }) else { return }
        if decompressed.isSkippingRest {
            ignoringRest = true
        } else {
            try pump()   // (the stanzas before a cut come first)
        }
        compressionDamage(damage.message)
    }

    private func compressionDamage(_ message: String) {
        let end = position(of: inputLength)
        report(InputDamage(line: end.line, column: end.column, message: message, skippedFrom: end, resumedAt: nil))
    }

    /// Looks at the first bytes once: skips a UTF-8 byte order mark, and refuses
    /// UTF-16 and binary data with a message. Returns false until enough bytes have come.
    func sniff() -> Bool {
        let have = inputLength - retainedBase
        guard have >= 4 || endOfInput else { return false }
        sniffing = false
        let head = retained.prefix(64)
        // A UTF-8 byte order mark: libxml2 skips it only when it detects the
        // encoding itself, and the encoding is forced here.
        if head.starts(with: Self.utf8ByteOrderMark) {
            cursor = 3
            stanzaLevel = InputPosition(offset: 3, line: 1, column: 1)
            return true
        }
        let utf16 = head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF])
            || (head.count >= 2 && (head[head.startIndex] == 0) != (head[head.startIndex + 1] == 0))
        if utf16 {
            refuseInput("the input is UTF-16, but XMPP is UTF-8 only (convert it: iconv -f UTF-16 -t UTF-8)")
            return true
        }
        // Control bytes where XML cannot start (inside XML they are libxml2's to report).
        let lead = head.first { !isXMLSpace($0) }
        if lead != UInt8(ascii: "<"),
           let index = head.firstIndex(where: { $0 < 0x20 && !isXMLSpace($0) && $0 != 0x0C && $0 != 0x1B }) {
            let byte = String(head[index], radix: 16, uppercase: true)
            refuseInput("the input is binary data, not XML (byte 0x\(byte.count == 1 ? "0" + byte : byte) at offset \(index))")
            return true
        }
        return true
    }

    /// The whole input is not XML: one damage, and nothing more is read.
    private func refuseInput(_ message: String) {
        let start = InputPosition(offset: 0, line: 1, column: 1)
        report(InputDamage(line: 1, column: 1, message: message, skippedFrom: start, resumedAt: nil))
        ignoringRest = true
        cursor = inputLength
    }

    /// For input that starts with text instead of XML.
    func notXMLMessage(at offset: Int) -> String {
        "the input is not XML: it starts with text, as a log does ('\(quotedText(at: offset))')"
    }

    /// The start of the text at `offset`, on one line and shortened.
    func quotedText(at offset: Int) -> String {
        let start = offset - retainedBase
        guard start >= 0, start < retained.count else { return "" }
        var end = start
        while end < retained.count && end - start < 200 && retained[end] != 0x0A && retained[end] != 0x0D
            && (end == start || retained[end] != UInt8(ascii: "<")) { end += 1 }
        let text = String(decoding: retained[start..<end], as: UTF8.self)
        let scalars = text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined()
        return scalars.count > 40 ? String(scalars.prefix(40)) + "…" : scalars
    }

    /// The name at `offset` (of an end tag), shortened.
    func quotedName(at offset: Int) -> String {
        var end = offset
        while end < inputLength && end - offset < 100 && isNameByte(retained[end - retainedBase]) { end += 1 }
        return quotedName(retained[(offset - retainedBase)..<(end - retainedBase)])
    }

    /// `name` as messages quote it: at most 40 characters.
    func quotedName(_ name: some Collection<UInt8>) -> String {
        let name = String(decoding: name.prefix(100), as: UTF8.self)
        return name.count > 40 ? String(name.prefix(40)) + "…" : name
    }

    /// The encoding an XML declaration at `offset` names, when it is not UTF-8.
    func encodingDeclaration(at offset: Int) -> String? {
        guard startsWith("<?xml", at: offset) else { return nil }
        let start = offset - retainedBase
        let end = min(retained.count, start + 200)
        let declaration = String(decoding: retained[start..<end], as: UTF8.self)
        guard let close = declaration.firstRange(of: "?>"),
              let key = declaration[..<close.lowerBound].firstRange(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound..<close.lowerBound].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "'" || quote == "\"" else { return nil }
        let name = rest.dropFirst().prefix { $0 != quote }
        let lower = name.lowercased()
        return lower == "utf-8" || lower == "utf8" ? nil : String(name.prefix(40))
    }

    /// The message for a byte at `offset` that no UTF-8 character starts with
    /// (0x80 to 0xC1, 0xF5 to 0xFF), or `nil`.
    func notUTF8LeadMessage(at offset: Int) -> String? {
        guard offset >= retainedBase, offset < inputLength else { return nil }
        let byte = retained[offset - retainedBase]
        guard (0x80...0xC1).contains(byte) || byte >= 0xF5 else { return nil }
        return notUTF8Message("Bytes: 0x" + String(byte, radix: 16, uppercase: true))
    }

    /// libxml2's "Input is not proper UTF-8, indicate encoding ! Bytes: 0xE9 0x3C …".
    func notUTF8Message(_ message: String) -> String {
        let bytes = message.firstRange(of: "Bytes: ").map { String(message[$0.upperBound...]) } ?? ""
        let shown = bytes.split(separator: " ").prefix(4).joined(separator: " ")
        let why = declaredEncoding.map { "the XML declaration says encoding='\($0)', but XMPP is UTF-8 only" }
            ?? "XMPP is UTF-8 only"
        return "not UTF-8: bytes \(shown) (\(why))"
    }
}
