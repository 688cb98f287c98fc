import FoundationEssentials

/// How results are written (stanzaq(1), OUTPUT).
public struct RenderOptions: Sendable {
    /// Datetimes as seconds since 1970 instead of ISO 8601.
    public var epoch: Bool
    /// Elements with indentation.
    public var pretty: Bool
    /// Colours for elements, or `nil`.
    public var highlight: XMLHighlight?

    public init(epoch: Bool = false, pretty: Bool = false, highlight: XMLHighlight? = nil) {
        self.epoch = epoch
        self.pretty = pretty
        self.highlight = highlight
    }
}

extension QueryValue {
    /// Appends the text rendering: XML for elements, raw strings, `true`/`false`,
    /// decimal numbers, ISO 8601 (or epoch) datetimes, raw bytes for base64,
    /// upper-case UUIDs, one-line JSON for maps and field descriptions.
    public func writeText(into out: inout [UInt8], options: RenderOptions = RenderOptions()) {
        switch self {
        case .element(let element):
            XMLSerializer(options: .init(pretty: options.pretty, highlight: options.highlight)).write(element, into: &out)
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
            XMLSerializer(options: .init(pretty: options.pretty)).write(element, into: &xml)
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
        func key(_ name: String) {
            if out.last != UInt8(ascii: "{") { out.append(UInt8(ascii: ",")) }
            JSONWriter.string(name, into: &out)
            out.append(UInt8(ascii: ":"))
        }
        out.append(UInt8(ascii: "{"))
        key("name"); JSONWriter.string(name, into: &out)
        if let type { key("type"); JSONWriter.string(type, into: &out) }
        if let value { key("value"); JSONWriter.string(value, into: &out) }
        key("values")
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.string(value, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        key("options"); JSONWriter.object(options, into: &out)
        if let desc { key("desc"); JSONWriter.string(desc, into: &out) }
        key("required"); out.append(contentsOf: (required ? "true" : "false").utf8)
        out.append(UInt8(ascii: "}"))
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
