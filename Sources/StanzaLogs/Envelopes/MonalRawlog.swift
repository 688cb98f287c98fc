#if canImport(StanzaXML)
import StanzaXML
#endif

/// Monal's own log file, `Monal yyyy-MM-dd--HH-mm-ss-SSS.rawlog` (gzip'd as
/// `*.rawlog.gz` in its crash reports): each entry a 4-byte big-endian length,
/// then that many bytes of a JSON object (Monal/Classes/MLLogFileManager.m,
/// `dataForString:originatingFromMessage:`; HelperTools.m,
/// `convertLogmessageToJsonData`). The program's text is its `message` (Monal's
/// log messages: ``LogFormat/monal``); its source the process (`tag.processName`,
/// `tag.processID`: the app and its extensions write into the same file) and its
/// connection (`queueLabel`, `receiveQueue[ACCOUNT:ID]`); the time its
/// `timestamp`; its level, place in the code and function are fields.
///
/// Damage as Monal's own reader (DebugTools' rawlog.py) meets it: a length that
/// cannot be right is skipped to the next place an entry can start, reported
/// once; a last entry cut off is reported, the entries before it read. An
/// entry's number stands for its line in messages and `--fields line`.
enum MonalRawlog: EnvelopeDefinition {
    static let name = "monal-rawlog"
    static var innerFormat: LogFormat? { .monal }

    /// Monal asserts that an entry is shorter than 2^26 bytes.
    static let maximumLength = 1 << 26

    static func recognises(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Bool? {
        guard head.count >= 5 else { return atEnd ? false : nil }
        return mayStartEntry(head, at: 0)
    }

    /// Whether an entry may start at `offset`: a length Monal writes, then `{`.
    static func mayStartEntry(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset + 5 <= bytes.count else { return false }
        let length = entryLength(bytes, at: offset)
        return length >= 2 && length < maximumLength && bytes[offset + 4] == UInt8(ascii: "{")
    }

    static func entryLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }

    static func makeDecoder() -> any EnvelopeDecoder { MonalRawlogDecoder() }

    /// The entry of a JSON object Monal wrote, or `nil` if it is none.
    static func entry(of json: UnsafeBufferPointer<UInt8>, number: Int) -> EnvelopeEntry? {
        guard let members = JSONRowDecoder.decodeObject(json) else { return nil }
        func value(_ key: String) -> [UInt8]? { members.first { $0.key == key }?.value }
        func text(_ key: String) -> String? { value(key).map { String(decoding: $0, as: UTF8.self) } }
        guard let message = value("message") else { return nil }
        var tag: [String: String] = [:]
        if let nested = value("tag"), let decoded = nested.withUnsafeBufferPointer(JSONRowDecoder.decodeObject) {
            for member in decoded { tag[member.key] = String(decoding: member.value, as: UTF8.self) }
        }
        let process = [tag["processName"], tag["processID"].map { "[\($0)]" }].compactMap { $0 }.joined()
        var entry = EnvelopeEntry(source: process.isEmpty ? nil : process, time: text("timestamp"), text: message, line: number)
        entry.session = text("queueLabel").flatMap(connection)
        if let flag = text("flag").flatMap(Int.init) { entry.fields.append(LogField(name: "level", value: level(flag))) }
        if let file = text("file"), let line = text("line") {
            entry.fields.append(LogField(name: "location", value: (file.split(separator: "/").last.map(String.init) ?? file) + ":" + line))
        }
        if let function = text("function") { entry.fields.append(LogField(name: "function", value: function)) }
        return entry
    }

    /// `ACCOUNT:ID` of a connection's queue (`receiveQueue[1:5c0ffee1] (QOS: …)`,
    /// `sendQueue[…]`, `parseQueue[…]`: xmpp.m names them so).
    private static func connection(_ label: String) -> String? {
        guard label.hasPrefix("receiveQueue[") || label.hasPrefix("sendQueue[") || label.hasPrefix("parseQueue["),
              let open = label.firstIndex(of: "["), let close = label.firstIndex(of: "]"), open < close else { return nil }
        return String(label[label.index(after: open)..<close])
    }

    /// CocoaLumberjack's flag: the level's name.
    private static func level(_ flag: Int) -> String {
        if flag & 1 != 0 { return "error" }
        if flag & 2 != 0 { return "warning" }
        if flag & 4 != 0 { return "info" }
        if flag & 8 != 0 { return "debug" }
        return "verbose"
    }
}

/// Takes Monal's rawlog apart as its bytes come.
final class MonalRawlogDecoder: EnvelopeDecoder {
    private var buffer: [UInt8] = []
    /// Where the next entry starts in ``buffer``.
    private var offset = 0
    private var number = 0
    /// Skipping damage: where the skipped bytes started (their count is reported).
    private var skippingFrom: (entry: Int, length: Int, dropped: Int)?

    func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void) {
        buffer.append(contentsOf: bytes)
        read(emit, damage: damage, atEnd: false)
        if offset > 0 {
            buffer.removeFirst(offset)
            offset = 0
        }
    }

    func finish(_ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void) {
        read(emit, damage: damage, atEnd: true)
        let left = buffer.count - offset
        if let skipped = skippingFrom {
            damage(InputDamage(line: skipped.entry, column: 1, message: "a rawlog entry's length that cannot be right (\(skipped.length) bytes): "
                               + "no entry starts in the \(skipped.dropped + left) bytes after it"))
        } else if left > 0 {
            let have = left >= 4 ? buffer.withUnsafeBufferPointer { MonalRawlog.entryLength($0, at: offset) } : nil
            damage(InputDamage(line: number + 1, column: 1, message: "the last rawlog entry is cut off"
                               + (have.map { " (\(left - 4) of its \($0) bytes)" } ?? " (in its length)")))
        }
        buffer = []
        offset = 0
        skippingFrom = nil
    }

    /// (A new rawlog file starts with its first entry, numbered 1: the lines
    /// before it, counted in its bytes, are none of its entries.)
    func continueInNewFile(linesBefore: Int) {
        buffer = []
        offset = 0
        number = 0
        skippingFrom = nil
    }

    private func read(_ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void, atEnd: Bool) {
        buffer.withUnsafeBufferPointer { all in
            while true {
                if var skipped = skippingFrom {
                    guard let found = nextEntry(all, atEnd: atEnd, dropped: &skipped.dropped) else {
                        skippingFrom = skipped
                        return
                    }
                    offset = found
                    skippingFrom = nil
                    damage(InputDamage(line: skipped.entry, column: 1, message: "a rawlog entry's length that cannot be right "
                                       + "(\(skipped.length) bytes): skipped \(skipped.dropped) bytes to the next entry"))
                }
                guard offset + 5 <= all.count else { return }
                let length = MonalRawlog.entryLength(all, at: offset)
                guard MonalRawlog.mayStartEntry(all, at: offset) else {
                    number += 1
                    skippingFrom = (number, length, 4)
                    offset += 4
                    continue
                }
                guard offset + 4 + length <= all.count else { return }
                number += 1
                let json = UnsafeBufferPointer(rebasing: all[(offset + 4)..<(offset + 4 + length)])
                offset += 4 + length
                if let entry = MonalRawlog.entry(of: json, number: number) {
                    emit(entry)
                } else {
                    damage(InputDamage(line: number, column: 1, message: "a rawlog entry that is not Monal's JSON: skipped"))
                }
            }
        }
    }

    /// The next place from ``offset`` where an entry can start (its length, `{`,
    /// and `}` where that length ends), counting the bytes passed in `dropped`;
    /// `nil` if more bytes are needed to tell (``offset`` is then where to go on).
    private func nextEntry(_ all: UnsafeBufferPointer<UInt8>, atEnd: Bool, dropped: inout Int) -> Int? {
        while offset + 5 <= all.count {
            if MonalRawlog.mayStartEntry(all, at: offset) {
                let end = offset + 4 + MonalRawlog.entryLength(all, at: offset)
                if end <= all.count {
                    if all[end - 1] == UInt8(ascii: "}") { return offset }
                } else if !atEnd {
                    return nil
                }
            }
            offset += 1
            dropped += 1
        }
        return nil
    }
}

extension Envelope {
    public static let monalRawlog = Envelope(MonalRawlog.self)
}
