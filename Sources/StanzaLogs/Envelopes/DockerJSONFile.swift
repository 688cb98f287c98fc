#if canImport(StanzaXML)
import StanzaXML
#endif

/// Docker's json-file log driver (`/var/lib/docker/containers/ID/ID-json.log`):
/// one JSON object a line, `{"log":"TEXT\n","stream":"stdout","time":"…"}`
/// (moby's daemon/logger/jsonfilelog). A line of the program's output longer
/// than 16 KiB is split over several objects, all but the last without the
/// `\n`. Each stream is a source of its own.
enum DockerJSONFile: FastLineEnvelope {
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

extension DockerJSONFile {
    /// A line exactly as Docker writes it, `{"log":"…","stream":"…","time":"…"}`
    /// (moby's jsonlog `MarshalJSONBuf`, in that order), taken apart without
    /// an entry; any other shape is left to ``entry(of:number:)``.
    static func take(_ line: UnsafeBufferPointer<UInt8>, text: inout [UInt8]) -> TakenLine? {
        let start = line.skippingBlanks(from: 0)
        guard line.has("{\"log\":\"", at: start) else { return nil }
        let mark = text.count
        var index = start + 7
        guard JSONRowDecoder.string(line, &index, into: &text), line.has(",\"stream\":\"", at: index) else { return nil }
        let stream = (index + 11)..<(line.firstIndex(of: 0x22, from: index + 11) ?? line.count)
        index = stream.upperBound + 1
        // The time, plain digits and punctuation, and the object's end.
        guard stream.upperBound < line.count, !line.holds(0x5C, in: stream), line.has(",\"time\":\"", at: index),
              let timeEnd = line.firstIndex(of: 0x22, from: index + 9), !line.holds(0x5C, in: (index + 9)..<timeEnd),
              timeEnd + 1 < line.count, line[timeEnd + 1] == 0x7D,
              line.skippingBlanks(from: timeEnd + 2) == line.count else { return nil }
        let partial = text.count == mark || text.last != 0x0A
        if !partial { text.removeLast() }
        if text.count > mark, text.last == 0x0D { text.removeLast() }
        return TakenLine(source: stream, facts: 0..<line.count, partial: partial)
    }
}

extension Envelope {
    public static let dockerJSON = Envelope(DockerJSONFile.self)
}
