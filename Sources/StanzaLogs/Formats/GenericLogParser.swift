#if canImport(StanzaXML)
import StanzaXML
#endif

/// Lines of any other format: the data of a line runs from its first tag that
/// looks like XMPP's to its last `>`, and a line without one continues a
/// stanza left open. The direction is the one the text before the tag states
/// in words (``statedDirection(_:before:)``): a stream each way, or one
/// stream without direction.
///
/// A tag looks like XMPP's when it is `<message`, `<iq`, `<presence`, a stream's
/// header or element (`<stream:features>`), an XML declaration, or any element whose start tag has an attribute
/// (`<r xmlns='urn:xmpp:sm:3'/>`): `<b>` or `<tag>` in a sentence stays text.
final class GenericLogParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    private static let header = makeHeader(nil)
    private static let incoming = makeHeader(.incoming)
    private static let outgoing = makeHeader(.outgoing)

    private static func makeHeader(_ direction: LogDirection?) -> RecordHeader {
        var header = RecordHeader()
        header.separatedByLineBreaks = true
        header.direction = direction
        return header
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        var start = 0
        while let open = line.firstIndex(of: 0x3C, from: start), open < end {
            if Self.looksLikeXMPP(line, at: open, end: end) {
                // Up to the last `>`, or to the end when the line ends inside a tag.
                var close = end
                while close > open, line[close - 1] != 0x3E && line[close - 1] != 0x3C { close -= 1 }
                if close == open || line[close - 1] == 0x3C { close = end }
                // Text after the last tag belongs to the stanza when it is left open:
                // the reader takes the whole line as more of it.
                let header = switch Self.statedDirection(line, before: open) {
                case .incoming?: Self.incoming
                case .outgoing?: Self.outgoing
                case nil: Self.header
                }
                return ParsedLine(maybeMoreElseRecord: header, data: open..<close, payload: 0..<end)
            }
            start = open + 1
        }
        return ParsedLine(kind: .maybeMore, payload: 0..<end)
    }

    /// The direction the text before a line's first tag states, by the last
    /// word or arrow in it that names one (stanzaq(1), LOGS, `generic`): out
    /// for `SENT`, `SEND`, `SENDING`, `OUT`, `OUTGOING`, `TX`, `>>`, `->`, `→`
    /// and `⮊`; in for `RECV`, `RCV`, `RECEIVED`, `RECEIVE`, `RECEIVING`, `IN`,
    /// `INCOMING`, `RX`, `GOT:` (or `GOT` just before the tag), `<<`, `<-`, `←` and `⮈`. Words are whole (split at
    /// what is no letter or digit), in any case but `IN`, `OUT`, `TX` and `RX`,
    /// which are upper case (`logged in` states nothing).
    static func statedDirection(_ line: UnsafeBufferPointer<UInt8>, before end: Int) -> LogDirection? {
        var found: LogDirection?
        var index = 0
        while index < end {
            let byte = line[index]
            if isASCIILetter(byte) || isASCIIDigit(byte) {
                var wordEnd = index
                while wordEnd < end, isASCIILetter(line[wordEnd]) || isASCIIDigit(line[wordEnd]) { wordEnd += 1 }
                // `got:`, or `got` just before the tag (xmpppy's `socket       got   <...>`).
                let stated = wordEnd < end && (line[wordEnd] == 0x3A || line.skippingBlanks(from: wordEnd) >= end)
                if let direction = wordDirection(UnsafeBufferPointer(rebasing: line[index..<wordEnd]), colonAfter: stated) {
                    found = direction
                }
                index = wordEnd
                continue
            }
            if let (direction, length) = arrowDirection(line, at: index, end: end) {
                found = direction
                index += length
                continue
            }
            index += 1
        }
        return found
    }

    private static let outWords: Set<String> = ["sent", "send", "sending", "outgoing"]
    private static let inWords: Set<String> = ["recv", "rcv", "received", "receive", "receiving", "incoming"]

    private static func wordDirection(_ word: UnsafeBufferPointer<UInt8>, colonAfter: Bool) -> LogDirection? {
        guard word.count >= 2 && word.count <= 9 else { return nil }
        let text = String(decoding: word, as: UTF8.self)
        switch text {
        case "OUT", "TX": return .outgoing
        case "IN", "RX": return .incoming
        default: break
        }
        let lower = text.lowercased()
        if outWords.contains(lower) { return .outgoing }
        if inWords.contains(lower) || (lower == "got" && colonAfter) { return .incoming }
        return nil
    }

    /// An arrow at `index` that names a direction, and its length in bytes.
    private static func arrowDirection(_ line: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (LogDirection, Int)? {
        for (arrow, direction) in [(">>" as StaticString, LogDirection.outgoing), ("->", .outgoing), ("\u{2192}", .outgoing),
                                   ("\u{2B8A}", .outgoing), ("<<", .incoming), ("<-", .incoming), ("\u{2190}", .incoming),
                                   ("\u{2B88}", .incoming)]
        where index + arrow.utf8CodeUnitCount <= end && line.has(arrow, at: index) {
            return (direction, arrow.utf8CodeUnitCount)
        }
        return nil
    }

    private static func looksLikeXMPP(_ line: UnsafeBufferPointer<UInt8>, at open: Int, end: Int) -> Bool {
        guard open + 1 < end else { return false }
        // A stream's header, and the elements of the stream's namespace (`<stream:features>`).
        if line.has("<?xml", at: open) || line.has("<stream:", at: open) { return true }
        for name in ["<message" as StaticString, "<iq", "<presence"] where line.has(name, at: open) {
            let after = open + name.utf8CodeUnitCount
            if after == end || line[after] == 0x20 || line[after] == 0x3E || line[after] == 0x2F { return true }
        }
        guard isASCIILetter(line[open + 1]) || line[open + 1] == 0x5F else { return false }
        // A name, blanks, then an attribute's name and `=`.
        var index = open + 1
        while index < end, line[index] != 0x20 && line[index] != 0x3E && line[index] != 0x2F && line[index] != 0x3C { index += 1 }
        guard index < end, line[index] == 0x20 else { return false }
        index = line.skippingBlanks(from: index)
        let attributeStart = index
        while index < end, isASCIILetter(line[index]) || isASCIIDigit(line[index]) || line[index] == 0x3A || line[index] == 0x2D || line[index] == 0x5F {
            index += 1
        }
        return index > attributeStart && index + 1 < end && line[index] == 0x3D && (line[index + 1] == 0x27 || line[index + 1] == 0x22)
    }
}

// MARK: - The format

extension LogFormat {
    public static let generic = LogFormat(GenericLogParser.self)
}

extension GenericLogParser: SkippableLogFormat {
    static let recordSpelling: RecordSpelling = .asWritten
    static let name = "generic"
    static let detectionRank: Int? = nil
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool { true }
    static func makeParser() -> any LogLineParser { GenericLogParser() }
}
