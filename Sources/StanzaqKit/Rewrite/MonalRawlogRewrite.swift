#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// `--redact … --rewrite` on Monal's own log file (stanzaq(1), `--rewrite`;
/// the envelope `monal-rawlog`): written back as Monal writes it, each entry
/// a 4-byte big-endian length and its JSON object
/// (Monal/Classes/MLLogFileManager.m, `dataForString:originatingFromMessage:`).
/// Each entry's `message` is rewritten as a log of Monal's text format is
/// (``LogRewrite``) and written back escaped as NSJSONSerialization escapes
/// (`/` as `\/`); the entry's other members are kept, but for the JIDs and
/// secrets of the run, replaced in them too. So Monal's own reader
/// (DebugTools' rawlog.py) and stanzaq read the file as before.
enum MonalRawlogRewrite {
    /// `bytes`, a whole rawlog, redacted by `redactor`. Throws a ``XMLRewrite/Refusal``.
    static func rewrite(_ bytes: [UInt8], redactor: Redactor, defaultNamespace: String?) throws -> [UInt8] {
        var entries: [(json: ArraySlice<UInt8>, message: Range<Int>, log: LogRewrite.RedactedLog)] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + 4 <= bytes.count else { throw refusal(entries.count + 1, "is cut off") }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard offset + 4 + length <= bytes.count else { throw refusal(entries.count + 1, "is cut off") }
            let json = bytes[offset + 4..<offset + 4 + length]
            guard let message = stringMember("message", in: json), let text = decodedString(json[message]) else {
                throw refusal(entries.count + 1, "has no message")
            }
            let log: LogRewrite.RedactedLog
            do {
                log = try LogRewrite.RedactedLog(text, format: .monal, redactor: redactor, defaultNamespace: defaultNamespace)
            } catch is LogRewrite.NotWrittenAsXML {
                throw refusal(entries.count + 1, "holds a stanza not written as XML")
            }
            entries.append((json, message, log))
            offset += 4 + length
        }
        for lines in [true, false] {
            let replacements = LogRewrite.textReplacements(redactor, lines: lines)
            // (The other members are JSON as written: a JID's `/` is `\/` there.)
            let escaped = replacements.map { (escapingSlashes($0.0), escapingSlashes($0.1)) }
            var output: [UInt8] = []
            var readsAsItself = true
            for entry in entries {
                let message = entry.log.written(with: replacements)
                readsAsItself = readsAsItself && entry.log.readsAsItself(message, redactedBy: redactor)
                var json = LogRewrite.replacing(escaped, in: entry.json[..<entry.message.lowerBound])
                json += encodedString(message)
                json += LogRewrite.replacing(escaped, in: entry.json[entry.message.upperBound...])
                output += (0..<4).map { UInt8(truncatingIfNeeded: json.count >> (24 - 8 * $0)) } + json
            }
            if readsAsItself { return output }
        }
        throw XMLRewrite.Refusal(message: "the redacted log does not read as the log does (monal-rawlog)")
    }

    private static func refusal(_ entry: Int, _ what: String) -> XMLRewrite.Refusal {
        XMLRewrite.Refusal(message: "rawlog entry \(entry) \(what): a stanza that is not read is not redacted")
    }

    /// The bytes of the string value (quotes included) of the top-level member
    /// `name` of the JSON object `json`.
    static func stringMember(_ name: String, in json: ArraySlice<UInt8>) -> Range<Int>? {
        var depth = 0
        var index = json.startIndex
        var lastString: Range<Int>?
        while index < json.endIndex {
            switch json[index] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(json, from: index) else { return nil }
                if depth == 1, let key = lastString, decodedString(json[key]).map({ $0 == Array(name.utf8) }) == true,
                   json[key.upperBound..<index].allSatisfy({ $0 == UInt8(ascii: ":") || isJSONSpace($0) }),
                   json[key.upperBound..<index].contains(UInt8(ascii: ":")) {
                    return index..<end
                }
                lastString = index..<end
                index = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            index += 1
        }
        return nil
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Where the string starting at `start` (its quote) ends, after its closing quote.
    private static func stringEnd(_ json: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        while index < json.endIndex {
            if json[index] == UInt8(ascii: "\\") { index += 2; continue }
            if json[index] == UInt8(ascii: "\"") { return index + 1 }
            index += 1
        }
        return nil
    }

    /// A JSON string (quotes included) decoded into UTF-8; `nil` if it is not one.
    static func decodedString(_ string: ArraySlice<UInt8>) -> [UInt8]? {
        guard string.count >= 2 else { return nil }
        var output: [UInt8] = []
        var index = string.startIndex + 1
        let end = string.endIndex - 1
        var pendingHigh: UInt32?
        while index < end {
            let byte = string[index]
            guard byte == UInt8(ascii: "\\") else { output.append(byte); index += 1; continue }
            guard index + 1 < end else { return nil }
            let escape = string[index + 1]
            index += 2
            let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
            if let value = simple[escape] { output.append(value); continue }
            guard escape == UInt8(ascii: "u"), index + 4 <= end,
                  let unit = UInt32(String(decoding: string[index..<index + 4], as: UTF8.self), radix: 16) else { return nil }
            index += 4
            if (0xD800..<0xDC00).contains(unit) { pendingHigh = unit; continue }
            var scalar = unit
            if (0xDC00..<0xE000).contains(unit), let high = pendingHigh { scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00) }
            pendingHigh = nil
            guard let value = Unicode.Scalar(scalar) else { return nil }
            output += Array(String(Character(value)).utf8)
        }
        return output
    }

    /// `text` as NSJSONSerialization writes a string: `"`, `\` and `/`
    /// escaped, `\b \f \n \r \t`, other controls as `\u00xx`, the rest as it is.
    static func encodedString(_ text: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        let short: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x08: 0x62, 0x0C: 0x66, 0x0A: 0x6E, 0x0D: 0x72, 0x09: 0x74]
        for byte in text {
            if let escape = short[byte] {
                output += [UInt8(ascii: "\\"), escape]
            } else if byte < 0x20 {
                output += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
            } else {
                output.append(byte)
            }
        }
        return output + [UInt8(ascii: "\"")]
    }

    private static func escapingSlashes(_ bytes: [UInt8]) -> [UInt8] {
        bytes.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
    }
}
