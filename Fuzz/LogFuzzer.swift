// libFuzzer target: arbitrary bytes as a log, read by the log reader as the
// command line reads logs. Seeded with the logs real software wrote
// (Tests/Fixtures/real-logs) and the examples of every format.
//
// Beyond "no crash, no hang, memory bounded" (libFuzzer's limits), it checks
// what stanzaq(1), LOGS, promises:
// - the log fed at once and fed in small pieces (their size taken from the
//   input) gives the same stanzas, with the same fields (line, time,
//   direction, session), and damage in both or in neither;
// - cut into two parts where a part may start (LogFormat.mayStartPart), the
//   second read by a reader started there, in the state the first handed on,
//   as a parallel search starts one:
//   where the search would keep the parts (the first reader at a clean cut,
//   the second depending on nothing before, their start tags faring as in
//   one reader), the parts' stanzas and damage are exactly the whole log's.

import Foundation
@testable import StanzaFuzz

/// A stanza as the output shows it: its XML and its fields.
private func render(_ element: Element, _ source: StanzaSource) -> String {
    "\(source.line) \(source.time ?? "-") \(source.direction.map { "\($0)" } ?? "-") \(source.session ?? "-") \(element.xmlString())"
}

private struct Reading: Equatable {
    var stanzas: [String] = []
    var damage: [String] = []
}

/// Reads `bytes` whole: at once (`chunk` 0) or in pieces of `chunk` bytes.
private func read(_ bytes: UnsafeRawBufferPointer, chunk: Int, format: LogFormat? = nil) -> (Reading, LogReader) {
    var reading = Reading()
    let reader = LogReader(format: format, handler: { reading.stanzas.append(render($0, $1)); return true },
                           damage: { reading.damage.append($0.description) })
    if chunk == 0 {
        reader.feed(bytes)
    } else {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            reader.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
    }
    reader.finish()
    return (reading, reader)
}

/// The line starts of `bytes` where a part may start, with their line numbers.
private func partStarts(_ bytes: UnsafeRawBufferPointer, format: LogFormat) -> [(offset: Int, line: Int)] {
    let all = bytes.bindMemory(to: UInt8.self)
    var starts: [(offset: Int, line: Int)] = []
    var start = 0, line = 1
    while let newline = all[start...].firstIndex(of: 0x0A), let end = all[(newline + 1)...].firstIndex(of: 0x0A) {
        line += 1
        if format.mayStartPart(at: UnsafeBufferPointer(rebasing: all[(newline + 1)..<end]),
                               after: UnsafeBufferPointer(rebasing: all[start..<newline])) {
            starts.append((newline + 1, line))
        }
        start = newline + 1
    }
    return starts
}

/// Reads `bytes` as two parts cut at `cut`, as a parallel search does; `nil` if
/// the search would read the log whole instead.
private func readInParts(_ bytes: UnsafeRawBufferPointer, format: LogFormat, cut: (offset: Int, line: Int)) -> Reading? {
    var reading = Reading()
    let first = LogReader(format: format, handler: { reading.stanzas.append(render($0, $1)); return true },
                          damage: { reading.damage.append($0.description) })
    first.recordsCuts = true
    first.feed(UnsafeRawBufferPointer(rebasing: bytes[..<cut.offset]))
    first.settleAtCut()
    guard first.isAtCleanCut, first.format == format, let handedOn = first.cutLog.end else { return nil }
    let second = LogReader(format: format, handler: { reading.stanzas.append(render($0, $1)); return true },
                           damage: { reading.damage.append($0.description) })
    second.continueInNewFile(linesBefore: cut.line - 1)
    second.startsMidLog = true
    second.recordsCuts = true
    // Started as a parallel search starts a part whose state the producer guessed right.
    second.resume(from: handedOn)
    second.feed(UnsafeRawBufferPointer(rebasing: bytes[cut.offset...]))
    second.finish()
    guard !second.dependsOnEarlierLines else { return nil }
    let state = LogCutState()
    guard state.apply(first.cutLog), state.apply(second.cutLog) else { return nil }
    return reading
}

@_cdecl("LLVMFuzzerTestOneInput")
public func logFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let (whole, reader) = read(bytes, chunk: 0)
    // Small pieces, their size taken from the input so that every boundary is tried.
    let chunk = size == 0 ? 1 : Int(data[size - 1] % 13) + 1
    let (pieces, _) = read(bytes, chunk: chunk)
    if whole.stanzas != pieces.stanzas || whole.damage.isEmpty != pieces.damage.isEmpty {
        fatalError("""
            feeding in pieces of \(chunk) differs from feeding at once:
            at once: \(whole.stanzas.count) stanzas, damage \(whole.damage)
            in pieces: \(pieces.stanzas.count) stanzas, damage \(pieces.damage)
            first difference: \(zip(whole.stanzas, pieces.stanzas).first { $0 != $1 }.map { "\($0)\n  vs\n\($1)" } ?? "-")
            """)
    }
    guard let format = reader.format else { return 0 }
    let starts = partStarts(bytes, format: format)
    guard !starts.isEmpty else { return 0 }
    let cut = starts[Int(data[0]) % starts.count]
    if let parts = readInParts(bytes, format: format, cut: cut), parts != whole {
        fatalError("""
            read in two parts cut at line \(cut.line) (\(format)), kept, differs from reading whole:
            whole: \(whole.stanzas.count) stanzas, damage \(whole.damage)
            parts: \(parts.stanzas.count) stanzas, damage \(parts.damage)
            first difference: \(zip(whole.stanzas, parts.stanzas).first { $0 != $1 }.map { "\($0)\n  vs\n\($1)" } ?? "-")
            """)
    }
    return 0
}
