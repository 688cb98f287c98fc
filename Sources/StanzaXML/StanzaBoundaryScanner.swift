import CByteSearch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds places in an XMPP stream, or in a top-level sequence of stanzas, where
/// it can be cut into parts that are read on their own (in parallel): the start
/// of a line, inside the stream (or at the top level), right after a stanza
/// ends with nothing but blanks after it on its line. It does
/// not parse: it follows the depth of elements, jumping from one `<` to the
/// next with byte searches that look at sixteen bytes at a time (CByteSearch)
/// and skipping comments, CDATA sections, processing
/// instructions and quoted attribute values, so that it runs far faster than a
/// parser. Whatever it cannot follow — a stream that ends or starts again, a
/// DTD, an end tag where none is open, a `<` inside a tag — makes it give up
/// (``Result/unsure``), and the rest of the input is read by one reader, so
/// that nothing it gets wrong can change what is read: each part is read by a
/// reader that checks it ends where the scanner said (see
/// ``StanzaReader/isInsideStreamBetweenStanzas``).
public struct StanzaBoundaryScanner {
    public enum Result: Equatable, Sendable {
        /// The bytes end before a place to cut at or after the target: feed more.
        case needMore
        /// A place to cut (the start of a line), and how many stanzas start before it.
        case boundary(offset: Int, stanzas: Int)
        /// Something the scanner cannot follow: cut no more.
        case unsure
    }

    /// Where scanning goes on, in the bytes handed to ``scan(_:target:)``.
    public private(set) var position: Int
    /// The depth of the stanzas' start tags: 1 in a stream, 0 in a sequence.
    private let top: Int
    private var depth: Int
    private var stanzas = 0
    /// Right after a stanza's end: looking for the end of its line.
    private var afterStanza = false
    /// Inside a BOSH body or a WebSocket frame where a stanza could start: its
    /// children are the stanzas (as the reader reads them), and no cut falls
    /// before its end.
    private var inFrame = false

    /// A scanner inside a stream, between stanzas, at `position`; with
    /// `sequence`, at the top level of a sequence of stanzas instead.
    public init(position: Int, sequence: Bool = false) {
        self.position = position
        top = sequence ? 0 : 1
        depth = top
    }

    /// Scans `bytes` (which grow between calls, and keep what was scanned) from
    /// ``position`` for a place to cut at or after `target`.
    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, target: Int) -> Result {
        guard let base = bytes.baseAddress else { return .needMore }
        let end = bytes.count
        var p = position
        defer { position = p }
        while true {
            if afterStanza {
                while p < end && (base[p] == 0x20 || base[p] == 0x09 || base[p] == 0x0D) { p += 1 }
                if p == end { return .needMore }
                afterStanza = false
                if base[p] == 0x0A {
                    p += 1
                    if p >= target { return .boundary(offset: p, stanzas: stanzas) }
                }
            }
            guard let q = Self.find(0x3C, in: base, from: p, to: end) else { p = end; return .needMore }
            guard q + 1 < end else { p = q; return .needMore }
            switch base[q + 1] {
            case 0x2F:   // </
                guard let close = Self.find(0x3E, in: base, from: q + 2, to: end) else { p = q; return .needMore }
                depth -= 1
                p = close + 1
                if depth < top { return .unsure }   // the stream ends (or an end tag where none is open)
                if depth == top { afterStanza = true; inFrame = false }   // a stanza's end, or a frame's
            case 0x21:   // <!
                if q + 4 > end { p = q; return .needMore }
                if base[q + 2] == 0x2D && base[q + 3] == 0x2D {
                    guard let close = Self.find(sequence: "-->", in: base, from: q + 4, to: end) else { p = q; return .needMore }
                    p = close
                } else {
                    if q + 9 > end { p = q; return .needMore }
                    guard Self.matches("<![CDATA[", in: base, at: q) else { return .unsure }   // a DTD, or damage
                    guard let close = Self.find(sequence: "]]>", in: base, from: q + 9, to: end) else { p = q; return .needMore }
                    p = close
                }
            case 0x3F:   // <?
                guard let close = Self.find(sequence: "?>", in: base, from: q + 2, to: end) else { p = q; return .needMore }
                // An XML declaration between stanzas: a new stream.
                if depth == top + (inFrame ? 1 : 0) && close - q >= 6 && Self.matches("<?xml", in: base, at: q) && isXMLSpace(base[q + 5]) {
                    return .unsure
                }
                p = close
            default:     // a start tag
                var i = q + 1
                var close = -1
                while i < end {
                    // Plain bytes (names, blanks, '=') are skipped sixteen at a time.
                    i = stanzaq_find_any4(base, i, end, 0x3E, 0x22, 0x27, 0x3C)
                    if i == end { break }
                    let byte = base[i]
                    if byte == 0x3E { close = i; break }
                    if byte == 0x3C { return .unsure }
                    guard let quote = Self.find(byte, in: base, from: i + 1, to: end) else { break }
                    i = quote + 1
                }
                if close < 0 { p = q; return .needMore }
                let selfClosing = base[close - 1] == 0x2F
                p = close + 1
                if depth == top + (inFrame ? 1 : 0) {
                    switch Self.kind(base, from: q + 1, to: close) {
                    case .stream: return .unsure   // a reconnect
                    case .frame where !inFrame:
                        if selfClosing { afterStanza = true } else { inFrame = true; depth += 1 }
                        continue
                    default:
                        stanzas += 1
                        if selfClosing && !inFrame { afterStanza = true }
                    }
                }
                if !selfClosing { depth += 1 }
            }
        }
    }

    /// Where the first stanza of a top-level sequence starts, if `bytes` start with
    /// one: blanks, then the start tag of a `message`, `presence` or `iq` (as a
    /// MAM dump or `grep -o` output starts). `nil` for anything else (no byte
    /// order mark, declaration or text first): such an input is read whole.
    public static func sequenceStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < bytes.count && isXMLSpace(bytes[i]) { i += 1 }
        let start = i
        guard i + 1 < bytes.count, bytes[i] == 0x3C, bytes[i + 1] != 0x3A, isNameStartByte(bytes[i + 1]) else { return nil }
        i += 1
        var nameStart = i
        while i < bytes.count && isNameByte(bytes[i]) && bytes[i] < 0x80 {
            if bytes[i] == 0x3A { nameStart = i + 1 }
            i += 1
        }
        guard i < bytes.count, isXMLSpace(bytes[i]) || bytes[i] == 0x3E || bytes[i] == 0x2F else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
        return name == "message" || name == "presence" || name == "iq" ? start : nil
    }

    /// The bytes before `offset` were dropped from those handed to
    /// ``scan(_:target:)``: only the position moves, the stanzas counted stay.
    public mutating func forget(before offset: Int) {
        position -= offset
    }

    /// Makes `offset` (a boundary) the start of the bytes: what comes before it
    /// is cut off, and the stanzas counted start again from 0.
    public mutating func cut(at offset: Int) {
        position -= offset
        stanzas = 0
    }

    /// The offset of the first `byte` at or after `from` (see CByteSearch.h).
    @inline(__always)
    private static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        let found = stanzaq_find_byte(base, from, end, byte)
        return found < end ? found : nil
    }

    /// The offset just after the first `sequence` at or after `from`.
    private static func find(sequence: StaticString, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        let count = sequence.utf8CodeUnitCount
        let first = sequence.utf8Start[0]
        var from = from
        while let at = find(first, in: base, from: from, to: end) {
            if at + count > end { return nil }
            if matches(sequence, in: base, at: at) { return at + count }
            from = at + 1
        }
        return nil
    }

    private static func matches(_ sequence: StaticString, in base: UnsafePointer<UInt8>, at offset: Int) -> Bool {
        memcmp(base + offset, sequence.utf8Start, sequence.utf8CodeUnitCount) == 0
    }

    /// What a start tag where a stanza could start is, told by its local name.
    private enum TagKind {
        case stanza
        /// `stream`: a new stream.
        case stream
        /// `body` that names BOSH's namespace, `open` or `close` that names the
        /// WebSocket binding's: a frame, whose children the reader reads as the
        /// stanzas. (The namespace is looked for in the tag's bytes, where
        /// XEP-0124 and RFC 7395 have it declared: where the reader reads the
        /// tag otherwise, the stanzas it counts in the part are not those
        /// counted here, and the part is read again.)
        case frame
    }

    /// The kind of the start tag whose name runs from `from` (to `end` at most, after any prefix).
    private static func kind(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> TagKind {
        var nameEnd = from, localStart = from
        while nameEnd < end && !isXMLSpace(base[nameEnd]) && base[nameEnd] != 0x2F {
            if base[nameEnd] == 0x3A { localStart = nameEnd + 1 }
            nameEnd += 1
        }
        func named(_ name: StaticString) -> Bool {
            nameEnd - localStart == name.utf8CodeUnitCount && memcmp(base + localStart, name.utf8Start, name.utf8CodeUnitCount) == 0
        }
        if named("stream") { return .stream }
        func declares(_ namespace: StaticString) -> Bool {
            find(sequence: namespace, in: base, from: nameEnd, to: end) != nil
        }
        if named("body") { return declares("http://jabber.org/protocol/httpbind") ? .frame : .stanza }
        if named("open") || named("close") { return declares("urn:ietf:params:xml:ns:xmpp-framing") ? .frame : .stanza }
        return .stanza
    }
}

/// The start of an XMPP stream, read without a parser to find where its
/// stanzas start and which namespaces they inherit: blanks (after a UTF-8
/// byte order mark), an optional XML declaration (UTF-8, if it names an
/// encoding), and the stream's start tag. `nil` for anything else, or
/// anything unusual in them (a reader of the input then reads it all).
public struct StreamPrologue: Equatable, Sendable {
    /// The stream's start tag as ``StanzaReader/streamStartTag`` writes it.
    public var header: [UInt8]
    /// Where the stanzas start: just after the start tag.
    public var end: Int

    public init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let count = bytes.count
        func skipBlanks() { while i < count && isXMLSpace(bytes[i]) { i += 1 } }
        func starts(with text: String) -> Bool {
            let utf8 = Array(text.utf8)
            return i + utf8.count <= count && Array(bytes[i..<(i + utf8.count)]) == utf8
        }
        if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        skipBlanks()
        if starts(with: "<?xml") {
            guard let close = (i..<max(i, count - 1)).first(where: { bytes[$0] == 0x3F && bytes[$0 + 1] == 0x3E }) else { return nil }
            let declaration = String(decoding: bytes[i..<close], as: UTF8.self).lowercased()
            if let range = declaration.firstRange(of: "encoding") {
                let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "'" || $0 == "\"" }
                guard rest.hasPrefix("utf-8") || rest.hasPrefix("utf8") else { return nil }
            }
            i = close + 2
            skipBlanks()
        }
        guard i < count, bytes[i] == UInt8(ascii: "<") else { return nil }
        i += 1
        // The name.
        let nameStart = i
        while i < count && !isXMLSpace(bytes[i]) && bytes[i] != UInt8(ascii: ">") && bytes[i] != UInt8(ascii: "/") { i += 1 }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.last == "stream" else { return nil }
        let prefix = parts.count == 2 ? String(parts[0]) : nil
        if prefix == "" { return nil }
        // The attributes: the namespace declarations are kept, in order.
        var declarations: [(prefix: String?, uri: String)] = []
        var names = Set<String>()
        while true {
            let before = i
            skipBlanks()
            guard i < count else { return nil }
            if bytes[i] == UInt8(ascii: ">") { i += 1; break }
            guard i > before else { return nil }
            let attributeStart = i
            while i < count && !isXMLSpace(bytes[i]) && bytes[i] != UInt8(ascii: "=") && bytes[i] != UInt8(ascii: ">") { i += 1 }
            let attribute = String(decoding: bytes[attributeStart..<i], as: UTF8.self)
            guard !attribute.isEmpty, names.insert(attribute).inserted else { return nil }
            skipBlanks()
            guard i < count, bytes[i] == UInt8(ascii: "=") else { return nil }
            i += 1
            skipBlanks()
            guard i < count, bytes[i] == 0x22 || bytes[i] == 0x27 else { return nil }
            let quote = bytes[i]
            i += 1
            let valueStart = i
            while i < count && bytes[i] != quote { i += 1 }
            guard i < count else { return nil }
            let raw = bytes[valueStart..<i]
            i += 1
            // Values that libxml2 would decode or normalise are left to it.
            if raw.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x22 || $0 == 0x27 || $0 < 0x20 }) { return nil }
            let value = String(decoding: raw, as: UTF8.self)
            if attribute == "xmlns" {
                declarations.append((nil, value))
            } else if attribute.hasPrefix("xmlns:") {
                let declared = String(attribute.dropFirst(6))
                guard !declared.isEmpty, !declared.contains(":"), !value.isEmpty else { return nil }
                declarations.append((declared, value))
            }
        }
        guard declarations.contains(where: { $0.prefix == prefix && $0.uri == "http://etherx.jabber.org/streams" }) else { return nil }
        var header = "<" + (prefix.map { $0 + ":" } ?? "") + "stream"
        for declaration in declarations {
            header += " xmlns" + (declaration.prefix.map { ":" + $0 } ?? "") + "='" + declaration.uri + "'"
        }
        header += ">"
        self.header = Array(header.utf8)
        end = i
    }
}
