#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CByteSearch
#if canImport(StanzaXML)
import StanzaXML
#endif

/// How OTP's `~p` writes the bytes of a binary, which ``ErlangTermDecoder``
/// reads back: what a search for a stanza's bytes in ejabberd's log looks for.
///
/// io_lib_pretty (`print_length_binary/7`) writes a binary whose bytes are all
/// printable Latin-1 (`printable_latin1_bin/2`: 0x20–0x7E, 0xA0–0xFF, and
/// `\n`, `\r`, `\t`, `\v`, `\b`, `\f`, `\e`) as one string on one line (a
/// leaf, never wrapped), each byte one character, escaping `"` and `\`
/// (io_lib:write_string_bin/3); the log file holds each character in UTF-8,
/// so that é (C3 A9) is written `Ã©`. With `~tp`, a binary of printable
/// UTF-8 is written `<<"…"/utf8>>`, its characters as they are. Any other
/// binary is written as numbers (`<<60,109,…>>`), wrapped onto further lines
/// at its commas (`pp_binary/7`).
enum ErlangTermSpelling {
    /// The ways `~p` and `~tp` may write `bytes` inside the string of a binary:
    /// as Latin-1 characters, as UTF-8 characters; `[]` if neither (a byte
    /// 0x80–0x9F, a control character without an escape: such a binary is
    /// written as numbers).
    static func spellings(_ bytes: [UInt8]) -> [[UInt8]] {
        var forms: [[UInt8]] = []
        if let latin1 = spelled(bytes.lazy.map { Unicode.Scalar($0) }, unicode: false) { forms.append(latin1) }
        var scalars: [Unicode.Scalar] = []
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: break decoding
            case .error: return forms
            }
        }
        if let utf8 = spelled(scalars, unicode: true), !forms.contains(utf8) { forms.append(utf8) }
        return forms
    }

    /// The characters as `~p` writes them in a string (`unicode`: of a `/utf8` binary), in UTF-8.
    private static func spelled<Characters: Sequence>(_ characters: Characters, unicode: Bool) -> [UInt8]?
    where Characters.Element == Unicode.Scalar {
        var out: [UInt8] = []
        for character in characters {
            let value = character.value
            switch value {
            case 0x22, 0x5C: out += [0x5C, UInt8(value)]
            case 0x20...0x7E: out.append(UInt8(value))
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x0B: out += Array("\\v".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x1B: out += Array("\\e".utf8)
            case 0xA0...0xFF: out += Array(String(character).utf8)
            // io_lib_pretty's printable_char/2 of a character beyond Latin-1 (surrogates are no scalars).
            case 0x100...0xFFFD, 0x10000...0x10FFFF where unicode: out += Array(String(character).utf8)
            default: return nil
            }
        }
        return out
    }

    /// Where the binary written as numbers (`<<60,109,…>>`, over any lines)
    /// whose closing `>>` is at `close` in `text` starts (its `<<`), and its
    /// bytes; `nil` if its `<<` is not in `text` with only numbers, commas and
    /// blanks between.
    static func numberFormBytes(_ text: UnsafeBufferPointer<UInt8>, closingAt close: Int) -> (start: Int, bytes: [UInt8])? {
        guard let base = text.baseAddress, close > 0 else { return nil }
        // Numbers hold no `<`: the last one before is the binary's (a byte search
        // back, then one pass on; a few stanzas in ten, on the search's one thread).
        let open = stanzaq_find_last_byte(base, close, 0x3C)
        guard open >= 1, base[open - 1] == 0x3C else { return nil }
        var valid = true
        // (Written in place: an append a byte cost more than the rest.)
        let bytes = [UInt8](unsafeUninitializedCapacity: (close - open) / 2 + 1) { out, count in
            var value = -1
            var index = open + 1
            while index < close {
                let byte = base[index]
                index += 1
                if byte == 0x0A {
                    // The indent of a line it is wrapped onto: compared at once (half its bytes).
                    let indent = min(Self.spaces.count, close - index)
                    if memcmp(base + index, Self.spaces, indent) == 0 { index += indent }
                } else if byte >= 0x30 && byte <= 0x39 {
                    value = max(value, 0) * 10 + Int(byte - 0x30)
                    if value > 255 { valid = false; return }
                } else if byte == 0x2C && value >= 0 {
                    out[count] = UInt8(value)
                    count += 1
                    value = -1
                } else if byte != 0x20 {
                    valid = false
                    return
                }
            }
            if value >= 0 { out[count] = UInt8(value); count += 1 }
        }
        guard valid else { return nil }
        return (open - 1, bytes)
    }

    /// Spaces to compare an indent with (io_lib_pretty's are under 80 wide).
    private static let spaces = [UInt8](repeating: 0x20, count: 32)
}
