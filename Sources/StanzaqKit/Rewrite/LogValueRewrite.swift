#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// `--redact … --rewrite` on a log whose stanzas are not written as XML byte
/// for byte (stanzaq(1), `--rewrite`): a stanza cut across the records of
/// raw reads (ejabberd's, mod_rawdebug's, libpurple's, Smack's, tshark's
/// chunks), or written in the format's own escaping. No stanza can be written
/// over its bytes; instead every value the redaction removed or replaced — a
/// JID, a part of one met alone, a SASL payload, a password, a body — is
/// replaced wherever the log writes it, as XML and the format's quoting write
/// it. Then the log is read again, and kept only if it reads as the original
/// (the same stanzas, names, ids and types), every stanza already as the
/// redaction leaves it, and no removed value is left in its bytes; else it is
/// refused, since a value cut across two records cannot be found.
extension LogRewrite {
    static func rewriteByValues(_ bytes: [UInt8], redactor: Redactor, defaultNamespace: String?) throws -> [UInt8] {
        let (stanzas, format) = try readStanzas(bytes, format: nil, defaultNamespace: defaultNamespace)
        let outlines = stanzas.map { outline(of: $0.0) }
        for (stanza, _) in stanzas {
            if redactor.kinds.contains(.auth), let password = plainPassword(in: stanza) { redactor.removedSecrets.insert(password) }
            redactor.redact(stanza)
        }
        let removed = Set(redactor.pseudonyms.replaced.keys).union(redactor.removedSecrets).filter { $0.count > 3 }
        for lines in [true, false] {
            var pairs = textReplacements(redactor, lines: lines)
            pairs += redactor.replacedParts.filter { $0.key.count > 3 }.map { (Array($0.key.utf8), Array($0.value.utf8)) }
            var forms = pairs.flatMap { pair in writtenForms(pair.0).map { ($0, pair.1) } }
            // A short text (`bye`, `❤`) only where it is an element's whole text:
            // elsewhere it is part of other words and ids.
            for secret in redactor.removedSecrets where secret.count <= 3 {
                forms += writtenForms(Array(secret.utf8)).map { ([0x3E] + $0 + [0x3C], [0x3E] + Array(Redactor.marker.utf8) + [0x3C]) }
            }
            let replacements = Dictionary(forms, uniquingKeysWith: { a, _ in a })
                .map { ($0.key, $0.value) }
                .sorted { $0.0.count != $1.0.count ? $0.0.count > $1.0.count : $0.0.lexicographicallyPrecedes($1.0) }
            let output = replacing(replacements, in: bytes[...])
            if readsRedacted(output, outlines: outlines, kinds: redactor.kinds, removed: removed, defaultNamespace: defaultNamespace) {
                return output
            }
        }
        throw XMLRewrite.Refusal(message: "its stanzas are not written as XML (\(format)), and a value to redact is cut "
                                 + "across its records or escaped")
    }

    /// The ways a log may write `value`: as it is, or escaped as XML text
    /// (`&` and `<`; `>`, `'` and `"` escaped or not, as XML writers differ);
    /// each also with Prosody's tab after a line feed, and with Erlang's and
    /// C's quoting of `"`, `\` and line feeds (ejabberd's binaries).
    private static func writtenForms(_ value: [UInt8]) -> Set<[UInt8]> {
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

    /// Whether `output` reads as a log of the same stanzas (`outlines`), each
    /// as redacting it again leaves it (but for JIDs, already pseudonyms), with
    /// none of `removed` in it.
    private static func readsRedacted(_ output: [UInt8], outlines: [[String?]], kinds: RedactionKinds, removed: Set<String>,
                                      defaultNamespace: String?) -> Bool {
        guard let (again, _) = try? readStanzas(output, format: nil, defaultNamespace: defaultNamespace),
              again.map({ outline(of: $0.0) }) == outlines else { return false }
        let check = Redactor(kinds: kinds.subtracting(.jids))
        let serializer = XMLSerializer()
        for (stanza, _) in again {
            let before = serializer.string(for: stanza)
            check.redact(stanza)
            if serializer.string(for: stanza) != before { return false }
        }
        return !removed.contains { secret in output.firstRange(of: Array(secret.utf8)) != nil }
    }
}
