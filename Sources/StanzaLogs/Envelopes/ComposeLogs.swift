#if canImport(StanzaXML)
import StanzaXML
#endif

/// `docker compose logs` (and `podman-compose logs`): each line after its
/// service's container name (`prosody-1`), padded to the longest name, and ` | `
/// (compose's cmd/formatter/logs.go, `%-*s | `); coloured on a terminal. With
/// `-t`, the time follows in RFC 3339. Each container is a source of its own.
enum ComposeLogs: PlainLineEnvelope {
    static let name = "compose"
    static let lineName = "a docker compose logs"

    static func plainEntry(of line: UnsafeBufferPointer<UInt8>) -> PlainEntry? {
        var index = skippingColour(line, from: 0)
        let nameStart = index
        while index < line.count, isNameByte(line[index]) { index += 1 }
        let nameEnd = index
        guard nameEnd > nameStart, endsWithReplicaNumber(line, nameStart..<nameEnd) else { return nil }
        index = skippingColour(line, from: index)
        while index < line.count, line[index] == 0x20 { index += 1 }
        guard index < line.count, line[index] == UInt8(ascii: "|") else { return nil }
        index = skippingColour(line, from: index + 1)
        if index < line.count, line[index] == 0x20 { index += 1 }
        if let timeEnd = rfc3339TimeEnd(in: line, from: index), timeEnd == line.count || line[timeEnd] == 0x20 {
            return PlainEntry(text: min(timeEnd + 1, line.count), source: nameStart..<nameEnd, time: index..<timeEnd)
        }
        return PlainEntry(text: index, source: nameStart..<nameEnd)
    }

    /// Whether a container's name ends with its replica's number (`prosody-1`,
    /// docker-compose 1's `project_prosody_1`), as compose names every container.
    private static func endsWithReplicaNumber(_ line: UnsafeBufferPointer<UInt8>, _ name: Range<Int>) -> Bool {
        var index = name.upperBound
        while index > name.lowerBound, isASCIIDigit(line[index - 1]) { index -= 1 }
        return index < name.upperBound && index - 1 > name.lowerBound && (line[index - 1] == 0x2D || line[index - 1] == 0x5F)
    }

    /// A container's name: letters, digits, `_`, `.` and `-`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || isASCIIDigit(byte) || byte == 0x5F || byte == 0x2E || byte == 0x2D
    }

    /// Past the colour escapes (`ESC [ … m`) at `from`.
    private static func skippingColour(_ line: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var index = from
        while index + 1 < line.count, line[index] == 0x1B, line[index + 1] == UInt8(ascii: "[") {
            var end = index + 2
            while end < line.count, isASCIIDigit(line[end]) || line[end] == UInt8(ascii: ";") { end += 1 }
            guard end < line.count, line[end] == UInt8(ascii: "m") else { return index }
            index = end + 1
        }
        return index
    }
}

extension Envelope {
    public static let compose = Envelope(ComposeLogs.self)
}
