import CByteSearch
#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Whether a place where a needle was found counts, as a log's format says
/// (``RecordSpelling``): given the text searched (the bytes held, from some
/// place before), and where the needle starts and ends in it. Needles are
/// equal with the same check only.
final class NeedleCheck: Equatable {
    let counts: (_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool

    init(_ counts: @escaping (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) {
        self.counts = counts
    }

    static func == (first: NeedleCheck, second: NeedleCheck) -> Bool { first === second }
}

extension LogFormat {
    /// The needles of a search that skips records, as the format writes them
    /// (``LogNeedles``): each needle's spellings, found where the format says a
    /// stanza's bytes may be, and the format's marks among the hits, each a
    /// place to read where the format says so. `nil` if its records are not
    /// skipped for these needles. (A format that writes stanzas as they are
    /// gets its needles back.)
    func writtenNeedles(hits: [Needle], others: [Needle]) -> (hits: [Needle], others: [Needle])? {
        guard let log = LogNeedles((hits + others).map { ($0.bytes, $0.caseless) }, format: self) else { return nil }
        // A needle is found on its line, after its start (where it is not held, it counts).
        let stanzaBytes = log.checksHits ? NeedleCheck { text, start, _ in
            let newline = stanzaq_find_last_byte(text.baseAddress!, start, 0x0A)
            return newline < 0 || log.mayBeStanzaBytes(UnsafeBufferPointer(rebasing: text[(newline + 1)..<start]))
        } : nil
        // A whole value is between quotes as the format writes them.
        let quotes = log.writesQuotes
        func written(_ needles: [Needle]) -> [Needle] {
            var result: [Needle] = []
            for needle in needles {
                for bytes in log.spellings(of: needle.bytes) {
                    let spelled = Needle(bytes: bytes, caseless: needle.caseless, wholeValue: needle.wholeValue && quotes, check: stanzaBytes)
                    if !result.contains(spelled) { result.append(spelled) }
                }
            }
            return result
        }
        // A mark is checked with what is held before it, from the first line that starts there.
        let marks = log.marks.map { mark in
            Needle(bytes: mark, caseless: false, wholeValue: false, check: NeedleCheck { text, start, end in
                let newline = stanzaq_find_byte(text.baseAddress!, 0, start, 0x0A)
                guard newline < start else { return true }
                return log.mustRead(UnsafeBufferPointer(rebasing: text[(newline + 1)..<end]))
            })
        }
        // The format's lines that change what its parser carries are noted as stream headers are.
        let noted = log.noted.map { Needle(bytes: $0, caseless: false, wholeValue: false) }
        return (written(hits) + marks, written(others) + noted)
    }
}
