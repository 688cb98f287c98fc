import CByteSearch

/// What a search that skips records looks for in a log (stanzaq(1), "Skipping
/// what cannot match"), as the log's format writes it (``RecordSpelling``): a
/// record whose stanza bytes hold a needle holds one of its spellings where
/// ``mayBeStanzaBytes(_:)`` says a stanza's bytes may be, or is at a place one
/// of ``marks`` marks and ``mustRead(_:)`` keeps.
public struct LogNeedles: @unchecked Sendable {
    public typealias Needle = (bytes: [UInt8], caseless: Bool)
    /// The needles, as a stanza holds them.
    public let raw: [Needle]
    /// The format's marks: places where a needle may be hidden, checked.
    public let marks: [[UInt8]]
    /// Runs of the format's own lines that change what its parser carries,
    /// noted where skipped (``RecordSpelling/noted``).
    public let noted: [[UInt8]]
    private let spelling: RecordSpelling

    /// `nil` if records of the format may not be skipped for these needles.
    public init?(_ needles: [Needle], format: LogFormat) {
        guard let spelling = format.recordSpelling,
              !needles.contains(where: { spelling.spellings($0.bytes) == nil }) else { return nil }
        raw = needles
        marks = spelling.marks
        noted = spelling.noted
        self.spelling = spelling
    }

    /// The runs the format may write a needle's `bytes` as.
    public func spellings(of bytes: [UInt8]) -> [[UInt8]] {
        spelling.spellings(bytes) ?? []
    }

    /// Whether the format writes quotes as they are: a value is then between
    /// them in the log as in the stanza.
    public var writesQuotes: Bool {
        spellings(of: [0x22]) == [[0x22]] && spellings(of: [0x27]) == [[0x27]]
    }

    /// Whether the place marked by the mark `bytes` ends with (``marks``) may
    /// hide a needle, and is read (``RecordSpelling/mustRead``).
    public func mustRead(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        spelling.mustRead(bytes, self)
    }

    /// Whether the format tells where a needle found may be a stanza's bytes
    /// (``mayBeStanzaBytes(_:)``).
    public var checksHits: Bool { spelling.mayBeStanzaBytes != nil }

    /// Whether a needle found at the end of `line` (its line up to it) may be
    /// in a stanza's bytes (``RecordSpelling/mayBeStanzaBytes``).
    public func mayBeStanzaBytes(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        spelling.mayBeStanzaBytes?(line) ?? true
    }

    /// Whether a stanza's `bytes` hold a needle.
    public func holdsNeedle(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return raw.contains { needle in
            needle.bytes.withUnsafeBufferPointer {
                stanzaq_find_literal(base, 0, bytes.count, $0.baseAddress!, $0.count, needle.caseless ? 1 : 0) < bytes.count
            }
        }
    }
}
