#if canImport(StanzaXML)
import StanzaXML
#endif

/// Calls `body` with `line` as the log readers read it: without the terminal
/// escape sequences (colours) some loggers write. Every reader of lines goes
/// through here, so a line is cleaned exactly once: an ESC that starts no
/// sequence (a colour code cut short) stays in the line as text, and cleaning
/// the result again would find it again.
@inline(__always)
func withTerminalEscapesRemoved<Result>(_ line: UnsafeBufferPointer<UInt8>,
                                        _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    guard line.firstIndex(of: 0x1B, from: 0) != nil else { return body(line) }
    return withoutTerminalEscapes(line).withUnsafeBufferPointer(body)
}

/// A line without the terminal escape sequences (`ESC [` … final byte) in it.
private func withoutTerminalEscapes(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(line.count)
    var index = 0
    while index < line.count {
        if line[index] == 0x1B, index + 1 < line.count, line[index + 1] == 0x5B {
            index += 2
            while index < line.count, !(line[index] >= 0x40 && line[index] <= 0x7E) { index += 1 }
            index += 1
        } else {
            out.append(line[index])
            index += 1
        }
    }
    return out
}
