#if canImport(StanzaXML)
import StanzaXML
#endif

/// Docker's json-file log driver (`/var/lib/docker/containers/ID/ID-json.log`):
/// one JSON object a line, `{"log":"TEXT\n","stream":"stdout","time":"…"}`
/// (moby's daemon/logger/jsonfilelog). A line of the program's output longer
/// than 16 KiB is split over several objects, all but the last without the
/// `\n`. Each stream is a source of its own.
enum DockerJSONFile: LineEnvelope {
    static let name = "docker-json"
    static let lineName = "a Docker json-file"

    static func entry(of line: UnsafeBufferPointer<UInt8>, number: Int) -> EnvelopeEntry? {
        let start = line.skippingBlanks(from: 0)
        guard line.has("{\"log\":", at: start), let members = JSONRowDecoder.decodeObject(line),
              var text = members.first(where: { $0.key == "log" })?.value else { return nil }
        let partial = text.last != 0x0A
        if !partial { text.removeLast() }
        if text.last == 0x0D { text.removeLast() }
        let stream = members.first { $0.key == "stream" }.map { String(decoding: $0.value, as: UTF8.self) }
        let time = members.first { $0.key == "time" }.map { String(decoding: $0.value, as: UTF8.self) }
        var entry = EnvelopeEntry(source: stream, time: time, text: text, line: number)
        entry.partial = partial
        return entry
    }
}

extension Envelope {
    public static let dockerJSON = Envelope(DockerJSONFile.self)
}
