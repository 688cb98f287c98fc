#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

extension String {
    /// The string with its control characters written visibly, for a message or a
    /// prefix that must stay one line and cannot be forged: a value or a file name
    /// holding a newline would otherwise start a line of its own that looks like
    /// another message or record, and an escape (C0 ESC, C1 CSI) would drive the
    /// terminal. Newline, carriage return and tab become `\n`, `\r` and `\t`; the
    /// other C0 controls, DEL and the C1 controls become `\xHH`, their code point
    /// in two hexadecimal digits (as Python's `repr` writes them). Other characters,
    /// the backslash included, are kept: messages quote queries, whose backslashes
    /// must read as typed. stanzaq(1), DIAGNOSTICS.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControlCharacter) else { return self }
        var escaped = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard scalar.isControlCharacter else { escaped.append(scalar); continue }
            escaped.append(contentsOf: scalar.escapedControlCharacter.unicodeScalars)
        }
        return String(escaped)
    }
}

extension Unicode.Scalar {
    /// C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F).
    var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }

    /// `\n`, `\r`, `\t`, else `\xHH`.
    var escapedControlCharacter: String {
        switch self {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let hex = String(value, radix: 16)
            return "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
    }
}
