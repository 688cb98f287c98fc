import CLibXML2

/// Where things are in the input: lines and columns counted over the bytes
/// kept, and libxml2's positions turned into the input's.
extension StanzaReader {
    private func advance(_ origin: (line: Int, column: Int), over bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
        var (line, column) = origin
        for byte in bytes {
            if byte == 0x0A { line += 1; column = 1 }
            else if byte & 0xC0 != 0x80 { column += 1 }   // count characters, not UTF-8 continuation bytes
        }
        return (line, column)
    }

    /// The line and column of an offset at or after ``stanzaLevel``, counted on
    /// over the bytes in between.
    func position(of offset: Int) -> InputPosition {
        let from = stanzaLevel.offset - retainedBase, to = offset - retainedBase
        guard from >= 0, from <= to, to <= retained.count else {
            return InputPosition(offset: offset, line: stanzaLevel.line, column: stanzaLevel.column)
        }
        let (line, column) = advance((stanzaLevel.line, stanzaLevel.column), over: retained[from..<to])
        return InputPosition(offset: offset, line: line, column: column)
    }

    /// The end of the input: libxml2's position where it stopped parsing,
    /// counted on over the bytes it has not consumed (they are all retained).
    func endPosition() -> (line: Int, column: Int) {
        guard let context else { let end = position(of: inputLength); return (end.line, end.column) }
        let consumed = documentStart + Int(xmlByteConsumed(context)) - retainedBase
        guard consumed >= 0, consumed <= retained.count else { return currentPosition() }
        return advance(currentPosition(), over: retained[consumed...])
    }

    /// Where libxml2 is in the current document, in input coordinates.
    func currentPosition() -> (line: Int, column: Int) {
        guard let context else { let end = position(of: inputLength); return (end.line, end.column) }
        return inputPosition(line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context)))
    }

    /// Turns a position libxml2 reports in the current document into one in the whole input.
    func inputPosition(line: Int, column: Int) -> (line: Int, column: Int) {
        if line <= 1 { return (documentOrigin.line, documentOrigin.column + max(column, 1) - 1) }
        return (documentOrigin.line + line - 1, max(column, 1))
    }

    /// Where libxml2 has read to, as an input offset.
    func consumedOffset() -> Int {
        guard let context else { return cursor }
        return documentStart + Int(xmlByteConsumed(context))
    }

    /// Marks the place libxml2 has just read to as between stanzas.
    func markStanzaLevel() {
        let offset = consumedOffset()
        guard offset > stanzaLevel.offset else { return }
        let place = currentPosition()
        stanzaLevel = InputPosition(offset: offset, line: place.line, column: place.column)
    }
}
