#if canImport(StanzaXML)
import StanzaXML
#endif

/// Everything stanzaq knows of one log format, written in the format's own file
/// under Formats/, next to its parser: adding a format is that file and a line
/// in ``LogFormat/registry``.
///
/// This is the core: how to recognise and read the format. A log of a format
/// that says no more is read by one reader, from its start. Reading a large
/// log in parts on several threads, and skipping the records that cannot
/// match, are what a format opts into (``CuttableLogFormat``,
/// ``SkippableLogFormat``), where one reader started mid-log reads as one
/// reader from the start does — a claim the tests check for every format that
/// makes it (LogParallelTests, PrefilterTests).
protocol LogFormatDefinition {
    /// The format's name, as `--log=NAME` and messages give it.
    static var name: String { get }
    /// Where detection tries the format (``FormatDetector``): lower first, the
    /// most specific formats first; `nil`: never decided by a line (generic).
    static var detectionRank: Int? { get }
    /// Whether `line` (without its line feed or terminal escapes) is typical of the format.
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool
    /// A parser at the start of a log.
    static func makeParser() -> any LogLineParser
    /// The default namespace of the streams a log of this format shows, where a
    /// record does not name one and no stream header in the log declares one:
    /// a client's log shows a client's streams, and clients log stanzas without
    /// the namespace they inherit (slixmpp the stanzas it receives).
    static var streamNamespace: StaticString? { get }
    /// Whether the format starts its records with a prefix of its own (a time
    /// stamp, a level, a logger) that a line must have to start one
    /// (``RecordPrefix``): not where records are rows, chunks, comments or terms.
    static var learnsRecordPrefix: Bool { get }
    /// Whether the lines the format is recognised by are written by other
    /// programs too (``FormatDetector``): slixmpp's `SEND: <` and `RECV: <` stand
    /// in Monal's, libstrophe's and Profanity's lines; a tab before `<` in any tabbed log.
    static var sharesItsMarker: Bool { get }
    /// The format as a ``CuttableLogFormat``, `nil` if it is not one; and as a
    /// ``SkippableLogFormat``. The compiler picks these from the conformances
    /// (the extensions below): a cast at run time would cost a start-up, since
    /// one that fails looks through every conformance of the program.
    static var asCuttable: (any CuttableLogFormat.Type)? { get }
    static var asSkippable: (any SkippableLogFormat.Type)? { get }
}

extension LogFormatDefinition {
    static var streamNamespace: StaticString? { nil }
    static var learnsRecordPrefix: Bool { false }
    static var sharesItsMarker: Bool { false }
    static var asCuttable: (any CuttableLogFormat.Type)? { nil }
    static var asSkippable: (any SkippableLogFormat.Type)? { nil }
}

/// A format whose large logs may be cut into parts at lines, each read by a
/// reader of its own started there (stanzaq(1), "Parallelism"). The defaults
/// cut at a line that starts a record, as a parser at rest reads it, carrying
/// no state.
protocol CuttableLogFormat: LogFormatDefinition {
    /// Bytes that every line a part of the log may start at holds (nbxmpp's
    /// `::::: DATA`), found by a byte search: a search for the end of a window
    /// around a hit (``LogFormat/partStartMarker``) then parses only the lines
    /// that hold them, not each line of the loggers' records between. `nil`:
    /// any line may start a part.
    static var partStartMarker: StaticString? { get }
    /// The state a parser carries over the parts of a log that a parallel
    /// search cuts (``LogParserState``), updated with `part` (a part's bytes, in
    /// order from the log's start), as far as it is cheap to tell without reading
    /// every line: the session of tshark's `Filter:` line, a TSV header row.
    /// A guess, checked against what the reader of the part before hands on.
    static func carriedState(after part: UnsafeBufferPointer<UInt8>, from state: LogParserState) -> LogParserState
    /// Whether a part of a log may start at `line` (without its line feed), after
    /// `previous`, and the state its parser then starts with (`nil`: no part
    /// starts there), given what is carried (``carriedState(after:from:)``).
    /// By default a record line that a parser at rest reads as one reader does
    /// (``LogFormat/mayStartRecordPart(at:after:)``), with the state carried.
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState?
}

/// A format whose records a search may skip when they lack what every result
/// needs (stanzaq(1), "Skipping what cannot match"): it says how it writes a
/// stanza's bytes, so that they are searched for as written.
protocol SkippableLogFormat: CuttableLogFormat {
    /// How the format writes a stanza's bytes into its records, for a search
    /// that skips the records lacking what a query needs (``RecordSpelling``);
    /// ``RecordSpelling/asWritten`` where the bytes are as they were, save for
    /// what the format puts at the start of a line; not archive rows (escaped),
    /// nor logs that cut a stanza anywhere (Android's logcat lines).
    static var recordSpelling: RecordSpelling { get }
}

extension CuttableLogFormat {
    static var asCuttable: (any CuttableLogFormat.Type)? { self }
    static var partStartMarker: StaticString? { nil }

    static func carriedState(after part: UnsafeBufferPointer<UInt8>, from state: LogParserState) -> LogParserState { state }

    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        LogFormat(self).mayStartRecordPart(at: line, after: previous) ? carried : nil
    }
}

extension SkippableLogFormat {
    static var asSkippable: (any SkippableLogFormat.Type)? { self }
}
