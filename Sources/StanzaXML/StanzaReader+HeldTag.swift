import CLibXML2

/// A start tag cut off by another tag, which libxml2 would hold back forever.
///
/// libxml2's push parser reads a start tag only once it has seen a `>` after
/// it; until then it keeps every byte it is given, and looks for that `>` over
/// all of them again with each piece. A start tag that is never finished
/// (`<a` on a line of its own, a stream header cut before its `>`, a log
/// record that opens a tag and ends) was read only when some later stanza's
/// `>` arrived, anywhere after it: the bytes in between were parsed again for
/// each damage, and a run of such tags cost time quadratic in its length
/// (and, past libxml2's limit of 10,000,000 bytes held, one "Huge input
/// lookup" per tag after it).
///
/// A `<` after a start tag's `<`, with no `>` in between, is an error wherever
/// it is in the tag (in a name, between attributes, in a quoted value), and
/// libxml2 stops there: what it says depends on nothing after that `<`. So as
/// soon as such a `<` has been handed over, libxml2 is shown a `>` after it
/// (closing a quote it may be in), and reports the damage at once, where it
/// would have once a `>` arrived.
extension StanzaReader {
    /// Where the scan for a `<` in the start tag libxml2 holds back got to.
    struct HeldTagScan {
        /// The offset of the tag's `<` (-1: none).
        var start = -1
        /// The next byte to look at.
        var next = 0
        /// A `>` was seen: the tag may be whole, libxml2 reads it when it is.
        var sawEnd = false
    }

    /// Called after a piece was handed to libxml2: when it holds back a start
    /// tag that a later `<` has cut, makes it read the tag now (and report it).
    func readCutHeldTag() {
        guard pendingDamage == nil, let context else { return }
        let held = consumedOffset()
        guard held >= retainedBase, held + 1 < cursor, retained[held - retainedBase] == UInt8(ascii: "<"),
              isNameStartByte(retained[held + 1 - retainedBase]) else { return }
        if heldTagScan.start != held { heldTagScan = HeldTagScan(start: held, next: held + 1) }
        guard !heldTagScan.sawEnd else { return }
        var cut: Int?
        retained.withUnsafeBufferPointer { all in
            var index = heldTagScan.next
            while index < cursor {
                let byte = all[index - retainedBase]
                if byte == UInt8(ascii: ">") { heldTagScan.sawEnd = true; break }
                if byte == UInt8(ascii: "<") { cut = index; break }
                index += 1
            }
            heldTagScan.next = index
        }
        guard cut != nil else { return }
        heldTagScan.sawEnd = true   // once: libxml2 stops at the cut
        let ending = heldTagEnding()
        ending.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { _ = xmlParseChunk(context, $0.baseAddress, Int32($0.count), 0) }
        }
    }

    /// A `>` that libxml2's look-ahead finds: it looks for one from the last `<`
    /// it holds, skipping quoted values, so a quote left open there is closed first.
    private func heldTagEnding() -> [UInt8] {
        var last = cursor - 1
        while last > heldTagScan.start && retained[last - retainedBase] != UInt8(ascii: "<") { last -= 1 }
        var quote: UInt8 = 0
        for index in last..<cursor {
            let byte = retained[index - retainedBase]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            }
        }
        return quote == 0 ? [UInt8(ascii: ">")] : [quote, UInt8(ascii: ">")]
    }
}
