#if canImport(StanzaXML)
import StanzaXML
#endif

/// The XML readers that the channels of a log reader that is done left between
/// stanzas, for the channels of the next reader a search makes
/// (``LogReaderScratch``): a window of a log read by a reader of its own made a
/// reader for each direction of each session in it, and making one (a libxml2
/// parser fed a stream's header) and freeing it was a large part of what a
/// window cost. A channel of the same
/// stream header takes one up where it is: between stanzas, holding nothing
/// but the blanks between them, it reads on as a reader made afresh does.
final class SpareReaders {
    struct Spare {
        let header: [UInt8]
        let reader: StanzaReader
        /// The line of the reader's input that the next byte is on (column 1).
        let line: Int
    }

    private(set) var spares: [Spare] = []
    /// How many are kept: a log interleaves a few sessions.
    static let limit = 8

    /// Keeps `reader` of a channel whose stream has `header`, if it may read on
    /// for another: not stopped, between stanzas, holding nothing, skipping no
    /// damage. A line feed is fed to it first (a blank between stanzas), so that
    /// it is at the start of a line of its input.
    func keep(_ reader: StanzaReader, header: [UInt8], line: Int) {
        guard spares.count < Self.limit, !reader.isStopped, reader.isBetweenStanzasHoldingNothing, !reader.isSkippingDamage else { return }
        reader.handler = { _ in true }
        reader.damageHandler = { _ in true }
        guard (try? reader.feed([0x0A])) != nil, !reader.isStopped, reader.isBetweenStanzasHoldingNothing else { return }
        spares.append(Spare(header: header, reader: reader, line: line + 1))
    }

    /// A reader kept for a stream with `header`, taken.
    func take(header: [UInt8]) -> Spare? {
        guard let index = spares.lastIndex(where: { $0.header == header }) else { return nil }
        return spares.remove(at: index)
    }
}

extension LogChannel {
    /// Leaves its reader to ``spares`` if another channel may take it up.
    func spareReader() {
        guard let reader = madeReader, openStart == nil, !isStopped, let spares, readsChannelStream(reader) else { return }
        madeReader = nil
        spares.keep(reader, header: header, line: readerLine)
    }

    /// A reader of its stream header from ``spares``, taken up: it hands its
    /// stanzas and damage to this channel, and its input goes on at the line it is at.
    func takeSpareReader() -> StanzaReader? {
        guard let spare = spares?.take(header: header) else { return nil }
        spare.reader.handler = { [unowned self] in self.stanzaEnded($0) }
        spare.reader.damageHandler = { [unowned self] in self.readerDamaged($0); return !self.isStopped }
        readerLine = spare.line
        readerColumn = 1
        madeReader = spare.reader
        return spare.reader
    }
}
