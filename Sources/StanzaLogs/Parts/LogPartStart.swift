#if canImport(StanzaXML)
import StanzaXML
#endif

/// The state a reader of a part of a log starts in, other than that of a reader
/// at the log's start: what its parser carries (``LogParserState``) and the
/// default namespace of each stream whose header declared one other than the
/// format's. A parallel search guesses it for each part (``LogCutScanner``)
/// and keeps a part only if the reader of the part before handed on exactly
/// this (``LogReader/handover``, checked by ``LogCutState``).
public struct LogPartStart: Equatable, Sendable {
    var parser = LogParserState()
    /// Streams whose namespace is not the one a channel is made with.
    var namespaces: [LogReader.ChannelKey: String] = [:]
    /// Where records between the part before and this one were skipped, and
    /// stream headers in them noted (``LogCutScanner/skipped(_:)``): the
    /// namespaces the part before must end with. (What the headers declare is
    /// the scanner's guess, not checked: a search that skips records takes what
    /// they say as they are written.)
    var namespacesHandedOn: [LogReader.ChannelKey: String]?
    /// Likewise what the parser carried before the records skipped, where they
    /// change it (tshark's `Filter:` lines, noted: ``RecordSpelling/noted``).
    var parserHandedOn: LogParserState?

    /// The state the reader of the part before must hand on.
    var handedOnBefore: LogPartStart {
        var before = self
        before.namespaces = namespacesHandedOn ?? namespaces
        before.namespacesHandedOn = nil
        before.parser = parserHandedOn ?? parser
        before.parserHandedOn = nil
        return before
    }

    public init() {}
}

extension LogReader {
    /// Starts the reader (before its first line) in the state `start` says.
    public func resume(from start: LogPartStart) {
        parser?.resume(from: start.parser)
        startNamespaces = start.namespaces
        if recordsCuts { cutLog.start = start }
    }

    /// The state a reader started at the next line must be in to read on as
    /// this one does (``LogPartStart``); `nil` if the parser holds what cannot
    /// be handed on. (The rest of a clean cut is ``isAtCleanCut``'s.)
    public var handover: LogPartStart? {
        guard let state = parser?.handover else { return nil }
        var end = LogPartStart()
        end.parser = state
        end.namespaces = startNamespaces
        for (key, channel) in channels { end.namespaces[key] = channel.namespace == channel.firstNamespace ? nil : channel.namespace }
        return end
    }

    /// The namespace a channel made now starts with: the one its stream had
    /// at the part's start, if not the one it is made with.
    func startNamespace(of key: ChannelKey) -> String? {
        startNamespaces.isEmpty ? nil : startNamespaces[key]
    }
}
