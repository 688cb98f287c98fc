import CCrypto
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

extension Conversion {
    /// Applies the conversion to an extracted string (stanzaq-query(7),
    /// CONVERSIONS). Returns `nil` where the conversion has no result for
    /// invalid input (`datetime`, `base64`, `uuid`).
    ///
    /// `strict` validates and never changes the answer: the result is the one
    /// given without it, or an ``EvaluationError`` naming the value when the
    /// string is not, in full, a value the conversion reads without falling
    /// back, saturating or overflowing.
    public func apply(to string: String, strict: Bool = false) throws(EvaluationError) -> QueryValue? {
        let value = convert(string)
        if strict, let expected = strictRequirement(string, value) {
            throw EvaluationError("'\(shownValue(string))' is not \(expected) (|\(rawValue))")
        }
        return value
    }

    /// The answer without `--strict`: Monal's (Foundation's) reading of the string.
    private func convert(_ string: String) -> QueryValue? {
        switch self {
        case .bool: return .bool(string == "true" || string == "1")
        case .int: return .int(leadingInteger(string).value)
        case .uint: return .uint(UInt64(bitPattern: leadingInteger(string).value))
        case .double: return .double(leadingDouble(string).value)
        case .datetime: return DateTime(xep0082: string).map(QueryValue.dateTime)
        case .base64: return decodeBase64(string).map(QueryValue.data)
        case .uuid: return parseUUID(string).map(QueryValue.uuid)
        case .uuidcast: return .uuid(uuidCast(string))
        }
    }

    /// What a strict conversion needs `string` to be, or `nil` when it is that.
    private func strictRequirement(_ string: String, _ value: QueryValue?) -> String? {
        switch self {
        case .bool:
            return ["true", "false", "1", "0"].contains(string) ? nil : "a boolean (true, false, 1 or 0)"
        case .int:
            let read = leadingInteger(string)
            return read.whole && !read.saturated ? nil : "an integer from \(Int64.min) to \(Int64.max)"
        case .uint:
            // The same number as int, which must not be negative: a value above
            // Int64.max saturates (Monal reads it with longLongValue).
            let read = leadingInteger(string)
            return read.whole && !read.saturated && read.value >= 0 ? nil : "an integer from 0 to \(Int64.max)"
        case .double:
            let read = leadingDouble(string)
            return read.whole && read.value.isFinite ? nil : "a finite decimal number"
        case .datetime:
            return value != nil ? nil : "an XEP-0082 date and time (YYYY-MM-DDThh:mm:ss[.sss] then Z, ±hh:mm or ±hhmm)"
        case .base64:
            return value != nil ? nil : "valid base64"
        case .uuid:
            return value != nil ? nil : "a UUID (8-4-4-4-12 hexadecimal digits)"
        case .uuidcast:
            return nil
        }
    }
}

/// The value as an error message shows it: on one line (control characters
/// escaped, see `escapingControlCharacters`), shortened when long.
private func shownValue(_ string: String) -> String {
    var shown = ""
    var count = 0
    for scalar in string.unicodeScalars {
        if count == 60 { return shown + "…" }
        if scalar.isControlCharacter { shown += scalar.escapedControlCharacter } else { shown.unicodeScalars.append(scalar) }
        count += 1
    }
    return shown
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

/// C's isspace: the whitespace Foundation's integerValue and doubleValue skip.
private func isCSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

/// What a leading-number reader made of a string.
struct LeadingNumber<Value> {
    var value: Value
    /// The number was the whole string (after leading whitespace).
    var whole: Bool
    /// The number did not fit and was clamped to a bound.
    var saturated = false
}

/// The leading integer (Foundation's `integerValue`): whitespace, an optional
/// sign, digits; saturating at the Int64 bounds; 0 if there are no digits.
func leadingInteger(_ string: String) -> LeadingNumber<Int64> {
    var bytes = string.utf8.drop(while: isCSpace)
    var negative = false
    if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
        negative = sign == UInt8(ascii: "-")
        bytes = bytes.dropFirst()
    }
    let digits = bytes.prefix(while: isDigit)
    var value: Int64 = 0
    for byte in digits {
        let digit = Int64(byte - 48)
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
        if o1 || o2 { return .init(value: negative ? .min : .max, whole: digits.count == bytes.count, saturated: true) }
        value = next
    }
    return .init(value: value, whole: !digits.isEmpty && digits.count == bytes.count)
}

/// The leading decimal number (NSString's `doubleValue`): after whitespace,
/// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?` — never
/// `inf`, `nan`, hexadecimal or the other forms strtod reads; 0 if none.
/// Overflow gives ±infinity, as Apple's Foundation does.
func leadingDouble(_ string: String) -> LeadingNumber<Double> {
    let bytes = Array(string.utf8)
    var i = 0
    while i < bytes.count, isCSpace(bytes[i]) { i += 1 }
    let start = i
    if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
    let integerStart = i
    while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    var mantissaDigits = i - integerStart
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
        let fractionStart = i + 1
        var j = fractionStart
        while j < bytes.count, isDigit(bytes[j]) { j += 1 }
        if mantissaDigits + (j - fractionStart) > 0 {
            mantissaDigits += j - fractionStart
            i = j
        }
    }
    guard mantissaDigits > 0 else { return .init(value: 0, whole: false) }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
        var j = i + 1
        if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
        let exponentStart = j
        while j < bytes.count, isDigit(bytes[j]) { j += 1 }
        if j > exponentStart { i = j }
    }
    // The prefix is a plain decimal number, so strtod reads exactly it (in the
    // C locale's decimal point: nothing in stanzaq sets LC_NUMERIC).
    let number = String(decoding: bytes[start..<i], as: UTF8.self)
    let value = number.withCString { strtod($0, nil) }
    return .init(value: value, whole: i == bytes.count)
}

/// NSData's `initWithBase64EncodedString:options:` with
/// `NSDataBase64DecodingIgnoreUnknownCharacters` (Monal's decoder): characters
/// outside the alphabet and `=` are ignored; what remains must be whole
/// 4-character groups, padded with one or two `=` only at the very end.
/// Anything else is `nil` — never a decoded prefix.
func decodeBase64(_ string: String) -> [UInt8]? {
    var sextets: [UInt8] = []
    sextets.reserveCapacity(string.utf8.count)
    var padding = 0
    for byte in string.utf8 {
        let sextet: UInt8
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = byte - 65
        case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = byte - 71
        case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = byte + 4
        case UInt8(ascii: "+"): sextet = 62
        case UInt8(ascii: "/"): sextet = 63
        case UInt8(ascii: "="):
            padding += 1
            continue
        default:
            continue
        }
        // Data after padding: the padding was not at the end.
        if padding > 0 { return nil }
        sextets.append(sextet)
    }
    guard (sextets.count + padding) % 4 == 0, padding <= 2, padding == 0 || sextets.count % 4 == 4 - padding else {
        return nil
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(sextets.count * 3 / 4)
    var index = 0
    while index + 4 <= sextets.count {
        let s = sextets[index..<index + 4].map(UInt32.init)
        let group = s[0] << 18 | s[1] << 12 | s[2] << 6 | s[3]
        bytes.append(UInt8(truncatingIfNeeded: group >> 16))
        bytes.append(UInt8(truncatingIfNeeded: group >> 8))
        bytes.append(UInt8(truncatingIfNeeded: group))
        index += 4
    }
    let rest = sextets[index...].map(UInt32.init)
    if rest.count == 2 {
        bytes.append(UInt8(truncatingIfNeeded: (rest[0] << 2) | (rest[1] >> 4)))
    } else if rest.count == 3 {
        bytes.append(UInt8(truncatingIfNeeded: (rest[0] << 2) | (rest[1] >> 4)))
        bytes.append(UInt8(truncatingIfNeeded: (rest[1] << 4) | (rest[2] >> 2)))
    }
    return bytes
}

/// A UUID written exactly as 8-4-4-4-12 hexadecimal digits, in any case; no
/// whitespace, signs or braces (Foundation's `UUID(uuidString:)` is more
/// lenient on some platforms and would read `+` or a leading space).
func parseUUID(_ string: String) -> UUID? {
    let text = Array(string.utf8)
    guard text.count == 36 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16)
    var index = 0
    var high: UInt8?
    while index < 36 {
        let character = text[index]
        if index == 8 || index == 13 || index == 18 || index == 23 {
            guard character == UInt8(ascii: "-") else { return nil }
            index += 1
            continue
        }
        let nibble: UInt8
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - 55
        default: return nil
        }
        if let first = high {
            bytes.append(first << 4 | nibble)
            high = nil
        } else {
            high = nibble
        }
        index += 1
    }
    return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                       bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
}

/// Monal's `stringToUUID`: a UUID string as is; anything else hashed with
/// SHA-256, its first 16 bytes, and the version nibble written through a
/// little-endian uint16 at offset 6 — so byte 7 gets `(b & 0x0F) | 0x40` and
/// byte 6 is untouched.
public func uuidCast(_ string: String) -> UUID {
    if let uuid = parseUUID(string) { return uuid }
    var digest = [UInt8](repeating: 0, count: 32)
    let bytes = Array(string.utf8)
    let hashed = bytes.withUnsafeBufferPointer { stanzaq_sha256($0.baseAddress, $0.count, &digest) }
    // (libcrypto is a dependency of the package: missing, the installation is broken.)
    precondition(hashed == 1, "stanzaq: no SHA-256 for |uuidcast: " + String(cString: stanzaq_sha256_error()))
    digest[7] = (digest[7] & 0x0F) | 0x40
    return UUID(uuid: (digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                       digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]))
}
