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
        for lines in [true, false] {
            var forms = textReplacements(redactor, lines: lines)
            forms += redactor.replacedParts.filter { $0.key.count > 3 }.flatMap { part in
                writtenForms(Array(part.key.utf8)).map { ($0, Array(part.value.utf8)) }
            }
            // A short text (`bye`, `❤`) only where it is an element's whole text:
            // elsewhere it is part of other words and ids.
            for secret in redactor.removedSecrets where secret.count <= 3 {
                forms += writtenForms(Array(secret.utf8)).map { ([0x3E] + $0 + [0x3C], [0x3E] + Array(Redactor.marker.utf8) + [0x3C]) }
            }
            let replacements = longestFirst(forms)
            let output = replacing(replacements, in: bytes[...])
            if readsRedacted(output, outlines: outlines, redactor: redactor, format: nil, defaultNamespace: defaultNamespace) {
                return output
            }
        }
        throw XMLRewrite.Refusal(message: "its stanzas are not written as XML (\(format)), and a value to redact is cut "
                                 + "across its records or escaped")
    }

    /// Whether `output` reads as a log of the same stanzas (`outlines`), each
    /// as redacting it again leaves it (but for JIDs, already pseudonyms), with
    /// none of the JIDs and secrets (of more than three characters) `redactor`
    /// replaced or removed left in its bytes.
    static func readsRedacted(_ output: [UInt8], outlines: [[String?]], redactor: Redactor, format: LogFormat?,
                              defaultNamespace: String?) -> Bool {
        guard let (again, _) = try? readStanzas(output, format: format, defaultNamespace: defaultNamespace),
              again.map({ outline(of: $0.0) }) == outlines else { return false }
        let check = Redactor(kinds: redactor.kinds.subtracting(.jids))
        let serializer = XMLSerializer()
        for (stanza, _) in again {
            let before = serializer.string(for: stanza)
            check.redact(stanza)
            if serializer.string(for: stanza) != before { return false }
        }
        let removed = Set(redactor.pseudonyms.replaced.keys).union(redactor.removedSecrets).filter { $0.count > 3 }
        return !removed.contains { secret in output.firstRange(of: Array(secret.utf8)) != nil }
    }
}
