import CLibXML2

/// A top-level sequence of elements (a MAM dump, `grep -o` output) read with
/// one parser for many of its elements.
///
/// A sequence is not one XML document, and each of its elements used to get a
/// parser of its own: a dictionary created, zeroed and freed per stanza, which
/// cost far more than the same stanzas cost inside a stream. Now, once a
/// top-level element has ended cleanly and another one follows, the elements
/// from there on are read as the children of a start tag of the reader's own
/// (``sequenceHeader``), as a stream's stanzas are: their depth, positions,
/// namespaces (none inherited) and damage are the same as with a parser each.
/// Whatever an element's content may hold and a sequence may not — an XML
/// declaration, a DOCTYPE, a comment, text, an end tag, a stream — is never
/// read that way: before each next element the bytes after the one that ended
/// are looked at, and unless they are blanks and a plain start tag, the parser
/// stops there and what follows is read as before, as documents of their own.
extension StanzaReader {
    /// The start tag whose children a sequence's elements are read as. It
    /// declares nothing (a top-level element inherits no namespace), and it is
    /// longer than the four bytes libxml2 waits for before it starts a document.
    static let sequenceHeader: [UInt8] = Array("<sequence>".utf8)

    /// The offset of the next top-level element when only blanks come before it
    /// from `offset` and it can be read as the next of a sequence: a start tag
    /// whose name, all of it read already, is plain ASCII and not a stream's.
    /// `nil` when anything else follows, or what follows is not read yet.
    func nextSequenceElement(from offset: Int) -> Int? {
        retained.withUnsafeBufferPointer { all -> Int? in
            let end = inputLength - retainedBase
            var index = offset - retainedBase
            guard index >= 0 else { return nil }
            while index < end && isXMLSpace(all[index]) { index += 1 }
            guard index + 1 < end, all[index] == UInt8(ascii: "<"), all[index + 1] != UInt8(ascii: ":"),
                  isASCIINameStart(all[index + 1]) else { return nil }
            var nameEnd = index + 1, localStart = index + 1
            while nameEnd < end && (isASCIINameStart(all[nameEnd]) || isASCIIDigitDashDot(all[nameEnd])) {
                if all[nameEnd] == UInt8(ascii: ":") { localStart = nameEnd + 1 }
                nameEnd += 1
            }
            guard nameEnd < end else { return nil }   // the name may go on
            let after = all[nameEnd]
            guard isXMLSpace(after) || after == UInt8(ascii: ">") || after == UInt8(ascii: "/") else { return nil }
            if nameEnd - localStart == 6 && "stream".utf8.elementsEqual(all[localStart..<nameEnd]) { return nil }
            return index + retainedBase
        }
    }

    /// A top-level element of a sequence's document has ended: the parser goes on
    /// with the next one, or stops, and what follows is read as a new document.
    func endSequenceElement() {
        stanzasInDocument += 1
        if stanzasInDocument < Self.restartInterval, let next = nextSequenceElement(from: consumedOffset()) {
            // Between stanzas up to the next one's '<', as a document of its own starts there.
            if next > stanzaLevel.offset { stanzaLevel = position(of: next) }
            return
        }
        followsElement = true
        resetOffset = consumedOffset()
        restartsStream = false
        if let context { xmlStopParser(context) }
    }

    /// The input has ended inside a sequence's document: the element open there,
    /// if any, is read again from its start as a document of its own, so that
    /// what is said of it is what was said before sequences had a parser.
    func abandonSequenceDocument() {
        let from = stanzaLevel.offset
        freeContext()
        cursor = max(from, retainedBase)
    }

    /// libxml2 names the line of a start tag it found no end of counting from the
    /// start of its document, which was the element's own: say the same.
    func elementRelativeLineNumbers(in message: String) -> String {
        let words = message.split(separator: " ", omittingEmptySubsequences: false)
        guard let index = words.lastIndex(of: "line"), index + 1 < words.count,
              let line = Int(words[index + 1]) else { return message }
        var shifted = words.map(String.init)
        shifted[index + 1] = String(line - (stanzaLevel.line - documentOrigin.line))
        return shifted.joined(separator: " ")
    }
}

@inline(__always)
private func isASCIINameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
}

@inline(__always)
private func isASCIIDigitDashDot(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
}
