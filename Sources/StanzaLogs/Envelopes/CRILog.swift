#if canImport(StanzaXML)
import StanzaXML
#endif

/// The log a container runtime writes on a Kubernetes node
/// (`/var/log/pods/…/N.log`, the CRI logging format): `TIME STREAM TAG TEXT`,
/// TIME in RFC 3339 with nanoseconds, STREAM `stdout` or `stderr`, TAG `F` for
/// a full line or `P` for a part of one that the next entry of the stream
/// continues. Each stream is a source of its own.
enum CRILog: PlainLineEnvelope {
    static let name = "cri"
    static let lineName = "a CRI log"

    static func plainEntry(of line: UnsafeBufferPointer<UInt8>) -> PlainEntry? {
        guard let timeEnd = rfc3339TimeEnd(in: line, from: 0), timeEnd < line.count, line[timeEnd] == 0x20 else { return nil }
        var index = timeEnd + 1
        guard line.has("stdout ", at: index) || line.has("stderr ", at: index) else { return nil }
        let stream = index..<(index + 6)
        index += 7
        // The tags, separated by ':' (`F`, `P`); then a space and the text.
        let tagStart = index
        while index < line.count, line[index] != 0x20 { index += 1 }
        guard index > tagStart else { return nil }
        return PlainEntry(text: min(index + 1, line.count), source: stream, time: 0..<timeEnd,
                          partial: line[tagStart] == UInt8(ascii: "P"))
    }
}

extension Envelope {
    public static let cri = Envelope(CRILog.self)
}
