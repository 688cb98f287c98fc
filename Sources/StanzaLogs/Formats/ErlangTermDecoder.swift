#if canImport(StanzaXML)
import StanzaXML
#endif

/// Turns the text of an Erlang term printed with `~p` back into the bytes it
/// holds: a binary (`<<"…">>`, `<<"…"/utf8>>`, `<<60,109,…>>`), a string, or an
/// iolist of those. ejabberd logs the XML it sends and receives that way.
///
/// `~p` (OTP's io_lib_pretty and io_lib:write_string) prints a binary whose
/// bytes are all printable Latin-1 as a string, each byte one character, with
/// `\"`, `\\`, `\n`, `\r`, `\t`, `\v`, `\b`, `\f`, `\e`, `\d` and octal `\NNN`
/// escapes; a binary holding other bytes as a list of numbers; with `~tp`, a
/// UTF-8 binary as `"…"/utf8`. A long term is wrapped onto further lines:
/// `<<"first part "` then `  "second part">>`. The decoder keeps its place
/// across lines, so each line's bytes can be fed as they come.
struct ErlangTermDecoder {
    /// Open `<<` and `[`, innermost last (true: a binary).
    private var open: [Bool] = []
    /// Whether a term has started and not yet ended.
    var isInsideTerm: Bool { started && !open.isEmpty }
    private var started = false

    /// Starts a new term.
    mutating func start() {
        open.removeAll()
        started = true
    }

    /// Decodes what `line[from...]` holds of the term; returns the bytes and
    /// whether the term ended on this line.
    mutating func decode(_ line: UnsafeBufferPointer<UInt8>, from: Int) -> (bytes: [UInt8], ended: Bool) {
        var out: [UInt8] = []
        var index = from
        let end = line.contentEnd
        while index < end {
            let byte = line[index]
            switch byte {
            case 0x3C where index + 1 < end && line[index + 1] == 0x3C:   // <<
                open.append(true); index += 2
            case 0x3E where index + 1 < end && line[index + 1] == 0x3E:   // >>
                if !open.isEmpty { open.removeLast() }
                index += 2
                if open.isEmpty { return (out, true) }
            case 0x5B:                                                     // [
                open.append(false); index += 1
            case 0x5D:                                                     // ]
                if !open.isEmpty { open.removeLast() }
                index += 1
                if open.isEmpty { return (out, true) }
            case 0x22:                                                     // a string
                index = decodeString(line, from: index + 1, end: end, into: &out)
                if open.isEmpty { return (out, true) }   // a top-level string (a charlist)
            case 0x30...0x39:                                              // a byte (or a character of a list)
                var value = 0
                // (Held below 0x110000, past any character: a damaged line's long run of
                // digits overflowed, the log fuzzer found.)
                while index < end, isASCIIDigit(line[index]) {
                    value = min(value * 10 + Int(line[index] - 0x30), 0x110000)
                    index += 1
                }
                appendCharacter(value, utf8: false, into: &out)   // a byte, in a binary or an iolist
            case 0x2E where line.has("...", at: index):                    // cut by the logger's size limit
                open.removeAll()
                return (out, true)
            default:                                                       // commas, blanks, `|`
                index += 1
            }
        }
        return (out, open.isEmpty)
    }

    /// Decodes a string whose opening quote was before `from`; returns the
    /// offset after it (and after a `/utf8` suffix).
    private func decodeString(_ line: UnsafeBufferPointer<UInt8>, from: Int, end: Int, into out: inout [UInt8]) -> Int {
        var characters: [Int] = []
        var index = from
        while index < end, line[index] != 0x22 {
            if line[index] == 0x5C, index + 1 < end {
                index += 1
                let escape = line[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): characters.append(10)
                case UInt8(ascii: "r"): characters.append(13)
                case UInt8(ascii: "t"): characters.append(9)
                case UInt8(ascii: "v"): characters.append(11)
                case UInt8(ascii: "b"): characters.append(8)
                case UInt8(ascii: "f"): characters.append(12)
                case UInt8(ascii: "e"): characters.append(27)
                case UInt8(ascii: "d"): characters.append(127)
                case UInt8(ascii: "s"): characters.append(32)
                case UInt8(ascii: "^"):
                    if index < end { characters.append(Int(line[index] & 0x1F)); index += 1 }
                case 0x30...0x37:
                    var value = Int(escape - 0x30), digits = 1
                    while digits < 3, index < end, line[index] >= 0x30, line[index] <= 0x37 {
                        value = value * 8 + Int(line[index] - 0x30); index += 1; digits += 1
                    }
                    characters.append(value)
                case UInt8(ascii: "x"):
                    var value = 0
                    if index < end, line[index] == 0x7B {
                        index += 1
                        while index < end, line[index] != 0x7D, let digit = hexValue(line[index]) { value = value * 16 + digit; index += 1 }
                        if index < end, line[index] == 0x7D { index += 1 }
                    } else {
                        var digits = 0
                        while digits < 2, index < end, let digit = hexValue(line[index]) { value = value * 16 + digit; index += 1; digits += 1 }
                    }
                    characters.append(value)
                default: characters.append(Int(escape))
                }
            } else {
                // The log is UTF-8: one character may take several bytes.
                let (scalar, length) = decodeUTF8(line, at: index, end: end)
                characters.append(scalar)
                index += length
            }
        }
        if index < end { index += 1 }   // the closing quote
        let utf8 = line.has("/utf8", at: index)
        if utf8 { index += 5 }
        for character in characters { appendCharacter(character, utf8: utf8, into: &out) }
        return index
    }

    /// A character of a plain string or binary is one byte (Latin-1); of a
    /// `/utf8` binary, or beyond Latin-1, its UTF-8 encoding.
    private func appendCharacter(_ value: Int, utf8: Bool, into out: inout [UInt8]) {
        if !utf8 && value < 256 { out.append(UInt8(value)); return }
        guard let scalar = Unicode.Scalar(UInt32(clamping: value)) else { return }
        out.append(contentsOf: UTF8.encode(scalar)!)
    }

    private func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }

    private func decodeUTF8(_ line: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (Int, Int) {
        let first = line[index]
        let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        guard length > 1, index + length <= end else { return (Int(first), 1) }
        var value = Int(first) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let next = line[index + offset]
            guard next & 0xC0 == 0x80 else { return (Int(first), 1) }
            value = value << 6 | Int(next & 0x3F)
        }
        return (value, length)
    }
}
