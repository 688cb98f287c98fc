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
//   one reader), the parts' stanzas and damage are exactly the whole log's;
// - in an envelope (the one it is in, or one its first byte picks), fed at
//   once and in small pieces, the same stanzas with the same fields;
// - searched as the command line searches it with two threads
//   (`stanzaq --threads 2 --read-all -s --fields line,time,direction,session /`,
//   StanzaqKit's parallel search), cut into parts of several small sizes
//   taken from the input (STANZAQ_PART_SIZE), the output, the messages and
//   the exit status are exactly those of one thread: whether each part is
//   kept or the log read again from its start by one reader.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
    first.keepLedger()
    first.feed(UnsafeRawBufferPointer(rebasing: bytes[..<cut.offset]))
    first.handOff()
    guard first.canHandOff, first.format == format, let handedOn = first.ledger?.end else { return nil }
    // Started as a parallel search starts a part whose state the producer guessed right.
    let second = LogReader(resuming: LogCheckpoint(unknownPastAt: cut.line, format: format, handover: handedOn),
                           handler: { reading.stanzas.append(render($0, $1)); return true },
                           damage: { reading.damage.append($0.description) })
    second.keepLedger()
    second.feed(UnsafeRawBufferPointer(rebasing: bytes[cut.offset...]))
    second.finish()
    guard !second.dependsOnUnknownPast, let firstLedger = first.ledger, let secondLedger = second.ledger else { return nil }
    let history = LogHistory()
    guard history.apply(firstLedger), history.apply(secondLedger) else { return nil }
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
    compareEnvelopeReadings(bytes, chunk: chunk)
    compareWithThreads(bytes)
    return 0
}

// MARK: - Envelopes

/// Reads `bytes` in `envelope`: at once (`chunk` 0) or in pieces of `chunk` bytes.
private func readEnveloped(_ bytes: UnsafeRawBufferPointer, envelope: Envelope, chunk: Int) -> Reading {
    var reading = Reading()
    let reader = EnvelopeReader(envelope: envelope, handler: { element, source in
        reading.stanzas.append(render(element, source) + " " + source.fields.map { "\($0.name)=\($0.value)" }.joined(separator: " "))
        return true
    }, damage: { reading.damage.append($0.description) })
    var offset = 0
    repeat {
        let end = chunk == 0 ? bytes.count : min(offset + chunk, bytes.count)
        try? reader.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
        offset = end
    } while offset < bytes.count
    try? reader.finish()
    return reading
}

/// A log in an envelope (the one its first bytes are in, or, tried on any
/// input, the first byte's choice of envelope) reads the same stanzas, with the
/// same fields, and damage in both or neither, fed at once and in pieces.
private func compareEnvelopeReadings(_ bytes: UnsafeRawBufferPointer, chunk: Int) {
    let head = UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self).prefix(4096))
    let recognised: Envelope?
    if case .some(.some(let envelope)) = Envelope.recognised(head, atEnd: bytes.count <= 4096) {
        recognised = envelope
    } else {
        recognised = bytes.isEmpty ? nil : Envelope.allCases[Int(bytes[0]) % Envelope.allCases.count]
    }
    guard let envelope = recognised else { return }
    let whole = readEnveloped(bytes, envelope: envelope, chunk: 0)
    let pieces = readEnveloped(bytes, envelope: envelope, chunk: chunk)
    if whole.stanzas != pieces.stanzas || whole.damage.isEmpty != pieces.damage.isEmpty {
        fatalError("""
            in the \(envelope) envelope, feeding in pieces of \(chunk) differs from feeding at once:
            at once: \(whole.stanzas.count) stanzas, damage \(whole.damage)
            in pieces: \(pieces.stanzas.count) stanzas, damage \(pieces.damage)
            first difference: \(zip(whole.stanzas, pieces.stanzas).first { $0 != $1 }.map { "\($0)\n  vs\n\($1)" } ?? "-")
            """)
    }
}

// MARK: - The command line's parallel search

/// What a search of a file prints: its output, its messages and its exit status.
private struct SearchRun: Equatable {
    var output: String
    var messages: String
    var status: Int32
}

/// The file the log is written to for the searches (they read files), made
/// once and rewritten for each input.
private let searchFile: (descriptor: Int32, path: String) = {
    var template = Array("/tmp/stanzaq-log-fuzzer-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(descriptor >= 0, "cannot make the log fuzzer's file")
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    unlink(path)
    // The search opens it by a path: its descriptor's, which outlives the name.
    return (descriptor, "/proc/self/fd/\(descriptor)")
}()

/// Every stanza selected, with every field a log may give (`-s --fields line,time,direction,session /`).
private let selectEverything = try! Query.compile(["/"])

/// Searches the log in ``searchFile`` as `stanzaq --threads THREADS --read-all -s
/// --fields line,time,direction,session /` does, cut into parts of `partSize`
/// (as `STANZAQ_PART_SIZE` sets it).
private func search(threads: Int, partSize: Int) -> SearchRun {
    var options = SearchOptions(queries: selectEverything)
    options.report = .stanzas
    options.fields = LogFieldName.known
    options.readAll = true
    options.threads = threads
    options.parallel.partSize = partSize
    let output = Output.inMemory()
    let diagnostics = Diagnostics.inMemory()
    let searcher = Searcher(options: options, sink: options.makeSink(output: output), diagnostics: diagnostics, output: output)
    do {
        try searcher.run(paths: [searchFile.path])
        try output.flush()
    } catch {
        fatalError("writing to memory failed: \(error)")
    }
    return SearchRun(output: output.text, messages: diagnostics.text, status: searcher.status)
}

/// The part sizes tried: several, small (a log's parts are four times as
/// large, and the file at least two of them), from a hash of the input, so
/// that each input is cut at other lines (the first line a part may start at
/// past each size), and the same ones each time it is run.
private func partSizes(_ bytes: UnsafeRawBufferPointer) -> [Int] {
    let largest = bytes.count / 8
    guard largest >= 1 else { return [] }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    var sizes: [Int] = []
    for _ in 0..<3 {
        // Up to a power of two picked first: small sizes as likely as large ones.
        let bits = Int.bitWidth - largest.leadingZeroBitCount
        let limit = min(largest, 1 << (Int(hash % UInt64(bits)) + 1))
        let size = Int((hash >> 8) % UInt64(limit)) + 1
        if !sizes.contains(size) { sizes.append(size) }
        hash = (hash ^ (hash >> 29)) &* 0xBF58_476D_1CE4_E5B9
    }
    return sizes
}

/// The log searched with two threads, in parts of several small sizes, prints
/// exactly what one thread prints (stanzaq(1), "Parallelism").
private func compareWithThreads(_ bytes: UnsafeRawBufferPointer) {
    let sizes = partSizes(bytes)
    guard !sizes.isEmpty else { return }
    let file = searchFile.descriptor
    guard ftruncate(file, 0) == 0, pwrite(file, bytes.baseAddress, bytes.count, 0) == bytes.count else {
        fatalError("cannot write the log fuzzer's file: errno \(errno)")
    }
    let one = search(threads: 1, partSize: 1 << 18)
    for size in sizes {
        let two = search(threads: 2, partSize: size)
        guard two != one else { continue }
        let oneLines = one.output.split(separator: "\n", omittingEmptySubsequences: false)
        let twoLines = two.output.split(separator: "\n", omittingEmptySubsequences: false)
        fatalError("""
            searched with two threads in parts of \(size) (STANZAQ_PART_SIZE=\(size) stanzaq --threads 2 --read-all \
            -s --fields line,time,direction,session /) differs from one thread:
            one thread: \(oneLines.count - 1) lines, status \(one.status), messages \(one.messages.debugDescription)
            two threads: \(twoLines.count - 1) lines, status \(two.status), messages \(two.messages.debugDescription)
            first difference: \(zip(oneLines, twoLines).first { $0 != $1 }.map { "\($0)\n  vs\n\($1)" } ?? "-")
            """)
    }
}
