#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// `--redact … --rewrite` on a log (stanzaq(1), `--rewrite`): the log written
/// back as it was, but for what the redaction changes. Each stanza the
/// ``Redactor`` changes is written over its bytes in the log, as stanzaq
/// writes a stanza (`-s`); every other line and byte is kept, but that the
/// log's own text (its messages, stream headers, session names) has every JID
/// the stanzas named replaced by its pseudonym and every SASL payload or
/// password they held removed.
///
/// A log whose stanzas are not written as XML, byte for byte (an archive's
/// escaped rows, ejabberd's Erlang terms, a capture's chunks with their
/// prefixes), cannot be rewritten in place: each stanza is found again in the
/// bytes and read there, and where it is not found as it was read, nothing
/// is written. So is a damaged log: a stanza that is not read is not redacted.
enum LogRewrite {
    /// `bytes`, a whole log, redacted by `redactor`. Throws a ``XMLRewrite/Refusal``.
    static func rewrite(_ bytes: [UInt8], redactor: Redactor, defaultNamespace: String?) throws -> [UInt8] {
        let log: RedactedLog
        do {
            log = try RedactedLog(bytes, format: nil, redactor: redactor, defaultNamespace: defaultNamespace)
        } catch is NotWrittenAsXML {
            return try rewriteByValues(bytes, redactor: redactor, defaultNamespace: defaultNamespace)
        }
        // A secret's lines are replaced one by one (a client logs what its user
        // typed a line at a time) unless that changes what the log reads as: a
        // body may hold a line of the log's own format.
        for lines in [true, false] {
            let output = log.written(with: textReplacements(redactor, lines: lines))
            if log.readsAsItself(output, redactedBy: redactor) { return output }
        }
        // (A copy of a stanza in the log's own text may have been taken for it,
        // while the stanza itself is cut across records: jabberd2's `completed nad:`.)
        return try rewriteByValues(bytes, redactor: redactor, defaultNamespace: defaultNamespace)
    }

    /// A stanza of the log is not found, as XML, in its bytes.
    struct NotWrittenAsXML: Error {}

    /// A log's stanzas found in its bytes and redacted: what writing it back needs.
    struct RedactedLog {
        let bytes: [UInt8]
        let format: LogFormat?
        let formatName: String
        let defaultNamespace: String?
        /// Each stanza's bytes, and what replaces them (`nil`: nothing was redacted).
        private(set) var spans: [(range: Range<Int>, replacement: [UInt8]?)] = []
        /// What the log reads as (``outline(of:)`` of each stanza).
        private(set) var outlines: [[String?]] = []

        /// Reads `bytes` (a log of `format`, `nil`: detected) and redacts its stanzas with `redactor`.
        init(_ bytes: [UInt8], format: LogFormat?, redactor: Redactor, defaultNamespace: String?) throws {
            self.bytes = bytes
            self.format = format
            self.defaultNamespace = defaultNamespace
            let (stanzas, detected) = try readStanzas(bytes, format: format, defaultNamespace: defaultNamespace)
            formatName = detected
            let lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
            let serializer = XMLSerializer()
            var cursor = 0
            for (stanza, line) in stanzas {
                outlines.append(outline(of: stanza))
                let written = serializer.string(for: stanza)
                let from = max(cursor, lineStarts[min(line, lineStarts.count) - 1])
                guard let (range, indent) = place(of: stanza, in: bytes, from: from) else { throw NotWrittenAsXML() }
                if redactor.kinds.contains(.auth), let password = plainPassword(in: stanza) { redactor.removedSecrets.insert(password) }
                redactor.redact(stanza)
                let redacted = serializer.string(for: stanza)
                spans.append((range, redacted == written ? nil : indenting(Array(redacted.utf8), indent)))
                cursor = range.upperBound
            }
        }

        /// The log with its redacted stanzas, and `replacements` made in its own text.
        func written(with replacements: [([UInt8], [UInt8])]) -> [UInt8] {
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var cursor = 0
            for span in spans {
                output += replacing(replacements, in: bytes[cursor..<span.range.lowerBound])
                output += span.replacement ?? Array(bytes[span.range])
                cursor = span.range.upperBound
            }
            output += replacing(replacements, in: bytes[cursor...])
            return output
        }

        /// Whether `output` reads as the log, redacted: the same stanzas, names,
        /// ids and types, each as `redactor` leaves it, and nothing it removed
        /// left (``LogRewrite/readsRedacted(_:outlines:redactor:format:defaultNamespace:)``).
        func readsAsItself(_ output: [UInt8], redactedBy redactor: Redactor) -> Bool {
            readsRedacted(output, outlines: outlines, redactor: redactor, format: format, defaultNamespace: defaultNamespace)
        }
    }

    /// What a rewritten log must keep of each stanza: its name, id and type.
    static func outline(of stanza: Element) -> [String?] {
        [stanza.namespace, stanza.name, stanza.attribute("id"), stanza.attribute("type")]
    }

    /// The password of a SASL PLAIN `<auth>` (RFC 4616: authzid, authcid and
    /// password, each after a NUL), which a client's own log may repeat (the
    /// command that set it).
    static func plainPassword(in stanza: Element) -> String? {
        guard case .data(let bytes)? = try? stanza.findFirst("/{urn:ietf:params:xml:ns:xmpp-sasl}auth<mechanism=PLAIN>#|base64"),
              let password = bytes.split(separator: 0, omittingEmptySubsequences: false).last, password.count > 3 else { return nil }
        return String(decoding: password, as: UTF8.self)
    }

    /// The stanzas of the log and the line each starts on, in the order they
    /// start, and the log's format.
    static func readStanzas(_ bytes: [UInt8], format: LogFormat?, defaultNamespace: String?) throws -> ([(Element, Int)], String) {
        var stanzas: [(Element, Int)] = []
        var damage: InputDamage?
        let reader = LogReader(format: format, defaultNamespace: defaultNamespace, handler: { stanza, source in
            stanzas.append((stanza, source.line))
            return true
        }, damage: { if damage == nil { damage = $0 } })
        reader.feed(bytes)
        reader.finish()
        if let damage {
            throw XMLRewrite.Refusal(message: "line \(damage.line): \(damage.message): a stanza that is not read is not redacted")
        }
        // (A stanza is handed over when it ends: in the order they start, for the search below.)
        let ordered = stanzas.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element)
        return (ordered, reader.format?.rawValue ?? "generic")
    }

    /// How a log may indent the lines of a record after its first: Prosody
    /// puts a tab before each (its `msg:gsub("\n", "\n\t")`), which is not the
    /// stanza's; none, in the others.
    private static let continuationIndents: [[UInt8]] = [[], [0x09]]

    /// Where `stanza` is in `bytes`, from `from` on, and
    /// the indent of its lines after the first: the first start tag of its name
    /// there that reads, in a stream of the stanza's namespace, as the same
    /// stanza; within 64 KiB of `from`.
    private static func place(of stanza: Element, in bytes: [UInt8], from: Int) -> (range: Range<Int>, indent: [UInt8])? {
        let name = Array(("<" + stanza.qualifiedName).utf8)
        let limit = min(bytes.count, from + (1 << 16))
        var index = from
        while index < limit, let open = bytes[index..<limit].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            let end = open + name.count
            guard end < bytes.count, bytes[open..<end].elementsEqual(name),
                  [UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), 0x09, 0x0A, 0x0D].contains(bytes[end]) else { continue }
            for indent in continuationIndents {
                if let (read, range) = firstStanza(in: bytes, at: open, indent: indent,
                                                   namespace: stanza.prefix == nil ? stanza.namespace : nil),
                   sameStanza(read, stanza) {
                    return (range, indent)
                }
            }
        }
        return nil
    }

    /// Whether `a` and `b` are the same element: names and namespaces,
    /// attributes (in any order) and children, whatever the namespace
    /// declarations that made them (a stanza of a BOSH body, of a stream).
    static func sameStanza(_ a: Element, _ b: Element) -> Bool {
        guard a.name == b.name, a.namespace == b.namespace, a.children.count == b.children.count,
              Set(a.attributes.map { [$0.namespace, $0.name, $0.value] }) == Set(b.attributes.map { [$0.namespace, $0.name, $0.value] })
        else { return false }
        for (x, y) in zip(a.children, b.children) {
            switch (x, y) {
            case (.text(let s), .text(let t)) where s == t: continue
            case (.element(let e), .element(let f)) where sameStanza(e, f): continue
            default: return false
            }
        }
        return true
    }

    /// The first stanza read from `bytes` at `start`, its lines after the first
    /// without `indent`, inside a stream whose header declares `namespace` and
    /// XMPP's prefixes; and its bytes, indents included.
    private static func firstStanza(in bytes: [UInt8], at start: Int, indent: [UInt8],
                                    namespace: String?) -> (Element, Range<Int>)? {
        var header = "<stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns:db='jabber:server:dialback'"
        let escaped = (namespace ?? "jabber:client").replacing("&", with: "&amp;").replacing("'", with: "&apos;").replacing("<", with: "&lt;")
        header += " xmlns='" + escaped + "'>"
        var found: (Element, Range<Int>)?
        var reader: StanzaReader!
        reader = StanzaReader { stanza in
            if let place = reader.currentPlace { found = (stanza, place.bytes) }
            return false
        }
        // Where each line fed starts, in the bytes fed and in `bytes`.
        var lines: [(fed: Int, raw: Int)] = []
        var fed = header.utf8.count
        do {
            // Up to each `>` at a time: what follows the stanza (the rest of the
            // log's line, a BOSH body's end tag) is no XML of it.
            var chunk = start
            var data = Array(header.utf8)
            var lineStart = true
            while found == nil, chunk < bytes.count, chunk - start < 1 << 20 {
                if lineStart {
                    if chunk > start, !indent.isEmpty {
                        guard bytes[chunk...].starts(with: indent) else { return nil }
                        chunk += indent.count
                    }
                    lines.append((fed, chunk))
                }
                let next = bytes[chunk...].firstIndex { $0 == 0x3E || $0 == 0x0A }.map { $0 + 1 } ?? bytes.count
                lineStart = bytes[next - 1] == 0x0A
                data += bytes[chunk..<next]
                fed += next - chunk
                try reader.feed(data)
                data.removeAll()
                chunk = next
            }
        } catch {
            return nil
        }
        guard let (element, range) = found else { return nil }
        func raw(_ offset: Int) -> Int {
            let line = lines.last { $0.fed <= offset } ?? lines[0]
            return line.raw + offset - line.fed
        }
        return (element, raw(range.lowerBound)..<raw(range.upperBound))
    }

    /// What the log's own text has replaced: each JID the redaction gave a
    /// pseudonym, and each secret it removed (and, with `lines`, each line of
    /// one), in each way a log may write it (``writtenForms(_:)``: a log's
    /// messages may quote a stanza, as Prosody's mod_bosh does its requests);
    /// the longest first, so that a full JID is replaced before its bare JID
    /// and its domain.
    static func textReplacements(_ redactor: Redactor, lines: Bool) -> [([UInt8], [UInt8])] {
        var pairs = redactor.pseudonyms.replaced.map { (Array($0.key.utf8), Array($0.value.utf8)) }
        var secrets = redactor.removedSecrets.filter { $0.count > 3 }
        if lines {
            for secret in redactor.removedSecrets where secret.contains("\n") {
                secrets.formUnion(secret.split(separator: "\n").map(String.init).filter { $0.count > 3 })
            }
        }
        pairs += secrets.map { (Array($0.utf8), Array(Redactor.marker.utf8)) }
        return longestFirst(pairs.flatMap { pair in writtenForms(pair.0).map { ($0, pair.1) } })
    }

    /// `pairs` without repeated values, the longest value first.
    static func longestFirst(_ pairs: [([UInt8], [UInt8])]) -> [([UInt8], [UInt8])] {
        Dictionary(pairs.filter { !$0.0.isEmpty }, uniquingKeysWith: { first, _ in first })
            .map { ($0.key, $0.value) }
            .sorted { $0.0.count != $1.0.count ? $0.0.count > $1.0.count : $0.0.lexicographicallyPrecedes($1.0) }
    }

    /// The ways a log may write `value`: as it is, or escaped as XML text
    /// (`&` and `<`; `>`, `'` and `"` escaped or not, as XML writers differ);
    /// each also with Prosody's tab after a line feed, and with Erlang's and
    /// C's quoting of `"`, `\` and line feeds (ejabberd's binaries).
    static func writtenForms(_ value: [UInt8]) -> Set<[UInt8]> {
        func replacingBytes(_ bytes: [UInt8], _ table: [UInt8: [UInt8]]) -> [UInt8] {
            bytes.flatMap { table[$0] ?? [$0] }
        }
        var xml: Set<[UInt8]> = [value]
        for mask in 0..<8 {
            var table: [UInt8: [UInt8]] = [0x26: Array("&amp;".utf8), 0x3C: Array("&lt;".utf8)]
            if mask & 1 != 0 { table[0x3E] = Array("&gt;".utf8) }
            if mask & 2 != 0 { table[0x27] = Array("&apos;".utf8) }
            if mask & 4 != 0 { table[0x22] = Array("&quot;".utf8) }
            xml.insert(replacingBytes(value, table))
        }
        var forms = xml
        for form in xml {
            forms.insert(replacingBytes(form, [0x0A: [0x0A, 0x09]]))
            forms.insert(replacingBytes(form, [0x5C: Array("\\\\".utf8), 0x22: Array("\\\"".utf8), 0x0A: Array("\\n".utf8)]))
        }
        return forms
    }

    /// `text` with each occurrence of a replaced value, not inside a longer
    /// name (a letter or digit on either side), replaced.
    static func replacing(_ replacements: [([UInt8], [UInt8])], in text: ArraySlice<UInt8>) -> [UInt8] {
        guard !replacements.isEmpty else { return Array(text) }
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte >= 0x80
        }
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var index = text.startIndex
        scanning: while index < text.endIndex {
            if index == text.startIndex || !isNameByte(text[index - 1]) {
                for (value, replacement) in replacements where value[0] == text[index] {
                    let end = index + value.count
                    if end <= text.endIndex, text[index..<end].elementsEqual(value),
                       end == text.endIndex || !isNameByte(text[end]) || !isNameByte(value[value.count - 1]) {
                        output += replacement
                        index = end
                        continue scanning
                    }
                }
            }
            output.append(text[index])
            index += 1
        }
        return output
    }

    /// `text` with `indent` after each line feed, as the log writes a record's lines.
    private static func indenting(_ text: [UInt8], _ indent: [UInt8]) -> [UInt8] {
        guard !indent.isEmpty else { return text }
        var output: [UInt8] = []
        for byte in text {
            output.append(byte)
            if byte == 0x0A { output += indent }
        }
        return output
    }
}
