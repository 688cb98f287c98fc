#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(StanzaXML)
import StanzaXML
#endif

/// Whether two start tags (without their `>`) are the same element's: the same
/// bytes, or the same name and attributes in another order. Prosody writes a
/// stanza's start tag (`Received[c2s]:`, `Sending[c2s]:`) and the whole stanza
/// (`RECV:`, `SEND:`) by two serialisations that order attributes differently
/// (Lua's hash order), so only the attributes, not their order, tell that two
/// lines log one stanza. A tag reordered has the same length, so only tags of
/// equal length are parsed.
func sameStartTag(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 { return true }
    guard let first = StartTagParts(a), let second = StartTagParts(b) else { return false }
    return first == second
}

/// A start tag's name and attributes (each as written, quotes included, so that
/// `'` and `"` around the same value differ: one serialiser writes one kind),
/// the attributes sorted.
private struct StartTagParts: Equatable {
    var name: ArraySlice<UInt8>
    var attributes: [ArraySlice<UInt8>]

    init?(_ tag: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(tag)
        guard bytes.first == 0x3C else { return nil }
        var index = 1
        while index < bytes.count, !isXMLSpace(bytes[index]) { index += 1 }
        name = bytes[1..<index]
        attributes = []
        while true {
            while index < bytes.count, isXMLSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { break }
            let start = index
            while index < bytes.count, bytes[index] != 0x3D { index += 1 }
            guard index + 1 < bytes.count, bytes[index + 1] == 0x27 || bytes[index + 1] == 0x22 else { return nil }
            let quote = bytes[index + 1]
            index += 2
            while index < bytes.count, bytes[index] != quote { index += 1 }
            guard index < bytes.count else { return nil }
            index += 1
            attributes.append(bytes[start..<index])
        }
        attributes.sort { $0.lexicographicallyPrecedes($1) }
    }
}
