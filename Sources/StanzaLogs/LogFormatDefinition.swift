#if canImport(StanzaXML)
import StanzaXML
#endif

/// Everything stanzaq knows of one log format, written in the format's own file
/// under Formats/, next to its parser: adding a format is that file and a line
/// in ``LogFormat/registry``.
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
    /// in Monal's and libstrophe's lines; a tab before `<` in any tabbed log.
    static var sharesItsMarker: Bool { get }
    /// Whether a part of a log in this format may be read on its own (a parallel
    /// search): its parser can say that it holds nothing from earlier lines.
    /// Not where the parser keeps state: ejabberd's (a term may span lines),
    /// Dino's, Conversations', TSV's (a header row) and tshark's (the session
    /// named at the top, the length of the chunk being read), read in order.
    static var mayBeCut: Bool { get }
    /// Whether the format logs a stanza's bytes as they were, save for what it
    /// puts at the start of a line (its prefix, an indent): a name, or a value
    /// without white space, is then in the log as it is in the stanza, and a
    /// search may skip the records that lack what a query needs (``LogFormat/logsStanzasAsWritten``).
    /// Not ejabberd's Erlang terms, archive rows (escaped), nor logs that cut a
    /// stanza anywhere (tshark's chunks, Android's logcat lines).
    static var logsStanzasAsWritten: Bool { get }
}

extension LogFormatDefinition {
    static var streamNamespace: StaticString? { nil }
    static var learnsRecordPrefix: Bool { false }
    static var sharesItsMarker: Bool { false }
    static var mayBeCut: Bool { true }
    static var logsStanzasAsWritten: Bool { false }
}
