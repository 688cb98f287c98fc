#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CByteSearch
#if canImport(StanzaXML)
import StanzaXML
#endif

/// How many line feeds `bytes` holds.
public func countNewlines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    return stanzaq_count_byte(base, bytes.count, 0x0A)
}

/// Small searches over the bytes of a line, for the log parsers.
extension UnsafeBufferPointer where Element == UInt8 {
    /// The offset of the first occurrence of `needle` at or after `from`.
    func firstRange(of needle: StaticString, from: Int = 0) -> Range<Int>? {
        let length = needle.utf8CodeUnitCount
        guard from >= 0, count - from >= length, let base = baseAddress else { return nil }
        // CByteSearch's search, sixteen places at a time by the needle's first and
        // last bytes: memchr for the first byte stopped at every `:` of a time stamp
        // before nbxmpp's `::::: DATA `, a call for each.
        let found = stanzaq_find_literal(base, from, count, needle.utf8Start, length, 0)
        return found < count ? found..<(found + length) : nil
    }

    /// Whether the bytes at `offset` are `prefix`.
    // (Inlined, a comparison with a literal is a few compares of bytes known at
    // compile time; a call of memcmp costs more than the comparison, and a
    // Prosody log line asks this several times.)
    @inline(__always)
    func has(_ prefix: StaticString, at offset: Int = 0) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard offset >= 0, count - offset >= length, let base = baseAddress else { return false }
        let needle = prefix.utf8Start
        for index in 0..<length where base[offset + index] != needle[index] { return false }
        return true
    }

    /// Whether `byte` is in `range`.
    func holds(_ byte: UInt8, in range: Range<Int>) -> Bool {
        guard !range.isEmpty, let base = baseAddress else { return false }
        return memchr(base + range.lowerBound, Int32(byte), range.count) != nil
    }

    /// Whether the bytes are `other`'s.
    func isSame(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (count == 0 || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }

    /// The first offset at or after `from` holding `byte`.
    func firstIndex(of byte: UInt8, from: Int) -> Int? {
        guard from < count, let base = baseAddress else { return nil }
        guard let found = memchr(base + from, Int32(byte), count - from) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The text of `range` as a String.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[range]), as: UTF8.self)
    }

    /// `range` without the spaces and tabs at its ends.
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, self[lower] == 0x20 || self[lower] == 0x09 { lower += 1 }
        while upper > lower, self[upper - 1] == 0x20 || self[upper - 1] == 0x09 || self[upper - 1] == 0x0D { upper -= 1 }
        return lower..<upper
    }

    /// The offset of the first byte at or after `from` that is not a space or tab.
    func skippingBlanks(from: Int) -> Int {
        var index = from
        while index < count, self[index] == 0x20 || self[index] == 0x09 { index += 1 }
        return index
    }

    /// The end of the line's content: before a carriage return that ends it.
    var contentEnd: Int {
        count > 0 && self[count - 1] == 0x0D ? count - 1 : count
    }
}

@inline(__always) func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
@inline(__always) func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

/// The time at the start of a line, in the shapes loggers write it:
/// `2024-05-01 12:00:00.123`, `2024-05-01T12:00:00,123+02:00`, `12:00:00.1`,
/// `2024/05/01 12:00:00:123`, `2024-05-01 12:00:00:123` (CocoaLumberjack), `2024-05-01T12:00:00+0200` (journalctl),
/// `05-01 12:00:00.123` (logcat), `Nov 23 09:30:12` (Prosody, syslog).
/// Returns the range of the time, or `nil`.
func leadingTimestamp(in line: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Range<Int>? {
    var index = start
    // (The index is passed in, not captured: a local captured by a nested
    // function is checked for exclusive access at run time at every call, and
    // this is called for every line of a log.)
    func digits(_ n: Int, _ index: inout Int) -> Bool {
        guard index + n <= line.count else { return false }
        for offset in 0..<n where !isASCIIDigit(line[index + offset]) { return false }
        index += n
        return true
    }
    func byte(_ b: UInt8, _ index: inout Int) -> Bool {
        guard index < line.count, line[index] == b else { return false }
        index += 1
        return true
    }
    // A date: YYYY-MM-DD (or YYYY/MM/DD), MM-DD, Mon DD, or strftime's %x
    // (MM/DD/YY in the C locale, as Gajim's log has it; DD.MM.YY, and four-digit years).
    let dateStart = index
    if digits(4, &index) && (byte(0x2D, &index) || byte(0x2F, &index)) && digits(2, &index) && (byte(0x2D, &index) || byte(0x2F, &index)) && digits(2, &index) {
        guard index < line.count, line[index] == 0x20 || line[index] == 0x54 else { return nil }
        index += 1
    } else if let end = localeDate(line, from: dateStart) {
        index = end
    } else {
        index = dateStart
        if digits(2, &index) && byte(0x2D, &index) && digits(2, &index) && byte(0x20, &index) {
        } else {
            index = dateStart
            if index + 4 <= line.count, isASCIILetter(line[index]), isASCIILetter(line[index + 1]), isASCIILetter(line[index + 2]),
               line[index + 3] == 0x20 {
                index += 4
                if index < line.count, line[index] == 0x20 { index += 1 }
                guard index < line.count, isASCIIDigit(line[index]) else { return nil }
                index += 1
                if index < line.count, isASCIIDigit(line[index]) { index += 1 }
                guard byte(0x20, &index) else { return nil }
            } else {
                index = dateStart
            }
        }
    }
    // The time of day: HH:MM:SS, then a fraction and a zone.
    guard digits(2, &index) && byte(0x3A, &index) && digits(2, &index) && byte(0x3A, &index) && digits(2, &index) else { return nil }
    if index < line.count, line[index] == 0x2E || line[index] == 0x2C || line[index] == 0x3A {
        let mark = index
        index += 1
        if !digits(1, &index) { index = mark } else { while index < line.count, isASCIIDigit(line[index]) { index += 1 } }
    }
    if index < line.count, line[index] == 0x5A { index += 1 }
    else if index < line.count, line[index] == 0x2B || line[index] == 0x2D {
        let mark = index
        index += 1
        // +02:00, or +0200 (journalctl's short-iso).
        if digits(2, &index) {
            _ = byte(0x3A, &index)
            if !digits(2, &index) { index = mark }
        } else {
            index = mark
        }
    }
    return start..<index
}

/// Where strftime's `%x` date at `start` ends, after its blank: `MM/DD/YY` or
/// `DD.MM.YY`, the year of two digits or four.
private func localeDate(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard start + 9 <= line.count, isASCIIDigit(line[start]), isASCIIDigit(line[start + 1]),
          line[start + 2] == 0x2F || line[start + 2] == 0x2E, isASCIIDigit(line[start + 3]), isASCIIDigit(line[start + 4]),
          line[start + 5] == line[start + 2], isASCIIDigit(line[start + 6]), isASCIIDigit(line[start + 7]) else { return nil }
    var index = start + 8
    if index + 2 <= line.count, isASCIIDigit(line[index]), isASCIIDigit(line[index + 1]) { index += 2 }
    guard index < line.count, line[index] == 0x20 else { return nil }
    return index + 1
}
