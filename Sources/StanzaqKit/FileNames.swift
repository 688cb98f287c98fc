#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names are bytes, not text: a name that is not UTF-8 (Latin-1 from an old
/// archive, a name cut inside a character) must still open the same file.
///
/// A name is carried as a `String` in which each byte that is not part of valid
/// UTF-8 stands as one of the private-use scalars U+10FF80 to U+10FFFF (byte
/// 0x80 to 0xFF): decoding never produces those scalars otherwise (their own
/// UTF-8 is kept as four such bytes), so every name turns back into exactly its
/// bytes (``fileSystemPath``). Messages and prefixes show such a byte as `\xHH`
/// (``shownFileName``), stanzaq(1), DIAGNOSTICS.
public enum FileNames {
    static let rawByteBase: UInt32 = 0x10FF00

    /// A name (or any argument, or a REPL line) from its bytes.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let valid = String(validating: bytes, as: UTF8.self), !valid.unicodeScalars.contains(where: isRawByte) {
            return valid
        }
        return decodeByteByByte(bytes)
    }

    /// Byte by byte: each valid sequence as its scalar, each other byte as a raw byte.
    private static func decodeByteByByte<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let array = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < array.count {
            let lead = array[index]
            let length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0
            if length > 0, index + length <= array.count,
               let text = String(validating: array[index..<(index + length)], as: UTF8.self),
               let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1, !isRawByte(scalar) {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(lead < 0x80 ? Unicode.Scalar(lead) : rawByte(lead))
                index += 1
            }
        }
        return String(scalars)
    }

    private static func rawByte(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(rawByteBase + UInt32(byte))!
    }

    static func isRawByte(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= rawByteBase + 0x80 && scalar.value <= rawByteBase + 0xFF
    }

    /// The arguments the program was started with, each decoded from its bytes.
    public static var commandLineArguments: [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return decode(UnsafeBufferPointer(start: argument, count: strlen(argument)).lazy.map { UInt8(bitPattern: $0) })
        }
    }
}

extension String {
    /// The bytes of the file name this string carries (see ``FileNames``), NUL-terminated, for `open`.
    public var fileSystemPath: [CChar] {
        // A raw byte's scalar (U+10FF80…) is written F4 8F BE/BF xx: without
        // a 0xF4, the name's bytes are its UTF-8 (and the scalar by scalar
        // copy below, slow for every name, is not needed).
        if !utf8.contains(0xF4) {
            var bytes = utf8.map { CChar(bitPattern: $0) }
            bytes.append(0)
            return bytes
        }
        var bytes: [CChar] = []
        bytes.reserveCapacity(utf8.count + 1)
        for scalar in unicodeScalars {
            if FileNames.isRawByte(scalar) {
                bytes.append(CChar(bitPattern: UInt8(scalar.value - FileNames.rawByteBase)))
            } else {
                bytes.append(contentsOf: String(scalar).utf8.map { CChar(bitPattern: $0) })
            }
        }
        bytes.append(0)
        return bytes
    }

    /// The name as messages and prefixes show it: each byte that is not UTF-8 as `\xHH`.
    /// (Control characters are escaped where the name is written.)
    public var shownFileName: String {
        guard utf8.contains(0xF4), unicodeScalars.contains(where: FileNames.isRawByte) else { return self }
        var shown = ""
        for scalar in unicodeScalars {
            if FileNames.isRawByte(scalar) {
                let hex = String(scalar.value - FileNames.rawByteBase, radix: 16)
                shown += "\\x" + hex
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
