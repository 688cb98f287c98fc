#if canImport(StanzaXML)
import StanzaXML
#endif

/// `docker logs -t` and `kubectl logs --timestamps`: each line of the program's
/// output after the time the runtime received it, in RFC 3339 with nanoseconds
/// and a space (moby's daemon/logger `RFC3339NanoFixed`, kubectl's `RFC3339Nano`).
enum DockerTimestamps: LineEnvelope {
    static let name = "docker"
    static let lineName = "a docker logs -t"

    static func entry(of line: UnsafeBufferPointer<UInt8>, number: Int) -> EnvelopeEntry? {
        guard let end = rfc3339TimeEnd(in: line, from: 0) else { return nil }
        if end == line.count { return EnvelopeEntry(line, text: end..<end, number: number, time: 0..<end) }
        guard line[end] == 0x20 else { return nil }
        return EnvelopeEntry(line, text: (end + 1)..<line.count, number: number, time: 0..<end)
    }
}

extension Envelope {
    public static let dockerTimestamps = Envelope(DockerTimestamps.self)
}
