#if canImport(StanzaXML)
import StanzaXML
#endif

/// `docker logs -t` and `kubectl logs --timestamps`: each line of the program's
/// output after the time the runtime received it, in RFC 3339 with nanoseconds
/// and a space (moby's daemon/logger `RFC3339NanoFixed`, kubectl's `RFC3339Nano`).
/// A line of Openfire's XML Debugger, which starts with its own time, is none.
enum DockerTimestamps: PlainLineEnvelope {
    static let name = "docker"
    static let lineName = "a docker logs -t"

    static func plainEntry(of line: UnsafeBufferPointer<UInt8>) -> PlainEntry? {
        guard let end = rfc3339TimeEnd(in: line, from: 0) else { return nil }
        if end == line.count { return PlainEntry(text: end, time: 0..<end) }
        guard line[end] == 0x20 else { return nil }
        // Openfire's XML Debugger starts its own lines with such a time, then ` - `.
        if line.has(" - ", at: end), OpenfireDebuggerParser.printed(line) { return nil }
        return PlainEntry(text: end + 1, time: 0..<end)
    }
}

extension Envelope {
    public static let dockerTimestamps = Envelope(DockerTimestamps.self)
}
