#if canImport(StanzaXML)
import StanzaXML
#endif

/// A JSON log line's object, for the envelopes of JSON logs: its members,
/// whether each is a string, and its nested objects flattened to dotted keys
/// (`_source.message`, `kubernetes.pod_name`).
struct JSONLogObject {
    struct Member {
        var value: [UInt8]
        /// A string (unescaped), or a number, literal, array or object as written.
        var isString: Bool
    }

    private(set) var members: [(key: String, member: Member)] = []

    /// The object of `line`, or `nil` if it is none; objects nested up to
    /// `depth` deep are flattened into it.
    init?(_ line: UnsafeBufferPointer<UInt8>, depth: Int = 0) {
        guard let decoded = JSONRowDecoder.decodeObject(line) else { return nil }
        add(decoded, of: line, prefix: "", depth: depth)
    }

    private mutating func add(_ decoded: [(key: String, value: [UInt8], start: Int)], of line: UnsafeBufferPointer<UInt8>,
                              prefix: String, depth: Int) {
        for (key, value, start) in decoded {
            let isString = start > 0 && line[start - 1] == 0x22
            members.append((prefix + key, Member(value: value, isString: isString)))
            if !isString, depth > 0, value.first == 0x7B,
               let nested = value.withUnsafeBufferPointer({ JSONRowDecoder.decodeObject($0) }) {
                value.withUnsafeBufferPointer { add(nested, of: $0, prefix: prefix + key + ".", depth: depth - 1) }
            }
        }
    }

    subscript(key: String) -> Member? { members.first { $0.key == key }?.member }

    /// The value of `key` as text: a string, or a number or literal as written.
    func text(_ key: String) -> String? {
        guard let member = self[key], member.isString || (member.value.first != 0x7B && member.value.first != 0x5B) else { return nil }
        return String(decoding: member.value, as: UTF8.self)
    }
}

/// The elements of a JSON array written `[ … ]`: each a string (unescaped) or
/// a number, literal or nested value as written; `nil` if it is no array.
func jsonArrayElements(_ bytes: [UInt8]) -> [JSONLogObject.Member]? {
    bytes.withUnsafeBufferPointer { text in
        var index = text.skippingJSONSpace(from: 0)
        guard index < text.count, text[index] == 0x5B else { return nil }
        index += 1
        var elements: [JSONLogObject.Member] = []
        while true {
            index = text.skippingJSONSpace(from: index)
            guard index < text.count else { return nil }
            switch text[index] {
            case 0x5D: return elements
            case 0x2C: index += 1
            case 0x22:
                guard let value = JSONRowDecoder.string(text, &index) else { return nil }
                elements.append(.init(value: value, isString: true))
            default:
                let start = index
                guard JSONRowDecoder.skipValue(text, &index) else { return nil }
                elements.append(.init(value: Array(text[text.trimmed(start..<index)]), isString: false))
            }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    fileprivate func skippingJSONSpace(from: Int) -> Int {
        var index = from
        while index < count, isXMLSpace(self[index]) { index += 1 }
        return index
    }
}

/// A time in microseconds since the epoch (the journal's), in RFC 3339, UTC.
func rfc3339(microseconds: UInt64) -> String {
    let seconds = Int64(microseconds / 1_000_000), fraction = Int(microseconds % 1_000_000)
    let secondOfDay = Int(seconds % 86_400)
    let (year, month, day) = civilFromDays(Int(seconds / 86_400))
    func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(secondOfDay / 3600, 2)):"
        + "\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2)).\(padded(fraction, 6))Z"
}
