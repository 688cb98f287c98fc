import CLibXML2

/// The limits on what one stanza may hold. Exceeding one is damage, reported
/// like malformed XML: the stanza is skipped and the rest of the input is read.
///
/// Two are libxml2's, which its push parser does not apply to SAX2 callers
/// (deeper trees would also overflow the stack when they are freed). The
/// others are stanzaq's own: a stanza is built whole, so without them one
/// stanza could take any amount of memory, and libxml2 checks the attributes
/// of a start tag for duplicates in time quadratic in their number.
///
/// They are checked per element and per piece of input handed to libxml2,
/// never per byte: the reader's hot path does not see them.
extension StanzaReader {
    /// Elements may be nested this deep at most (the depth counts from the document's root).
    public static let maximumDepth = 256
    /// A text node may be this many bytes long at most, whether the query reads it or not.
    public static let maximumTextLength = 10_000_000
    /// An element may have this many attributes at most, its namespace
    /// declarations included: libxml2 spends time quadratic in their number on
    /// each start tag, and a start tag with more is refused before libxml2
    /// reads it.
    public static let maximumAttributesPerElement = 1024
    /// A stanza may have this many elements at most (its root included), built or not.
    public static let maximumStanzaElements = 500_000
    /// A stanza may have this many attributes at most, namespace declarations included.
    public static let maximumStanzaAttributes = 500_000
    /// A stanza may be this many bytes long at most, from the `<` of its start
    /// tag to the `>` of its end tag.
    public static let maximumStanzaBytes = 20_000_000

    /// A start tag with more attributes than allowed is at least this long
    /// (`a=''` for each of them): one that libxml2 holds back unread, with more
    /// than this many bytes of it handed over, is counted before libxml2 reads it.
    static let tagScanThreshold = 4 * maximumAttributesPerElement + 4

    // MARK: - Per element (from startElement)

    /// Counts an element and its attributes into its stanza; false, with damage
    /// pending, when the element or its stanza holds more than allowed.
    @inline(__always)
    func countElement(level: Int, prefix: UnsafePointer<xmlChar>?, localName: UnsafePointer<xmlChar>?, items: Int) -> Bool {
        if level <= 0 {
            stanzaElements = 1
            stanzaAttributes = items
        } else {
            stanzaElements &+= 1
            stanzaAttributes &+= items
        }
        if _fastPath(items <= Self.maximumAttributesPerElement && stanzaElements <= Self.maximumStanzaElements
                     && stanzaAttributes <= Self.maximumStanzaAttributes) {
            return true
        }
        overLimit(prefix: prefix, localName: localName, items: items)
        return false
    }

    @inline(never)
    private func overLimit(prefix: UnsafePointer<xmlChar>?, localName: UnsafePointer<xmlChar>?, items: Int) {
        if items > Self.maximumAttributesPerElement {
            let start = tagStart(before: consumedOffset())
            let name = shortName((self.name(prefix).map { $0 + ":" } ?? "") + (self.name(localName) ?? ""))
            tooManyAttributes(tagStart: start, name: name, offset: consumedOffset())
        } else if stanzaElements > Self.maximumStanzaElements {
            stanzaExceeds("has more than \(Self.maximumStanzaElements) elements")
        } else {
            stanzaExceeds("has more than \(Self.maximumStanzaAttributes) attributes and namespace declarations")
        }
    }

    private func tooManyAttributes(tagStart: Int, name: String, offset: Int) {
        let place = position(of: tagStart)
        damage(line: place.line, column: place.column,
               "<\(name)> has more than \(Self.maximumAttributesPerElement) attributes and namespace declarations (stanzaq's limit)",
               offset: offset)
    }

    /// Damage to the open stanza as a whole: reported where the stanza starts.
    private func stanzaExceeds(_ what: String, offset: Int? = nil) {
        let root = position(of: firstTagOffset(from: stanzaLevel.offset) ?? stanzaLevel.offset)
        damage(line: root.line, column: root.column, "\(openRootName) \(what) (stanzaq's limit)", offset: offset)
    }

    private func shortName(_ name: String) -> String {
        name.count > 40 ? String(name.prefix(40)) + "…" : name
    }

    // MARK: - Per piece (from parsePiece)

    /// How many of the `count` bytes from `start` may be handed to libxml2 now;
    /// 0 with damage pending when the open stanza, or the start tag libxml2
    /// holds back, is over a limit.
    func allowedPiece(from start: Int, count: Int) -> Int {
        var count = count
        // Bytes: a stanza still open when its limit is reached is too long.
        if !open.isEmpty && start + count - stanzaLevel.offset > Self.maximumStanzaBytes {
            let limit = (firstTagOffset(from: stanzaLevel.offset) ?? stanzaLevel.offset) + Self.maximumStanzaBytes
            if start >= limit {
                stanzaExceeds("is longer than \(Self.maximumStanzaBytes) bytes", offset: start)
                return 0
            }
            count = min(count, limit - start)
        }
        // Attributes: a start tag with too many of them is longer than the scan
        // threshold, so it never fits in a piece of at most that size, and libxml2
        // holds it back (waiting for its '>') while the rest of it is handed over.
        if count > Self.tagScanThreshold && retained.withUnsafeBufferPointer({ equalsSigns(in: $0, from: start - retainedBase, count: count) })
            > Self.maximumAttributesPerElement {
            count = Self.tagScanThreshold   // (only with pieces larger than the threshold)
        }
        guard context != nil else { return count }
        let held = consumedOffset()
        guard held < start, start + count - held > Self.tagScanThreshold, held + 1 < inputLength,
              retained[held - retainedBase] == UInt8(ascii: "<"), isNameStartByte(retained[held + 1 - retainedBase]) else {
            return count
        }
        if tagScan.start != held { tagScan = TagScan(start: held) }
        if tagScan.isComplete { return count }
        let end = start + count
        let over = retained.withUnsafeBufferPointer { tagScan.scan($0, base: retainedBase, to: end) }
        if over {
            tooManyAttributes(tagStart: held, name: quotedName(at: held + 1), offset: held + 1)
            return 0
        }
        return count
    }

    /// Where a text node passes ``maximumTextLength``: its first byte past the
    /// limit, counted in input bytes from where the text starts. libxml2 hands
    /// text over in pieces whose ends depend on where the reads ended, so its
    /// own position when the count passed the limit did too.
    func textLimitPosition() -> InputPosition {
        // libxml2 is at the `>` of the start tag before the text (or just after an
        // end tag's): the text starts after the first `>` from the byte before.
        var start = max(textAnchor - 1, retainedBase)
        while start < inputLength && retained[start - retainedBase] != UInt8(ascii: ">") { start += 1 }
        return position(of: min(start + 1 + Self.maximumTextLength, inputLength))
    }

    private func equalsSigns(in bytes: UnsafeBufferPointer<UInt8>, from index: Int, count: Int) -> Int {
        var found = 0
        for byte in bytes[index..<(index + count)] where byte == UInt8(ascii: "=") { found += 1 }
        return found
    }

    /// Counts the attributes of a start tag libxml2 holds back, as its bytes come:
    /// each `=` outside quoted values is one.
    struct TagScan {
        var start = -1
        var position = 0
        var quote: UInt8 = 0
        var items = 0
        var isComplete = false

        init(start: Int) {
            self.start = start
            position = start + 1
        }

        /// Scans on to `end`; true once the tag has more attributes than allowed.
        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, to end: Int) -> Bool {
            var index = position - base
            let stop = end - base
            while index < stop {
                let byte = bytes[index]
                index += 1
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    quote = byte
                } else if byte == UInt8(ascii: "=") {
                    items += 1
                    if items > StanzaReader.maximumAttributesPerElement { position = index + base; return true }
                } else if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<") {
                    isComplete = true   // libxml2 reads it (or says what is wrong with it)
                    break
                }
            }
            position = index + base
            return false
        }
    }
}
