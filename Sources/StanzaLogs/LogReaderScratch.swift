/// What a log reader that is done leaves to the next one a search makes: the
/// XML readers it read records of whole stanzas with (``WholeRecordBatch``),
/// each between stanzas, holding nothing.
///
/// A search that skips what cannot match reads a log in many short stretches,
/// each by a reader of its own; making and freeing those XML readers (a
/// libxml2 parser and its dictionary each) was most of what a stretch cost
/// beside its bytes. Any reader of a stream of the same namespace reads a
/// record of whole stanzas the same (``WholeRecordBatch``), so the next
/// stretch's reader takes them up.
public struct LogReaderScratch {
    let batch: WholeRecordBatch
    /// And the readers of its channels (``SpareReaders``).
    let spares: SpareReaders
}

extension LogReader {
    /// What the next reader may reuse (``LogReaderScratch``), once this one is
    /// done: `nil` if it holds records not read.
    public var scratch: LogReaderScratch? {
        guard batch.isEmpty else { return nil }
        batch.clear()
        for channel in channels.values { channel.spareReader() }
        return LogReaderScratch(batch: batch, spares: spares)
    }
}
