#if canImport(StanzaXML)
import StanzaXML
#endif

/// One source of an envelope read by an ``EnvelopeReader``: its log's reader,
/// and the facts of its latest entries, for the stanzas that start in them.
final class SourceLog {
    var reader: LogReader!
    private var lines: SourceLines
    /// The facts of the latest entries, by the line they start at (a ring: a
    /// stanza is handed over a few entries after the one it starts in).
    private var recent: [EnvelopeEntry] = []
    private var next = 0
    private static let recentLimit = 1024

    init(name: String?) {
        // Fewer lines at once than the ring holds: the facts of a stanza's line
        // are still there when its lines are read.
        lines = SourceLines(name: name, blockLineLimit: Self.recentLimit / 4)
    }

    func take(_ entry: EnvelopeEntry) {
        lines.take(entry, facts: remember, read: read)
    }

    /// The input has ended in the middle of a line: what came of it is read.
    func endPartialLine() {
        lines.endPartialLine(facts: remember, read: read)
    }

    /// Reads the lines that wait to be read together.
    func flush() {
        lines.flush(read: read)
    }

    /// The input goes on in another file: a line begun is dropped.
    func continueInNewFile(linesBefore: Int) {
        flush()
        lines.dropPartialLine()
        reader.continueInNewFile(linesBefore: linesBefore)
    }

    private func read(_ block: [UInt8], firstLine: Int) {
        reader.numberNextLine(firstLine)
        reader.feed(block)
    }

    private func remember(_ facts: EnvelopeEntry, _: Int) {
        if recent.count < Self.recentLimit {
            recent.append(facts)
        } else {
            recent[next] = facts
            next = (next + 1) % Self.recentLimit
        }
    }

    /// The envelope's facts for a stanza that starts at `source.line`.
    func addFacts(to source: inout StanzaSource) {
        // Looked for from the latest back.
        var index = recent.count < Self.recentLimit ? recent.count : next
        for _ in 0..<recent.count {
            index = index == 0 ? recent.count - 1 : index - 1
            if recent[index].line == source.line { return recent[index].addFacts(to: &source) }
            if recent[index].line < source.line { return }
        }
    }
}

/// The lines of one source's entries as its log reader is to read them: a line
/// the envelope cut in two (CRI's `P`, Docker's lines of over 16 KiB) put
/// together, and the lines of consecutive entries handed on in blocks (a log
/// reader reads its batches of records at the end of each feed).
struct SourceLines {
    let name: String?
    /// The most lines a block holds.
    let blockLineLimit: Int
    /// A line the next entry goes on with.
    private var partialLine: (line: Int, time: String?, text: [UInt8])?
    /// The lines of consecutive entries not yet handed on, the first one's
    /// number, and the number the next one must have to join them.
    private var block: [UInt8] = []
    private var blockFirstLine = 0, blockNextLine = 0, blockLines = 0
    private static let blockBytes = 1 << 15

    init(name: String?, blockLineLimit: Int) {
        self.name = name
        self.blockLineLimit = blockLineLimit
    }

    /// Takes `entry`: the facts of each whole line go to `facts` (text left
    /// out; with the bytes that wait before its text), its lines to `read` (a
    /// block of lines, and the first one's number).
    mutating func take(_ entry: EnvelopeEntry, facts: (EnvelopeEntry, Int) -> Void, read: ([UInt8], Int) -> Void) {
        var entry = entry
        if let partial = partialLine {
            entry.text = partial.text + entry.text
            entry.line = partial.line
            entry.time = partial.time ?? entry.time
            partialLine = nil
        }
        if entry.partial {
            partialLine = (entry.line, entry.time, entry.text)
            return
        }
        let text = entry.text
        entry.text = []
        facts(entry, block.count)
        guard !text.contains(0x0A) else {
            // An entry of several lines: each numbered with the entry's line.
            flush(read: read)
            var start = 0
            while start <= text.count {
                let end = text[start...].firstIndex(of: 0x0A) ?? text.count
                read(Array(text[start..<end]) + [0x0A], entry.line)
                start = end + 1
            }
            return
        }
        if block.isEmpty || entry.line != blockNextLine {
            flush(read: read)
            blockFirstLine = entry.line
        }
        block.append(contentsOf: text)
        block.append(0x0A)
        blockLines += 1
        blockNextLine = entry.line + 1
        if block.count >= Self.blockBytes || blockLines >= blockLineLimit { flush(read: read) }
    }

    /// Drops a line that was to go on in the next entry.
    mutating func dropPartialLine() {
        partialLine = nil
    }

    /// The input has ended in the middle of a line: what came of it is taken.
    mutating func endPartialLine(facts: (EnvelopeEntry, Int) -> Void, read: ([UInt8], Int) -> Void) {
        guard let partial = partialLine else { return }
        partialLine = nil
        take(EnvelopeEntry(source: name, time: partial.time, text: partial.text, line: partial.line), facts: facts, read: read)
    }

    /// Hands on the lines that wait in a block.
    mutating func flush(read: ([UInt8], Int) -> Void) {
        guard !block.isEmpty else { return }
        read(block, blockFirstLine)
        block.removeAll(keepingCapacity: true)
        blockLines = 0
    }
}

extension EnvelopeEntry {
    /// Adds the entry's facts to a stanza that starts in it: its source, its
    /// time and session where the program's line has none, the fields it names.
    func addFacts(to source: inout StanzaSource) {
        if let name = self.source { source.fields.insert(LogField(name: "source", value: name), at: 0) }
        if source.time == nil, let time { source.time = time }
        if source.session == nil, let session { source.session = session }
        source.fields.append(contentsOf: fields)
    }
}
