import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads stanzas from XML bytes, one at a time, with libxml2's SAX2 push parser.
///
/// The input may be a single element, a sequence of top-level elements, an
/// XMPP stream (`<stream:stream>`, possibly left unclosed) or several streams
/// one after another, each optionally preceded by an XML declaration; an XML
/// declaration or a stream header where a stanza could start always begins a
/// new stream (a reconnect). Every top-level element, and every child of a
/// stream, is a stanza: it is built as its own tree (with no parent), handed
/// to the handler once the bytes that complete it have been parsed, and then
/// forgotten, so memory does not grow with the input. Compressed input is
/// decompressed on the fly.
///
/// ```swift
/// let reader = StanzaReader { stanza in print(stanza.name); return true }
/// try reader.feed(Array("<a/><b/>".utf8))
/// try reader.finish()
/// ```
///
/// The handler runs outside libxml2's callbacks (after each `xmlParseChunk`),
/// so it may throw: `feed` rethrows and the reader stops.
///
/// With ``Recovery/skipDamage``, damaged input (a malformed or cut-off stanza,
/// text between stanzas) costs only the damaged stanza: it is handed to
/// ``damageHandler`` as a ``InputDamage`` and reading resumes at the next
/// place a stanza can start (see `Resynchronizer` for how that place is found).
public final class StanzaReader {
    /// Receives each stanza; return `false` to stop reading. It may throw:
    /// ``feed(_:)-(UnsafeRawBufferPointer)`` and ``finish()`` rethrow, and the reader stops.
    public typealias Handler = (Element) throws -> Bool
    /// Receives each damage skipped with ``Recovery/skipDamage``; return `false` to stop reading.
    public typealias DamageHandler = (InputDamage) throws -> Bool

    /// What the reader does with damaged input.
    public enum Recovery: Sendable {
        /// The first damage ends the reading: `feed` and `finish` throw it as
        /// ``StanzaReaderError/malformed(line:column:message:)``, now and on every
        /// later call (what a validator, or a REPL loading pasted XML, wants).
        case stop
        /// Each damaged stanza is skipped and handed to ``StanzaReader/damageHandler``;
        /// reading goes on at the next place where a stanza can start, and `finish`
        /// does not throw for damage. Input that starts in the middle of a stanza
        /// (`tail -f`, `tail -c`) is skipped without damage up to the first stanza
        /// start: top-level elements read before an unmatched end tag in the same
        /// ``StanzaReader/feed(_:)-(UnsafeRawBufferPointer)`` were children of a
        /// stanza whose start was not read, and are dropped; a stanza (`message`,
        /// `presence`, `iq`), a stream or an XML declaration ends this start phase.
        case skipDamage
    }

    // Written for every stanza handed out, and read by the handlers: never
    // accessed re-entrantly, and the run-time checks cost time, most in reading
    // a log, whose every record is a feed of its own.
    /// How many stanzas have been handed to the handler so far.
    @exclusivity(unchecked) public internal(set) var stanzaCount = 0
    /// The 1-based input line where the stanza being handed to the handler
    /// starts (its start tag's `<`): read it in the handler, for `vim +N`.
    @exclusivity(unchecked) public internal(set) var stanzaLine = 0
    /// How many damages have been handed to the damage handler so far.
    @exclusivity(unchecked) public internal(set) var damageCount = 0
    /// Whether the reading stopped (the handler asked, or threw): further input is ignored.
    @exclusivity(unchecked) public internal(set) var isStopped = false
    /// What the reader does with damaged input.
    public let recovery: Recovery
    /// Called, with ``Recovery/skipDamage``, for each damage once reading has
    /// resumed after it (or the input has ended), in input order with the stanzas.
    public var damageHandler: DamageHandler = { _ in true }

    let defaultNamespace: String?
    /// (Set again when a log's channel takes up a reader another left: SpareReaders.)
    package var handler: Handler

    /// Elements more than this many levels below their stanza's root are not
    /// built (nor their text): a query that cannot reach them (``Query/reach``)
    /// gives the same results, and the reader does far less work. `nil`: build all.
    @exclusivity(unchecked) public var depthLimit: Int?
    /// Which children of a stanza's root are built (with what they contain);
    /// the others are skipped as elements below ``depthLimit`` are, their text
    /// too. `nil`: all.
    @exclusivity(unchecked) public var childSelection: ChildSelection?
    /// Whether elements are built with their attributes; `false`: with none (for
    /// queries that read none, `-c '/$'`). libxml2 reads and checks them all the same.
    @exclusivity(unchecked) public var buildsAttributes = true
    /// Called with each stanza's root as soon as its start tag is read (name,
    /// namespace, attributes, namespace declarations, the stream's inherited
    /// ones; no children or text yet): when it returns `true`, the stanza is
    /// built whole, ``depthLimit`` and ``childSelection`` aside; when `false`,
    /// nothing below the start tag is (no child, no text), as the caller has
    /// all it needs of that stanza (its root is still handed over). A search that
    /// prints whole the stanzas its queries select, and whose queries look at
    /// the root's start tag only (``Query/isDecidedByStartTag``), builds whole
    /// only those it prints (`stanzaq -s '/<type=error>'`). It runs inside
    /// libxml2's callbacks: it must not throw, nor feed this reader.
    @exclusivity(unchecked) public var wholeStanzaTest: ((Element) -> Bool)?

    // MARK: What goes out, in input order (filled in the SAX callbacks, handed out after xmlParseChunk)

    enum Event {
        /// A stanza, with the line where it starts.
        case stanza(Element, line: Int)
        case damage(InputDamage)
    }
    @exclusivity(unchecked) var outbox: [Event] = []
    /// Where each stanza of the outbox was in the input, in order (see ``StanzaByteRange``).
    @exclusivity(unchecked) var outboxPlaces: [StanzaByteRange] = []
    /// Where the stanza being handed to the handler was in the input: valid while
    /// the handler runs (offsets in the input as fed, after any decompression).
    @exclusivity(unchecked) public internal(set) var currentPlace: StanzaByteRange?
    /// Whether the input is compressed (offsets are then in the decompressed bytes).
    public var isCompressedInput: Bool { decompressed?.isCompressed == true }
    /// Thrown by every call once reading stopped at damage (``Recovery/stop``).
    var failure: StanzaReaderError?

    // MARK: The input (see StanzaReader+Documents.swift)

    /// Input bytes not yet known to be done with: from the last place between
    /// stanzas (to restart after damage and tell positions) to the end.
    @exclusivity(unchecked) var retained: [UInt8] = []
    @exclusivity(unchecked) var retainedBase = 0     // absolute offset of retained[0]
    /// What the input held before `retained[0]`, as far as the damage heuristics look back.
    var beforeRetained = BytesBefore.start
    @exclusivity(unchecked) var inputLength = 0      // total (decompressed) bytes fed
    /// Where the bytes not yet handed to a parser (or the resynchronizer) start.
    @exclusivity(unchecked) var cursor = 0
    /// The last place known to be between stanzas, with its line and column:
    /// positions are counted on from here, and resynchronisation rescans from here.
    @exclusivity(unchecked) var stanzaLevel = InputPosition(offset: 0, line: 1, column: 1)
    /// `finish()` was called: no more bytes will come.
    var endOfInput = false
    /// The rest of the input is ignored (not XML at all, or corrupt compressed data).
    var ignoringRest = false

    // MARK: The current document (see StanzaReader+Documents.swift)

    // A sequence of top-level elements is not one XML document, so each
    // top-level element (or stream) gets a parser of its own; the bytes after
    // its end are handed to the next one. A stream continued after damage, or
    // after `restartInterval` stanzas, gets a new parser too, fed first a copy
    // of the stream's start tag (`streamHeader`) so that its namespaces stay in scope.
    @exclusivity(unchecked) var context: xmlParserCtxtPtr?
    @exclusivity(unchecked) var documentStart = 0          // absolute offset where libxml2's byte 0 would be (before a copied header)
    @exclusivity(unchecked) var documentOrigin = (line: 1, column: 1)
    @exclusivity(unchecked) var documentDepth = 0
    @exclusivity(unchecked) var rootStarted = false
    @exclusivity(unchecked) var inStream = false
    /// The document is a run of top-level elements read as the children of a
    /// start tag of the reader's own (``sequenceHeader``): one parser for many
    /// of them, where a document each cost a parser each (see StanzaReader+Sequence.swift).
    @exclusivity(unchecked) var inSequence = false
    /// The last document was a top-level element that ended cleanly: an element
    /// right after it is the next of a sequence.
    var followsElement = false
    @exclusivity(unchecked) var streamScope: [NamespaceDeclaration] = []
    /// The BOSH or WebSocket frame the stanzas are in (see StanzaReader+Framing.swift).
    @exclusivity(unchecked) var frame = TransportFrame()
    /// The namespaces the start tag of the stream being read declares (none: no stream).
    package var streamDeclarations: [NamespaceDeclaration] { inStream ? streamScope : [] }
    /// The current stream's start tag, as written again for a new parser.
    var streamHeader: [UInt8]?
    /// The stream a damaged stanza was in, to go on with after it.
    var interruptedStreamHeader: [UInt8]?
    @exclusivity(unchecked) var resetOffset: Int?          // absolute offset where the next document starts
    @exclusivity(unchecked) var restartsStream = false     // ...continuing the same stream
    @exclusivity(unchecked) var stanzasInDocument = 0
    var finishing = false          // libxml2 is told the input has ended
    var endOfInputPosition = (line: 1, column: 1)
    /// How many bytes to hand libxml2 at once: small for a new document, so that a
    /// long run of tiny top-level elements is not copied again for each of them.
    var pieceSize = 256
    /// The XML declaration's `encoding`, when it is not UTF-8 (for the message on bad bytes).
    var declaredEncoding: String?

    // Pointers libxml2's dictionary gives for names the callbacks compare (equal
    // names are the same pointer within one parser).
    @exclusivity(unchecked) var streamLocalName: UnsafePointer<xmlChar>?
    @exclusivity(unchecked) var streamsNamespace: UnsafePointer<xmlChar>?
    @exclusivity(unchecked) var messageName: UnsafePointer<xmlChar>?
    @exclusivity(unchecked) var presenceName: UnsafePointer<xmlChar>?
    @exclusivity(unchecked) var iqName: UnsafePointer<xmlChar>?
    /// The current stanza's root name, when it is a stanza (which never contains a stanza).
    @exclusivity(unchecked) var stanzaLocalName: UnsafePointer<xmlChar>?
    @exclusivity(unchecked) var stanzaNamespace: UnsafePointer<xmlChar>?
    /// How many levels from the stanza's root down are all in the root's namespace.
    @exclusivity(unchecked) var sameNamespaceDepth = 0

    // MARK: Damage (see StanzaReader+Damage.swift)

    /// Damage seen inside a callback, acted on once xmlParseChunk returns.
    @exclusivity(unchecked) var pendingDamage: PendingDamage?
    /// Skipping damaged input: where it will resume is not known yet.
    var resynchronizer: Resynchronizer?
    /// The damage being skipped (`nil`: skipping silently).
    var skippedDamage: InputDamage?
    var skippedDamageOffset = 0

    // MARK: Input that starts anywhere (see StanzaReader+Encoding.swift)

    /// The first bytes have not been looked at yet (byte order mark, UTF-16, binary).
    var sniffing = true
    /// Undoes compression; `nil` while the first bytes have not come and once
    /// they have told the input is not compressed.
    var decompressed: DecompressedInput?
    /// No bytes have come: whether the input may be compressed is not known yet.
    var rawUndecided = true
    /// Top-level elements held back until the input has shown it starts cleanly.
    @exclusivity(unchecked) var startPhase: Bool
    @exclusivity(unchecked) var tentative: [(Element, line: Int)] = []
    @exclusivity(unchecked) var tentativePlaces: [StanzaByteRange] = []
    /// Text skipped at the start of the input, for the message when no XML follows.
    var leadingText: InputPosition?
    var leadingTextMessage = ""
    var sawDocument = false

    // MARK: The stanza being built (see StanzaReader+Tree.swift)

    @exclusivity(unchecked) var open: [Element] = []
    /// What ``wholeStanzaTest`` said of the open stanza: build it whole (`true`)
    /// or nothing below its start tag (`false`); `nil`: no test, as
    /// ``depthLimit`` and ``childSelection`` say.
    @exclusivity(unchecked) var stanzaDecision: Bool?
    /// The line where the open stanza starts.
    @exclusivity(unchecked) var openStanzaLine = 0
    @exclusivity(unchecked) var pendingText: [UInt8] = []
    /// The length of the current text node so far (see StanzaReader+Limits.swift).
    @exclusivity(unchecked) var textLength = 0
    /// Where libxml2 was when the current text node's count began: at the `>` that
    /// ends a start tag, or just after an end tag (see ``textLimitPosition()``).
    @exclusivity(unchecked) var textAnchor = 0
    /// How deep the reader is inside elements it does not build.
    @exclusivity(unchecked) var skipped = 0
    /// The names of the elements not built that are open, innermost last (for
    /// the message of a stanza cut off inside one: the same whatever is built).
    @exclusivity(unchecked) var skippedNames: [(prefix: UnsafePointer<xmlChar>?, localName: UnsafePointer<xmlChar>?)] = []
    /// The current stanza's elements and attributes so far, built or not (see StanzaReader+Limits.swift).
    @exclusivity(unchecked) var stanzaElements = 0
    @exclusivity(unchecked) var stanzaAttributes = 0
    /// The start tag libxml2 holds back unread, counted (see StanzaReader+Limits.swift).
    var tagScan = TagScan(start: -1)
    /// The start tag libxml2 holds back, looked at for a `<` that cuts it (see StanzaReader+HeldTag.swift).
    var heldTagScan = HeldTagScan()
    let names = NameCache()

    /// Creates a reader.
    /// - Parameters:
    ///   - defaultNamespace: the namespace of elements that have none in scope
    ///     (`-N jabber:client` for XEP examples that omit it).
    ///   - recovery: what to do with damaged input (``Recovery/stop`` by default).
    ///   - handler: called with each stanza once it is complete.
    public init(defaultNamespace: String? = nil, recovery: Recovery = .stop, handler: @escaping Handler) {
        self.defaultNamespace = defaultNamespace
        self.recovery = recovery
        self.handler = handler
        if case .skipDamage = recovery { startPhase = true } else { startPhase = false }
    }

    deinit { freeContext() }

    var recovers: Bool {
        if case .skipDamage = recovery { return true }
        return false
    }

    /// Parses more input. Stanzas completed by it are handed to the handler
    /// before this returns; with ``Recovery/stop``, damaged input throws after
    /// the stanzas before it.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw failure }
        guard !isStopped, !ignoringRest, !bytes.isEmpty else { return }
        try feedRaw(bytes.bindMemory(to: UInt8.self))
        // Elements held back at the start are handed out with the read that
        // completed them: a live stream (`tail -f`) must not wait for more.
        if startPhase && !tentative.isEmpty {
            leaveStartPhase()
            try deliver()
        }
    }

    /// Parses more input (see ``feed(_:)-(UnsafeRawBufferPointer)``).
    public func feed(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try feed($0) }
    }

    /// Declares the end of the input. An XMPP stream may end unclosed (a
    /// capture that was cut off) as long as no stanza in it is incomplete; with
    /// ``Recovery/stop``, throws if the input ends inside a stanza.
    public func finish() throws {
        if let failure { throw failure }
        guard !isStopped else { return }
        try finishInput()
        if let failure { throw failure }
    }

    /// Reads a whole file descriptor to its end, handing stanzas to the handler.
    public func read(fileDescriptor: Int32, chunkSize: Int = 1 << 16) throws {
        try readChunks(of: fileDescriptor, chunkSize: chunkSize, stopped: { isStopped }) { try feed($0) }
        try finish()
    }

    /// Parses a complete input held in memory and returns its stanzas.
    public static func stanzas(in text: String, defaultNamespace: String? = nil) throws -> [Element] {
        var result: [Element] = []
        let reader = StanzaReader(defaultNamespace: defaultNamespace) { result.append($0); return true }
        try reader.feed(Array(text.utf8))
        try reader.finish()
        return result
    }

    /// Whether everything fed so far forms complete documents (nothing is open,
    /// not even a stream): what a REPL waits for before it loads pasted XML.
    public var isBetweenDocuments: Bool {
        context == nil && resynchronizer == nil
    }

    /// Whether no stanza is partly read: between documents, or inside a stream
    /// between two of its stanzas (not inside a BOSH body or a WebSocket frame).
    public var isBetweenStanzas: Bool {
        if isBetweenDocuments { return true }
        guard let context, inStream, !frame.isOpen, open.isEmpty, skipped == 0 else { return false }
        return restIsBetweenStanzas(context)
    }

    /// How many elements of the stanza being read are open, built or not (0 between stanzas).
    package var openDepth: Int { open.count + skipped }

    /// Whether the reader is inside a stream between stanzas and holds back
    /// nothing but blanks: what is fed next is read as it would be by a reader
    /// of that stream that was fed nothing else.
    package var isBetweenStanzasHoldingNothing: Bool {
        guard failure == nil, !isStopped, resynchronizer == nil, let context, inStream, !frame.isOpen, open.isEmpty, skipped == 0
        else { return false }
        let consumed = documentStart + Int(xmlByteConsumed(context))
        return retained[max(0, consumed - retainedBase)...].allSatisfy(isXMLSpace)
    }

    /// Whether the bytes libxml2 has not consumed yet, inside a stream between
    /// stanzas, hold no part of a stanza: blanks, or text (which XMPP does not
    /// put there, and which is skipped like the blanks; libxml2 holds it back
    /// until it sees where it ends).
    func restIsBetweenStanzas(_ context: xmlParserCtxtPtr) -> Bool {
        let consumed = documentStart + Int(xmlByteConsumed(context))
        return !retained[max(0, consumed - retainedBase)...].contains(UInt8(ascii: "<"))
    }

    // MARK: - Handing out

    /// Hands the stanzas and damages collected so far to their handlers.
    func deliver() throws {
        guard !outbox.isEmpty else { return }
        // The handlers never add to the outbox (they run outside the callbacks).
        defer {
            outbox.removeAll(keepingCapacity: true)
            outboxPlaces.removeAll(keepingCapacity: true)
            currentPlace = nil
        }
        var places = outboxPlaces.makeIterator()
        for event in outbox where !isStopped {
            do {
                switch event {
                case .stanza(let element, let line):
                    currentPlace = places.next()
                    stanzaCount += 1
                    stanzaLine = line
                    if try !handler(element) { stop() }
                case .damage(let damage):
                    damageCount += 1
                    if try !damageHandler(damage) { stop() }
                }
            } catch {
                stop()
                throw error
            }
        }
    }

    func stop() {
        isStopped = true
        freeContext()
        resynchronizer = nil
    }
}

@inline(__always)
package func isXMLSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
}

/// Where a stanza was in the input, to read it again from there (the REPL keeps
/// these instead of the stanzas of a large file): the bytes from the end of what
/// came before it (so perhaps whitespace first) to the end of its end tag, and
/// the start tag of the stream it was in, which declares its namespaces.
public struct StanzaByteRange: Sendable {
    public var bytes: Range<Int>
    public var streamHeader: [UInt8]?
}
