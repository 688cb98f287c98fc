#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// `--redact … --rewrite` on XML input (stanzaq(1), `--rewrite`): the input
/// written back as it was, byte for byte, but for what the redaction changes.
/// A stanza the ``Redactor`` changes is written as stanzaq writes a stanza
/// (`-s`); every other byte — the XML declaration, whitespace and comments
/// between stanzas, the stanzas it leaves alone — is kept, and the JIDs of a
/// stream header are replaced in place.
///
/// All or nothing: an input that cannot be read whole as XML (damage, a log,
/// compressed bytes) is not written at all, since a stanza that is not read
/// is not redacted.
public enum XMLRewrite {
    /// Why an input is not rewritten.
    public struct Refusal: Error, Equatable {
        /// Why, as the message after `FILE: not rewritten: ` says it.
        public let message: String
    }

    /// `bytes`, a whole XML input, redacted by `redactor`. Throws the reader's
    /// error, or a ``Refusal``.
    public static func rewrite(_ bytes: [UInt8], redactor: Redactor, defaultNamespace: String?) throws -> [UInt8] {
        let stanzas = try placedStanzas(in: bytes, defaultNamespace: defaultNamespace)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var cursor = 0
        let serializer = XMLSerializer()
        for (stanza, place) in stanzas {
            guard place.lowerBound >= cursor, place.upperBound <= bytes.count else {
                throw Refusal(message: "the stanzas' places in the input are not known")
            }
            // (A stanza's place starts where the one before ended: what is between is kept.)
            let start = startTag(of: stanza, in: bytes[place]) ?? place.lowerBound
            output += redactingStreamHeaders(bytes[cursor..<start], redactor)
            let before = serializer.string(for: stanza)
            redactor.redact(stanza)
            let after = serializer.string(for: stanza)
            if before == after { output += bytes[start..<place.upperBound] } else { output += Array(after.utf8) }
            cursor = place.upperBound
        }
        output += redactingStreamHeaders(bytes[cursor...], redactor)
        return output
    }

    /// Where the start tag of `stanza` begins in `place`: the first `<` followed
    /// by its name as written and a byte that ends a name.
    private static func startTag(of stanza: Element, in place: ArraySlice<UInt8>) -> Int? {
        let name = Array(("<" + stanza.qualifiedName).utf8)
        var index = place.startIndex
        while let open = place[index...].firstIndex(of: UInt8(ascii: "<")) {
            let end = open + name.count
            if end < place.endIndex, place[open..<end].elementsEqual(name),
               [UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), 0x09, 0x0A, 0x0D].contains(place[end]) {
                return open
            }
            index = open + 1
        }
        return nil
    }

    /// Every stanza of `bytes` with the range of bytes it was read from.
    private static func placedStanzas(in bytes: [UInt8], defaultNamespace: String?) throws -> [(Element, Range<Int>)] {
        var stanzas: [(Element, Range<Int>)] = []
        var unplaced = false
        var reader: StanzaReader!
        reader = StanzaReader(defaultNamespace: defaultNamespace) { stanza in
            if let place = reader.currentPlace { stanzas.append((stanza, place.bytes)) } else { unplaced = true }
            return true
        }
        try reader.feed(bytes)
        try reader.finish()
        if unplaced || reader.isCompressedInput { throw Refusal(message: "the stanzas' places in the input are not known") }
        return stanzas
    }

    /// `text` (the bytes between stanzas) with the `from` and `to` of every
    /// stream header in it (`<stream:stream …>`, whatever the prefix) replaced
    /// by their pseudonyms, when the redactor replaces JIDs.
    static func redactingStreamHeaders(_ text: ArraySlice<UInt8>, _ redactor: Redactor) -> [UInt8] {
        guard redactor.kinds.contains(.jids) else { return Array(text) }
        var output: [UInt8] = []
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: UInt8(ascii: "<")) {
            guard let tag = StartTag(text, at: open), tag.localName == "stream" else {
                output += text[index...open]
                index = open + 1
                continue
            }
            output += text[index..<open]
            output += tag.bytes { name, value in
                name == "from" || name == "to" ? Array(redactor.pseudonyms.jid(value).utf8) : nil
            }
            index = tag.end
        }
        output += text[index...]
        return output
    }
}
