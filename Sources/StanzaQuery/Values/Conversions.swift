import CCrypto
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Conversion {
    /// Applies the conversion to an extracted string (SPEC 3.4). Returns `nil`
    /// where the table says "no result". With `strict`, the whole string
    /// (surrounding whitespace aside) must be a valid value; otherwise this
    /// throws an ``EvaluationError`` naming the value.
    public func apply(to string: String, strict: Bool = false) throws(EvaluationError) -> QueryValue? {
        if strict { return try applyStrictly(to: string) }
        switch self {
        case .bool: return .bool(string == "true" || string == "1")
        case .int: return .int(leadingInteger(string))
        case .uint: return .uint(UInt64(bitPattern: leadingInteger(string)))
        case .double: return .double(leadingDouble(string))
        case .datetime: return DateTime(xep0082: string).map(QueryValue.dateTime)
        case .base64: return decodeBase64(string).map(QueryValue.data)
        case .uuid: return UUID(uuidString: string).map(QueryValue.uuid)
        case .uuidcast: return .uuid(uuidCast(string))
        }
    }

    private func applyStrictly(to string: String) throws(EvaluationError) -> QueryValue? {
        let trimmed = trimmingSpace(string)
        func invalid(_ what: String) -> EvaluationError {
            EvaluationError("'\(string)' is not \(what) (|\(rawValue))")
        }
        switch self {
        case .bool:
            switch trimmed {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: throw invalid("a boolean (true, false, 1 or 0)")
            }
        case .int:
            guard let value = Int64(trimmed),
                  trimmed.utf8.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") })
            else { throw invalid("an integer from \(Int64.min) to \(Int64.max)") }
            return .int(value)
        case .uint:
            guard let value = UInt64(trimmed) else { throw invalid("an integer from 0 to \(UInt64.max)") }
            return .uint(value)
        case .double:
            guard isDecimalNumber(trimmed) else { throw invalid("a decimal number") }
            return .double(leadingDouble(trimmed))
        case .datetime:
            guard let value = DateTime(xep0082: trimmed) else {
                throw invalid("an XEP-0082 date and time (YYYY-MM-DDThh:mm:ss[.sss]Z or ±hh:mm)")
            }
            return .dateTime(value)
        case .base64:
            guard let value = decodeBase64(trimmed) else { throw invalid("valid base64") }
            return .data(value)
        case .uuid:
            guard let value = UUID(uuidString: trimmed) else { throw invalid("a UUID") }
            return .uuid(value)
        case .uuidcast:
            return .uuid(uuidCast(trimmed))
        }
    }
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

/// C's isspace: the whitespace strtol and strtod skip.
private func isCSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

private func trimmingSpace(_ string: String) -> String {
    let bytes = string.utf8
    guard let first = bytes.firstIndex(where: { !isCSpace($0) }) else { return "" }
    let last = bytes.lastIndex(where: { !isCSpace($0) })!
    return String(string[first...last])
}

/// The leading integer: whitespace, an optional sign, digits; saturating at the Int64 bounds; 0 if none.
func leadingInteger(_ string: String) -> Int64 {
    var bytes = string.utf8.drop(while: isCSpace)
    var negative = false
    if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
        negative = sign == UInt8(ascii: "-")
        bytes = bytes.dropFirst()
    }
    var value: Int64 = 0
    for byte in bytes {
        guard isDigit(byte) else { break }
        let digit = Int64(byte - 48)
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
        if o1 || o2 { return negative ? .min : .max }
        value = next
    }
    return value
}

/// strtod: the longest valid prefix, 0 if none. (The decimal point is the C
/// locale's: nothing in stanzaq sets LC_NUMERIC; the REPL sets LC_CTYPE only.)
func leadingDouble(_ string: String) -> Double {
    string.withCString { pointer in strtod(pointer, nil) }
}

/// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
private func isDecimalNumber(_ string: String) -> Bool {
    var bytes = Substring(string).utf8[...]
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    let integer = bytes.prefix(while: isDigit).count
    bytes = bytes.dropFirst(integer)
    var fraction = 0
    if bytes.first == UInt8(ascii: ".") {
        bytes = bytes.dropFirst()
        fraction = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(fraction)
    }
    guard integer + fraction > 0 else { return false }
    if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
        bytes = bytes.dropFirst()
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let exponent = bytes.prefix(while: isDigit).count
        guard exponent > 0 else { return false }
        bytes = bytes.dropFirst(exponent)
    }
    return bytes.isEmpty
}

/// Foundation's decoding with `.ignoreUnknownCharacters`, as Monal's `dataWithBase64EncodedString:`.
private func decodeBase64(_ string: String) -> [UInt8]? {
    Data(base64Encoded: string, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
}

/// Monal's `stringToUUID`: a UUID string as is; anything else hashed with
/// SHA-256, its first 16 bytes, and the version nibble written through a
/// little-endian uint16 at offset 6 — so byte 7 gets `(b & 0x0F) | 0x40` and
/// byte 6 is untouched.
public func uuidCast(_ string: String) -> UUID {
    if let uuid = UUID(uuidString: string) { return uuid }
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    let bytes = Array(string.utf8)
    _ = bytes.withUnsafeBufferPointer { SHA256($0.baseAddress, $0.count, &digest) }
    digest[7] = (digest[7] & 0x0F) | 0x40
    return UUID(uuid: (digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                       digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]))
}
