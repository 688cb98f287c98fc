#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Where the searcher hands what it finds: one kind of output each (the printer
/// of ripgrep's searcher/sink split). The searcher evaluates what the sink's
/// ``evaluation`` asks for, then calls the methods that go with it; a sink
/// never reads the inputs and the searcher never formats.
///
/// Each output is a sink (files with matches, context, iq pairs); the searcher
/// stays as it is.
public protocol SearchSink: AnyObject {
    /// What the searcher evaluates on each stanza for this sink.
    var evaluation: Evaluation { get }
    /// Whether the sink prints whole stanzas, so the reader must build them whole
    /// (else only as deep as the queries reach).
    var needsWholeStanzas: Bool { get }
    /// Whether, of the whole stanzas, the sink prints only those that count
    /// (no context, no partners): the others need be built only as deep as
    /// deciding whether they count takes.
    var printsOnlyCountedStanzas: Bool { get }
    /// Whether the search ends at the first stanza that counts (`-q`).
    var stopsAtFirstMatch: Bool { get }
    /// After how many stanzas that count the sink has seen enough of an input
    /// (`-l`: one); `nil`: all of them.
    var stanzasPerInput: Int? { get }
    /// Whether the sink still shows stanzas that do not count (trailing context,
    /// a response awaited), so that reading goes on after the last one that counts.
    var wantsMoreStanzas: Bool { get }
    /// Whether the sink is shown (as ``passed(_:in:)``) the stanzas that `--direction`
    /// leaves out: an iq's partner goes the other way.
    var seesEitherDirection: Bool { get }
    /// How many stanzas the sink printed at the end of the search, where that,
    /// not whether a stanza counted, decides the exit status (`--unanswered`:
    /// the requests no response answered); `nil` for the others.
    var printedCount: Int? { get }

    /// A result (``Evaluation/results(firstOnly:)``), in document order.
    func result(_ value: QueryValue, in stanza: StanzaPlace) throws(OutputError)
    /// The first result of each query (``Evaluation/rows``), when any has one.
    func row(_ values: [QueryValue?], in stanza: StanzaPlace) throws(OutputError)
    /// A stanza that counts (``Evaluation/test(invert:)``): it has a result, or,
    /// inverted, none.
    func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError)
    /// A stanza that does not count (``Evaluation/test(invert:)``), or one read after
    /// the last that counts, while ``wantsMoreStanzas``: context.
    func passed(_ element: Element, in stanza: StanzaPlace) throws(OutputError)
    /// The end of one stanza's records.
    func endStanza() throws(OutputError)
    /// The end of one input, with how many of its stanzas counted.
    func endInput(_ file: String, count: Int) throws(OutputError)
    /// The end of the search (not called after Ctrl-C), with the total.
    func endSearch(count: Int) throws(OutputError)
    /// Writes out what is buffered (before a diagnostic, and at the end).
    func flush() throws(OutputError)
    /// Takes over what the sink of a part of the input kept for the end
    /// (a parallel search, in input order): the rows `-c` counts by value.
    func absorb(_ other: any SearchSink)
}

/// What the searcher computes per stanza.
public enum Evaluation: Equatable, Sendable {
    /// Every result of every query (or each query's first), handed over one by one.
    case results(firstOnly: Bool)
    /// The first result of each query, as one row.
    case rows
    /// Only whether any query has a result; `invert` counts the stanzas without.
    case test(invert: Bool)
}

/// Where a stanza is: its input, its number there (from 1), and, read from a
/// log, what the log says of it (line, time, direction…).
public struct StanzaPlace {
    /// The input's name; empty, with ``number`` 0, for a stanza of no input
    /// (the REPL's current stanza), whose messages then name no place.
    public var file: String
    public var number: Int
    public var source: StanzaSource?
    /// With `--merge`: the instant the stanza is ordered by (its time, or the
    /// last one before it in its input; ``TimeOrder``).
    var instant: DateTime? = nil
}

extension SearchSink {
    public var needsWholeStanzas: Bool { false }
    public var printsOnlyCountedStanzas: Bool { false }
    public var stopsAtFirstMatch: Bool { false }
    public var stanzasPerInput: Int? { nil }
    public var wantsMoreStanzas: Bool { false }
    public var seesEitherDirection: Bool { false }
    public var printedCount: Int? { nil }
    public func result(_ value: QueryValue, in stanza: StanzaPlace) throws(OutputError) {}
    public func row(_ values: [QueryValue?], in stanza: StanzaPlace) throws(OutputError) {}
    public func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {}
    public func passed(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {}
    public func endStanza() throws(OutputError) {}
    public func endInput(_ file: String, count: Int) throws(OutputError) {}
    public func endSearch(count: Int) throws(OutputError) {}
    public func flush() throws(OutputError) {}
    public func absorb(_ other: any SearchSink) {}
}
