#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// How a search uses threads (stanzaq(1), "Parallelism"): decided in
/// ``SearchOptions/parallelism(for:)`` alone; whether a log may be cut, where a
/// part may start and in what state, is its format's to say (``CuttableLogFormat``).
public struct Parallelism: Equatable, Sendable {
    /// Several inputs searched at once.
    public var inputs = false
    /// A large XMPP stream cut into parts searched at once.
    public var streamParts = false
    /// A large log cut into parts searched at once.
    public var logParts = false
    /// What a large log's records must contain to be read: the others are
    /// skipped (``Prefilter``). Then even one thread reads the log in parts.
    public var skipping: Prefilter?
}

extension SearchOptions {
    /// How the search may use threads with `sink`.
    ///
    /// At all only if the output of each input (or part) depends on nothing but
    /// that input, and nothing need be written before the input is read to its
    /// end. Line-buffered output (results as stanzas arrive) and `--follow` are
    /// read in order; so are the options whose output carries state from one
    /// input to the next: context (`--` between groups, across files), `--pair`,
    /// `--unanswered`, `--merge` and `--header` (one header before the first row of all the inputs).
    ///
    /// An input is cut into parts only if a part need not know how many stanzas
    /// counted before it (`-m`, `-l`); a log's, only if neither their number
    /// (`-n`, which an XMPP stream's parts count as they are cut).
    ///
    /// A log's records are skipped by their literals only where a stanza that
    /// has no result prints nothing and leaves nothing behind: not with `-v`,
    /// nor context, `--pair` or stanza numbers, and only in the parts a log is
    /// cut into (their readers check that they read as one reader would). Line-
    /// buffered output too: a window's results are written when it is read.
    ///
    /// With the `jid` field, an input is read by one reader, none of its records
    /// skipped: a stanza's JID is the one a bind result earlier in its session
    /// gave (``SessionJIDs``), which a part read on its own has not seen, nor a
    /// reader that skipped the bind result. Inputs are still read at once: each
    /// has its own sessions.
    public func parallelism(for sink: any SearchSink) -> Parallelism {
        guard !follow && context == nil && !pairs && !unanswered && !header && !merge else { return Parallelism() }
        if tracksSessionJIDs {
            return Parallelism(inputs: threads > 1 && !lineBuffered)
        }
        // JID pseudonyms are numbered in the order one reader meets the JIDs.
        if redaction?.contains(.jids) == true { return Parallelism() }
        let parts = maxCount == nil && sink.stanzasPerInput == nil
        var parallelism = Parallelism()
        if threads > 1 && !lineBuffered {
            parallelism = Parallelism(inputs: true, streamParts: parts, logParts: parts && !withStanzaNumber)
        }
        // (A redacted stanza need not hold the literals its input does.)
        if parts && !withStanzaNumber && !readAll && !invert && redaction == nil {
            parallelism.skipping = Prefilter(queries: queries, each: each, wheres: wheres, aliases: namespaceAliases)
        }
        return parallelism
    }
}

/// How a search on several threads (``SearchOptions/threads``) splits its inputs.
public struct ParallelOptions: Sendable {
    /// About how many bytes each part of one large input has (parts end at a
    /// stanza boundary at or after it). Tests make it small to cut often.
    public var partSize = 1 << 18
    /// A seam for tests (`STANZAQ_DEBUG_PARTS`, not documented for users): after
    /// each input it cut into parts, a parallel search writes one line to standard
    /// error — `stanzaq: parts of NAME: MADE made, KEPT kept` and, if a part could
    /// not be read on its own, `, fell back at part INDEX: WHY` — so that a test
    /// can tell parts read in parallel from a log read again by one reader
    /// (whose output is the same).
    public var reportsParts = false

    public init() {}
}
