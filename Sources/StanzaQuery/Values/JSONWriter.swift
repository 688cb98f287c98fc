#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// Appends JSON text to a byte buffer: compact, keys in the order given, no
/// trailing newline. Strings keep non-ASCII characters as UTF-8.
public enum JSONWriter {
    /// A JSON string.
    public static func string(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0x08: out.append(contentsOf: "\\b".utf8)
            case 0x0C: out.append(contentsOf: "\\f".utf8)
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// An object of string members.
    static func object(_ pairs: [KeyValue], into out: inout [UInt8]) {
        var object = JSONObjectWriter(into: &out)
        for pair in pairs { object.member(pair.key, string: pair.value, into: &out) }
        object.close(into: &out)
    }
}

/// One JSON object written member by member — the one way objects are written:
/// attribute maps, field descriptions, and the command line's records, whose
/// `value` member is written by whoever holds it.
public struct JSONObjectWriter {
    private var isEmpty = true

    /// Appends `{`.
    public init(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
    }

    /// Appends the separator and `"name":`; the member's value must follow.
    public mutating func key(_ name: String, into out: inout [UInt8]) {
        if !isEmpty { out.append(UInt8(ascii: ",")) }
        isEmpty = false
        JSONWriter.string(name, into: &out)
        out.append(UInt8(ascii: ":"))
    }

    /// A member whose value is a string.
    public mutating func member(_ name: String, string value: String, into out: inout [UInt8]) {
        key(name, into: &out)
        JSONWriter.string(value, into: &out)
    }

    /// A member whose value is a number or `true`/`false`, written as given.
    public mutating func member(_ name: String, literal value: String, into out: inout [UInt8]) {
        key(name, into: &out)
        out.append(contentsOf: value.utf8)
    }

    /// Appends `}`.
    public func close(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "}"))
    }
}
