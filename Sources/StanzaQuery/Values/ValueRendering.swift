import FoundationEssentials
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

extension QueryValue {
    /// Appends the text rendering: XML for elements, raw strings, `true`/`false`,
    /// decimal numbers, ISO 8601 (or epoch) datetimes, raw bytes for base64,
    /// upper-case UUIDs, one-line JSON for maps and field descriptions.
    public func writeText(into out: inout [UInt8], options: RenderOptions = RenderOptions()) {
        switch self {
        case .element(let element):
            XMLSerializer(options: options).write(element, into: &out)
        case .string(let string): out.append(contentsOf: string.utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .uint(let value): out.append(contentsOf: String(value).utf8)
        case .double(let value): out.append(contentsOf: formatDouble(value).utf8)
        case .dateTime(let value): out.append(contentsOf: (options.epoch ? value.epochString : value.iso8601).utf8)
        case .data(let bytes): out.append(contentsOf: bytes)
        case .uuid(let uuid): out.append(contentsOf: uuid.uuidString.utf8)
        case .attributes, .field: writeJSON(into: &out, options: options)
        }
    }

    /// Appends the JSON rendering: strings, booleans, numbers (`null` for
    /// non-finite doubles), datetimes as ISO strings (numbers with `epoch`),
    /// base64 text for bytes, UUID strings, objects for maps, XML strings for elements.
    public func writeJSON(into out: inout [UInt8], options: RenderOptions = RenderOptions()) {
        switch self {
        case .element(let element):
            var xml: [UInt8] = []
            var plain = options
            plain.highlight = nil
            XMLSerializer(options: plain).write(element, into: &xml)
            JSONWriter.string(String(decoding: xml, as: UTF8.self), into: &out)
        case .string(let string): JSONWriter.string(string, into: &out)
        case .bool, .int, .uint: writeText(into: &out, options: options)
        case .double(let value):
            out.append(contentsOf: (value.isFinite ? formatDouble(value) : "null").utf8)
        case .dateTime(let value):
            if options.epoch { out.append(contentsOf: value.epochString.utf8) }
            else { JSONWriter.string(value.iso8601, into: &out) }
        case .data(let bytes): JSONWriter.string(Data(bytes).base64EncodedString(), into: &out)
        case .uuid(let uuid): JSONWriter.string(uuid.uuidString, into: &out)
        case .attributes(let pairs): JSONWriter.object(pairs, into: &out)
        case .field(let field): field.writeJSON(into: &out)
        }
    }

    /// The text rendering as a string (bytes that are not UTF-8 are replaced).
    public var text: String {
        var out: [UInt8] = []
        writeText(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The JSON rendering as a string.
    public var json: String {
        var out: [UInt8] = []
        writeJSON(into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension FieldDescription {
    func writeJSON(into out: inout [UInt8]) {
        var object = JSONObjectWriter(into: &out)
        object.member("name", string: name, into: &out)
        if let type { object.member("type", string: type, into: &out) }
        if let value { object.member("value", string: value, into: &out) }
        object.key("values", into: &out)
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.string(value, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        object.key("options", into: &out)
        JSONWriter.object(options, into: &out)
        if let desc { object.member("desc", string: desc, into: &out) }
        object.member("required", literal: required ? "true" : "false", into: &out)
        object.close(into: &out)
    }
}

/// Integral values without a fraction (`3`, `100000000000000000`), others shortest
/// round-trip (`1.5`, `1e+20` beyond Int64);
/// `inf`, `-inf`, `nan`.
func formatDouble(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    if value == value.rounded() && abs(value) < 9.2e18 {   // within Int64: all its digits
        return (value.sign == .minus && value == 0 ? "-" : "") + String(Int64(value))
    }
    return String(value)
}
