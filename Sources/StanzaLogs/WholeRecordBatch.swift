#if canImport(StanzaXML)
import StanzaXML
#endif

/// Records of whole stanzas read together (``LogReader``): lines of their own,
/// and the lines that continue them (Prosody's tab-indented lines of a stanza
/// whose text has line breaks).
///
/// Read as they come, each record is a call of libxml2 for its own channel's
/// reader, between the log's parsing of the lines around it: on a Prosody
/// debug log that cost more than the same stanzas as XML, the code of both
/// falling out of the processor's cache in turn. Kept
/// here instead, a run of such records is read at once, each by a reader of its
/// stream's namespace shared by all channels: the parsing code stays hot.
///
/// A record of whole stanzas leaves its channel between stanzas when it is
/// read cleanly, and the channel's reader then holds nothing that the record
/// depends on but its stream's namespace: such a record is read the same by
/// any reader of that stream. A record that is not read cleanly here (damage,
/// a stanza left open, text held back) is read again by its own channel, as if
/// it had never been kept: what it makes here is dropped.
final class WholeRecordBatch {
    struct Entry {
        let channel: LogChannel
        /// The record's fields, its line included.
        let source: StanzaSource
        /// The column where its data starts.
        let column: Int
        /// Its stream's default namespace (the channel's when it was kept).
        let namespace: String?
        /// Where its data ends in ``data``.
        var end: Int
        /// Its lines after the first, in ``continuations``.
        var continuations: Range<Int>
        /// The line being read when the record ended (`nil` while it may go on).
        var endedAt: Int?
    }

    // The state written for every record and every stanza is marked
    // @exclusivity(unchecked), as the log reader's is (LogReader.swift): nothing
    // accesses it re-entrantly, and the run-time checks slowed reading a log.

    /// A line that continues a record: where its line break is in ``data``, and
    /// the line and column of the log where its data starts.
    struct Continuation {
        let newline: Int
        let line: Int
        let column: Int
    }

    /// The records kept, in log order.
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    /// Their data, each after a line break (as its channel would be fed it).
    @exclusivity(unchecked) private(set) var data: [UInt8] = []
    /// The lines that continue them, in log order.
    @exclusivity(unchecked) private(set) var continuations: [Continuation] = []
    var isEmpty: Bool { entries.isEmpty }
    /// How much data is kept before it is read: its stanzas wait until then.
    private static let capacity = 1 << 14
    var isFull: Bool { data.count >= Self.capacity }
    /// A record of many lines goes on past ``isFull`` (its lines are kept until it
    /// ends), up to this.
    var isOverfull: Bool { data.count >= 4 * Self.capacity }

    let defaultNamespace: String?
    /// The readers, and how many bytes each has been fed (its stream's header included).
    @exclusivity(unchecked) private var readers: [(namespace: String?, reader: StanzaReader, fed: Int)] = []
    /// The stanzas read, with the index of their record, and for a record of
    /// several lines the line where the stanza starts and the one where it ends
    /// (0: the record's first line). A channel fed the record line by line
    /// gives a stanza the line where it starts, and hands it on while the line
    /// where it ends is read.
    @exclusivity(unchecked) private(set) var stanzas: [(element: Element, entry: Int, line: Int, endLine: Int)] = []
    @exclusivity(unchecked) private var damaged = false
    /// Read together: where each stanza read ends in the reader's input.
    @exclusivity(unchecked) private var ends: [Int] = []
    @exclusivity(unchecked) private var feeding: StanzaReader?

    init(defaultNamespace: String?) {
        self.defaultNamespace = defaultNamespace
    }

    /// Keeps a record: `bytes` is its data.
    func add(_ bytes: UnsafeBufferPointer<UInt8>, channel: LogChannel, source: StanzaSource, column: Int) {
        data.append(0x0A)
        data.append(contentsOf: bytes)
        entries.append(Entry(channel: channel, source: source, column: column, namespace: channel.namespace, end: data.count,
                             continuations: continuations.count..<continuations.count))
    }

    /// The last record kept goes on in line `line`: `bytes` is its data there,
    /// starting at `column`.
    func extendLast(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int) {
        continuations.append(Continuation(newline: data.count, line: line, column: column))
        data.append(0x0A)
        data.append(contentsOf: bytes)
        let last = entries.count - 1
        entries[last].end = data.count
        entries[last].continuations = entries[last].continuations.lowerBound..<continuations.count
    }

    /// The last record kept has ended, while line `line` was read.
    func endLast(at line: Int) {
        guard !entries.isEmpty else { return }
        entries[entries.count - 1].endedAt = line
    }

    /// Reads the records of `range` (all of one stream's namespace, their
    /// channels idle; all ended but maybe the last), their data from `start`, in
    /// one call: true if each was read as its channel would have read it — no
    /// damage, and each stanza starts and ends within one record with only
    /// blanks before it since the stanza before (so the reader was between
    /// stanzas, holding nothing, where each record started), its stanzas added
    /// to ``stanzas``. Else nothing is kept of it (each record is to be read by
    /// its channel, or, of several, one by one here).
    func read(_ range: Range<Int>, from start: Int, depthLimit: Int?, childSelection: ChildSelection?) -> Bool {
        let namespace = entries[range.lowerBound].namespace
        let slot = readers.firstIndex(where: { $0.namespace == namespace })
            ?? makeReader(namespace: namespace, depthLimit: depthLimit, childSelection: childSelection)
        let reader = readers[slot].reader
        let base = readers[slot].fed - start   // the reader's offset of data[0]
        let end = entries[range.upperBound - 1].end
        let before = stanzas.count
        damaged = false
        ends.removeAll(keepingCapacity: true)
        feeding = reader
        let fed: Bool = data.withUnsafeBytes { bytes in
            (try? reader.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))) != nil
        }
        feeding = nil
        readers[slot].fed += end - start
        let clean = fed && !damaged && ends.count == stanzas.count - before && reader.isBetweenStanzasHoldingNothing
            && data.withUnsafeBufferPointer { placeStanzas(from: before, range, start: start, end: end, base: base, $0) }
        if clean { return true }
        stanzas.removeSubrange(before...)
        readers.remove(at: slot)
        return false
    }

    /// Gives each stanza read together its record, if it lies within one.
    private func placeStanzas(from first: Int, _ range: Range<Int>, start: Int, end: Int, base: Int,
                              _ data: UnsafeBufferPointer<UInt8>) -> Bool {
        var entry = range.lowerBound
        var previousEnd = start
        for (number, stanzaEnd) in ends.enumerated() {
            let last = stanzaEnd - base
            guard last > previousEnd, last <= end else { return false }
            var begin = previousEnd
            while begin < last, isXMLSpace(data[begin]) { begin += 1 }
            guard begin < last else { return false }
            // The record holding the stanza's first byte must hold its last.
            while entries[entry].end <= begin { entry += 1 }
            guard last <= entries[entry].end else { return false }
            stanzas[first + number].entry = entry
            if !entries[entry].continuations.isEmpty {
                // (Fed line by line, a reader holding text before the stanza would start it on a later line.)
                guard data[begin] == 0x3C else { return false }
                stanzas[first + number].line = lineOf(begin, in: entries[entry])
                stanzas[first + number].endLine = lineOf(last - 1, in: entries[entry])
            }
            previousEnd = last
        }
        for index in previousEnd..<end where !isXMLSpace(data[index]) { return false }
        return true
    }

    /// The line of the log that holds the byte at `offset` of a record of several lines.
    private func lineOf(_ offset: Int, in entry: Entry) -> Int {
        var line = entry.source.line
        for continuation in continuations[entry.continuations] {
            guard continuation.newline < offset else { break }
            line = continuation.line
        }
        return line
    }

    private func makeReader(namespace: String?, depthLimit: Int?, childSelection: ChildSelection?) -> Int {
        let header = LogChannel.streamHeader(namespace: namespace, defaultNamespace: defaultNamespace)
        let reader = LogChannel.makeReader(
            header: header, defaultNamespace: defaultNamespace, depthLimit: depthLimit, childSelection: childSelection,
            stanza: { [unowned self] element in
                // (Its record is found once the call returns: placeStanzas.)
                self.stanzas.append((element, 0, 0, 0))
                if let feeding = self.feeding, let place = feeding.currentPlace { self.ends.append(place.bytes.upperBound) }
                return true
            },
            damage: { [unowned self] _ in
                self.damaged = true
                return true
            })
        readers.append((namespace, reader, header.count))
        return readers.count - 1
    }

    /// Forgets the stanzas read so far (they have been handed on).
    func forgetStanzas() {
        stanzas.removeAll(keepingCapacity: true)
    }

    /// Forgets the records (they have been read).
    func clear() {
        entries.removeAll(keepingCapacity: true)
        data.removeAll(keepingCapacity: true)
        continuations.removeAll(keepingCapacity: true)
        stanzas.removeAll(keepingCapacity: true)
    }
}
