import CLibXML2

/// Reading part of an input: a stream taken up between two of its stanzas,
/// as a parallel search does with the parts of one large input (stanzaq(1),
/// "Parallelism"). A reader made with
/// ``init(continuing:line:defaultNamespace:recovery:handler:)`` is in the
/// state a reader of the whole input is in at that place — inside the stream,
/// its namespaces in scope, between stanzas, at that line — so that it reads
/// what follows exactly as that reader would: the same stanzas, the same
/// damage at the same positions.
extension StanzaReader {
    /// A reader that goes on with a stream at the start of a line between two
    /// of its stanzas.
    /// - Parameters:
    ///   - streamHeader: the stream's start tag as ``streamStartTag`` gives it
    ///     (what a reader of the stream up to here holds).
    ///   - line: the line of the input where the bytes to be fed start (at
    ///     column 1), so that positions are the input's.
    public convenience init(continuing streamHeader: [UInt8], line: Int, defaultNamespace: String? = nil,
                            recovery: Recovery = .stop, handler: @escaping Handler) {
        self.init(defaultNamespace: defaultNamespace, recovery: recovery, handler: handler)
        passInputStart(line: line)
        startDocument(at: 0, header: streamHeader)
    }

    /// A reader that goes on with a top-level sequence of stanzas at the start
    /// of a line after one of its elements, past the input's start phase (a
    /// parallel search cuts a sequence's first part after ``tentativeLimit``
    /// elements at least, which end the phase).
    /// - Parameter line: the line of the input where the bytes to be fed start.
    public convenience init(continuingSequenceAt line: Int, defaultNamespace: String? = nil,
                            recovery: Recovery = .stop, handler: @escaping Handler) {
        self.init(defaultNamespace: defaultNamespace, recovery: recovery, handler: handler)
        passInputStart(line: line)
        followsElement = true
    }

    /// Whether everything fed so far was read cleanly as a top-level sequence,
    /// up to its end after one of its elements: no damage, nothing open, only
    /// blanks after the last element. A reader of the whole input is then where
    /// ``init(continuingSequenceAt:defaultNamespace:recovery:handler:)`` puts one.
    public var isAfterSequenceElement: Bool {
        guard context == nil, !inStream, followsElement, !isStopped, failure == nil, damageCount == 0, outbox.isEmpty,
              pendingDamage == nil, resynchronizer == nil, skippedDamage == nil, !startPhase, tentative.isEmpty
        else { return false }
        return cursor == inputLength
    }

    /// The start tag of the stream being read, written as a reader that goes on
    /// with it is given it; `nil` outside a stream.
    public var streamStartTag: [UInt8]? {
        inStream && context != nil ? streamHeader : nil
    }

    /// Whether everything fed so far was read cleanly up to a place inside a
    /// stream between two of its stanzas: no damage, no stanza or other
    /// document open, the stream not ended. A reader of the whole input is then
    /// where ``init(continuing:line:defaultNamespace:recovery:handler:)`` puts one.
    public var isInsideStreamBetweenStanzas: Bool {
        guard let context, inStream, !frame.isOpen, !isStopped, failure == nil, damageCount == 0, outbox.isEmpty,
              open.isEmpty, skipped == 0, pendingDamage == nil, resynchronizer == nil, resetOffset == nil,
              !startPhase, tentative.isEmpty else { return false }
        return restIsBetweenStanzas(context)
    }
}

extension StanzaReader {
    /// The input's start (compression, a byte order mark, text before any XML,
    /// the start phase) is behind: the bytes fed start at `line`, column 1.
    private func passInputStart(line: Int) {
        startPhase = false
        sniffing = false
        rawUndecided = false
        sawDocument = true
        stanzaLevel = InputPosition(offset: 0, line: line, column: 1)
    }

    /// Sets libxml2 up; call it once, on the main thread, before readers run on
    /// other threads (each reader has parsers of its own).
    public static func prepareForThreads() {
        xmlInitParser()
    }
}
