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
/// one after another, each optionally preceded by an XML declaration. Every
/// top-level element, and every child of a stream, is a stanza: it is built
/// as its own tree (with no parent), handed to the handler as soon as its end
/// tag is read, and then forgotten, so memory does not grow with the input.
///
/// ```swift
/// let reader = StanzaReader { stanza in print(stanza.name); return true }
/// try reader.feed(Array("<a/><b/>".utf8))
/// try reader.finish()
/// ```
public final class StanzaReader {
    /// Receives each stanza; return `false` to stop reading.
    public typealias Handler = (Element) -> Bool

    /// How many stanzas have been handed to the handler so far.
    public private(set) var stanzaCount = 0
    /// Whether the handler asked to stop (further input is ignored).
    public private(set) var isStopped = false

    let defaultNamespace: String?
    let handler: Handler

    /// Elements more than this many levels below their stanza's root are not
    /// built (nor their text): a query that cannot reach them (``Query/reach``)
    /// gives the same results, and the reader does far less work. `nil`: build all.
    public var depthLimit: Int?
    /// How deep the reader is inside elements it does not build.
    private var skipped = 0

    // The parser of the current document. A sequence of top-level elements is
    // not one XML document, so each top-level element (or stream) gets a
    // parser of its own; the bytes after its end are handed to the next one.
    var context: xmlParserCtxtPtr?
    var documentStart = 0          // absolute offset where the current document starts
    var documentOrigin = (line: 1, column: 1)
    var documentDepth = 0
    var rootStarted = false
    var inStream = false
    var streamScope: [NamespaceDeclaration] = []
    var resetOffset: Int?          // absolute offset just after the root's end tag
    var failure: StanzaReaderError?
    var finishing = false          // the input has ended: libxml2 is told to terminate

    // Bytes not yet known to be consumed by the parser: needed to restart
    // after a top-level element and to tell where an error is.
    var retained: [UInt8] = []
    var retainedBase = 0           // absolute offset of retained[0]
    /// A place whose line and column are known, at or before the start of the
    /// next document: libxml2 counts lines inside a document, so the reader
    /// only carries a position across the whitespace between documents.
    var knownPosition = (offset: 0, line: 1, column: 1)
    /// Nothing but (a part of) a byte order mark has been read yet.
    private var mayStartWithByteOrderMark = true
    var inputLength = 0            // total bytes fed

    // The stanza being built.
    var open: [Element] = []
    var pendingText: [UInt8] = []

    /// Creates a reader.
    /// - Parameters:
    ///   - defaultNamespace: the namespace of elements that have none in scope
    ///     (`-N jabber:client` for XEP examples that omit it).
    ///   - handler: called with each stanza as soon as it is complete.
    public init(defaultNamespace: String? = nil, handler: @escaping Handler) {
        self.defaultNamespace = defaultNamespace
        self.handler = handler
    }

    deinit { freeContext() }

    /// Parses more input. Stanzas completed by it are handed to the handler
    /// before this returns; malformed input throws after the stanzas before it.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw failure }
        guard !isStopped, !bytes.isEmpty else { return }
        let start = inputLength
        retained.append(contentsOf: bytes.bindMemory(to: UInt8.self))
        inputLength += bytes.count
        try pump(from: start)
    }

    /// Parses more input (see ``feed(_:)-(UnsafeRawBufferPointer)``).
    public func feed(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try feed($0) }
    }

    /// Declares the end of the input. Throws if it ends inside a stanza. An XMPP
    /// stream may end unclosed (a capture that was cut off) as long as no stanza
    /// in it is incomplete.
    public func finish() throws {
        if let failure { throw failure }
        guard !isStopped, let context else { return }
        let consumed = documentStart + Int(xmlByteConsumed(context))
        let restIsBlank = retained[max(0, consumed - retainedBase)...].allSatisfy(isXMLSpace)
        if restIsBlank && ((inStream && open.isEmpty) || !rootStarted) {
            freeContext()
            return
        }
        finishing = true
        endOfInput = endPosition()   // before libxml2 halts and forgets where it was
        _ = xmlParseChunk(context, nil, 0, 1)
        if let failure { throw failure }
        if resetOffset == nil {
            fail(line: endOfInput.line, column: endOfInput.column, "unexpected end of input")
            throw failure!
        }
    }

    /// Reads a whole file descriptor to its end, handing stanzas to the handler.
    public func read(fileDescriptor: Int32, chunkSize: Int = 1 << 16) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        while !isStopped {
            let count = Glibc.read(fileDescriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw StanzaReaderError.io(errno: errno)
            }
            if count == 0 { break }
            try feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
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
        context == nil
    }

    /// Whether no stanza is partly read: between documents, or inside a stream
    /// between two of its stanzas.
    public var isBetweenStanzas: Bool {
        if isBetweenDocuments { return true }
        guard let context, inStream, open.isEmpty else { return false }
        let consumed = documentStart + Int(xmlByteConsumed(context))
        return retained[max(0, consumed - retainedBase)...].allSatisfy(isXMLSpace)
    }

    // MARK: - Driving the parser

    private func pump(from start: Int) throws {
        var next = start
        while next < inputLength && !isStopped {
            if context == nil {
                // Whitespace between top-level elements is not part of any
                // document (and may not precede an XML declaration).
                // A UTF-8 byte order mark opening the input: libxml2 skips it only when
                // it detects the encoding itself, and the encoding is forced here.
                if mayStartWithByteOrderMark {
                    let have = min(3, inputLength)
                    if retained.prefix(have).elementsEqual(utf8ByteOrderMark.prefix(have)) {
                        if inputLength < 3 { return }   // perhaps a mark fed a byte at a time
                        next = 3
                        knownPosition = (3, 1, 1)
                    }
                    mayStartWithByteOrderMark = false
                }
                var first = next
                while first < inputLength && isXMLSpace(retained[first - retainedBase]) { first += 1 }
                if first == inputLength {
                    let place = position(of: first)
                    knownPosition = (first, place.line, place.column)
                    trim(upTo: first)
                    return
                }
                startDocument(at: first)
                next = first
            }
            let count = inputLength - next
            retained.withUnsafeBufferPointer { all in
                let chunk = UnsafeRawPointer(all.baseAddress! + (next - retainedBase))
                _ = xmlParseChunk(context, chunk.assumingMemoryBound(to: CChar.self), Int32(count), 0)
            }
            if let failure { throw failure }
            if let reset = resetOffset {
                freeContext()
                next = reset
                continue
            }
            next = inputLength
            if let context { trim(upTo: documentStart + Int(xmlByteConsumed(context))) }
        }
    }

    private func startDocument(at offset: Int) {
        documentOrigin = position(of: offset)   // before trimming drops the bytes it counts over
        trim(upTo: offset)
        documentStart = offset
        documentDepth = 0
        rootStarted = false
        inStream = false
        streamScope = []
        resetOffset = nil
        finishing = false
        // A new parser has a new dictionary: its pointers may be reused for other names.
        for slot in nameKeys.indices { nameKeys[slot] = nil }
        var sax = Self.saxHandler
        let me = Unmanaged.passUnretained(self).toOpaque()
        context = xmlCreatePushParserCtxt(&sax, me, nil, 0, nil)
        // NOENT only makes libxml2 hand over attribute values with the
        // predefined entities decoded: custom entities need a DTD, which is
        // refused before its first declaration. NONET: never touch the network.
        // No XML_PARSE_HUGE: keep libxml2's limits on depth and sizes.
        // IGNORE_ENC and UTF-8: XMPP is UTF-8 only (RFC 6120), and libxml2's
        // converters for other declared encodings print to stderr on bad bytes.
        _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue))
        _ = xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
    }

    private func freeContext() {
        if let context {
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        open.removeAll()
        skipped = 0
        pendingText.removeAll(keepingCapacity: true)
    }

    /// Forgets retained bytes before `offset`, keeping track of where they ended.
    private func trim(upTo offset: Int) {
        let count = offset - retainedBase
        guard count > 0 else { return }
        // Trimming copies the rest: only do it once it is worth it.
        if count < 1 << 16 && count < retained.count { return }
        retained.removeFirst(count)
        retainedBase = offset
    }

    private func advance(_ origin: (line: Int, column: Int), over bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
        var (line, column) = origin
        for byte in bytes {
            if byte == 0x0A { line += 1; column = 1 }
            else if byte & 0xC0 != 0x80 { column += 1 }   // count characters, not UTF-8 continuation bytes
        }
        return (line, column)
    }

    /// The line and column of an offset between documents, counted on from
    /// ``knownPosition`` over the bytes in between (whitespace, normally).
    func position(of offset: Int) -> (line: Int, column: Int) {
        let from = knownPosition.offset - retainedBase, to = offset - retainedBase
        guard from >= 0, from <= to, to <= retained.count else { return (knownPosition.line, knownPosition.column) }
        return advance((knownPosition.line, knownPosition.column), over: retained[from..<to])
    }

    /// The end of the input: libxml2's position where it stopped parsing,
    /// counted on over the bytes it has not consumed (they are all retained).
    func endPosition() -> (line: Int, column: Int) {
        guard let context else { return position(of: inputLength) }
        let consumed = documentStart + Int(xmlByteConsumed(context)) - retainedBase
        guard consumed >= 0, consumed <= retained.count else { return currentPosition() }
        return advance(currentPosition(), over: retained[consumed...])
    }

    private var endOfInput = (line: 1, column: 1)

    /// Where libxml2 is in the current document, in input coordinates.
    func currentPosition() -> (line: Int, column: Int) {
        guard let context else { return position(of: inputLength) }
        return inputPosition(line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context)))
    }


    func fail(line: Int, column: Int, _ message: String) {
        guard failure == nil else { return }
        failure = .malformed(line: line, column: column, message: message)
        if let context { xmlStopParser(context) }
    }

    /// Turns a position libxml2 reports in the current document into one in the whole input.
    func inputPosition(line: Int, column: Int) -> (line: Int, column: Int) {
        if line <= 1 { return (documentOrigin.line, documentOrigin.column + max(column, 1) - 1) }
        return (documentOrigin.line + line - 1, max(column, 1))
    }

    // MARK: - Building stanzas (called from the SAX callbacks)

    /// The string for a name libxml2 interned in its dictionary: equal names
    /// come as the same pointer, so a small direct-mapped cache keyed by the
    /// pointer spares building (and validating) the same String per element.
    func name(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        let key = UnsafeRawPointer(pointer)
        let slot = (Int(bitPattern: key) >> 4) & (Self.nameSlots - 1)
        if nameKeys[slot] == key { return nameValues[slot] }
        let string = String(cString: pointer)
        nameKeys[slot] = key
        nameValues[slot] = string
        return string
    }

    private static let nameSlots = 1024
    private var nameKeys = [UnsafeRawPointer?](repeating: nil, count: nameSlots)
    private var nameValues = [String](repeating: "", count: nameSlots)

    func flushText() {
        guard !pendingText.isEmpty, let top = open.last else { return }
        top.appendText(String(decoding: pendingText, as: UTF8.self))
        pendingText.removeAll(keepingCapacity: true)
    }

    func startElement(
        _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
        _ namespaceCount: Int32, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        _ attributeCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard failure == nil else { return }
        let depth = documentDepth
        documentDepth += 1
        // libxml2 2.9's push parser does not apply its own nesting limit to
        // SAX2 callers; apply it here (deeper trees would also overflow the
        // stack when they are freed).
        if documentDepth > Self.maximumDepth {
            let place = inputPosition(line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context)))
            fail(line: place.line, column: place.column, "elements nested deeper than \(Self.maximumDepth) levels (libxml2's limit)")
            return
        }
        let localName = name(localName) ?? ""
        var declarations: [NamespaceDeclaration] = []
        if namespaceCount > 0, let namespaces {
            declarations.reserveCapacity(Int(namespaceCount))
            for index in 0..<Int(namespaceCount) {
                declarations.append(NamespaceDeclaration(
                    prefix: name(namespaces[2 * index]), uri: name(namespaces[2 * index + 1]) ?? ""))
            }
        }
        let namespace = name(uri) ?? defaultNamespace(declarations) ?? ""
        if skipped > 0 || (depthLimit.map { open.count > $0 } ?? false) {
            skipped += 1
            return
        }
        if depth == 0 {
            rootStarted = true
            if localName == "stream" && namespace == "http://etherx.jabber.org/streams" {
                inStream = true
                streamScope = declarations
                return
            }
        }
        var attributeList: [Attribute] = []
        if attributeCount > 0, let attributes {
            attributeList.reserveCapacity(Int(attributeCount))
            for index in 0..<Int(attributeCount) {
                let base = 5 * index
                let start = attributes[base + 3]!, end = attributes[base + 4]!
                let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                attributeList.append(Attribute(
                    name: name(attributes[base]) ?? "", prefix: name(attributes[base + 1]),
                    namespace: name(attributes[base + 2]) ?? "", value: value))
            }
        }
        let element = Element(
            name: localName, namespace: namespace, prefix: name(prefix),
            attributes: attributeList, namespaceDeclarations: declarations)
        if let parent = open.last {
            flushText()
            parent.append(element)
        } else if inStream {
            element.inheritedDeclarations = streamScope
        }
        open.append(element)
    }

    /// The namespace of an unprefixed element that has none: `-N`'s, unless a
    /// default namespace declaration is in scope — which, as the element has
    /// no namespace, can only be an explicit `xmlns=''` undeclaring it.
    private func defaultNamespace(_ declarations: [NamespaceDeclaration]) -> String? {
        guard let defaultNamespace else { return nil }
        func declaresDefault(_ list: [NamespaceDeclaration]) -> Bool { list.contains { $0.prefix == nil } }
        if declaresDefault(declarations) || open.contains(where: { declaresDefault($0.namespaceDeclarations) })
            || (inStream && declaresDefault(streamScope)) {
            return nil
        }
        return defaultNamespace
    }

    func endElement() {
        guard failure == nil else { return }
        documentDepth -= 1
        if skipped > 0 {
            skipped -= 1
            return
        }
        if let element = open.popLast() {
            if !pendingText.isEmpty {
                element.appendText(String(decoding: pendingText, as: UTF8.self))
                pendingText.removeAll(keepingCapacity: true)
            }
            if open.isEmpty {
                stanzaCount += 1
                if !handler(element) {
                    isStopped = true
                    if let context { xmlStopParser(context) }
                    return
                }
            }
        }
        if documentDepth == 0, let context {
            // The document's root is closed: whatever follows belongs to the next one.
            resetOffset = documentStart + Int(xmlByteConsumed(context))
            let here = currentPosition()
            knownPosition = (resetOffset!, here.line, here.column)
            xmlStopParser(context)
        }
    }

    func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
        guard !open.isEmpty, skipped == 0, let bytes, count > 0, failure == nil else { return }
        pendingText.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
        // libxml2 hands text over in pieces and checks no total: apply its limit for one text node.
        if pendingText.count > Self.maximumTextLength {
            let place = inputPosition(line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context)))
            fail(line: place.line, column: place.column, "text longer than \(Self.maximumTextLength) bytes (libxml2's limit)")
            pendingText.removeAll()
        }
    }

    /// libxml2's limits without XML_PARSE_HUGE: nesting depth and the length of one text node.
    public static let maximumDepth = 256
    public static let maximumTextLength = 10_000_000

    func refuseDTD() {
        guard let context else { return }
        let place = inputPosition(line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context)))
        fail(line: place.line, column: place.column, "DTD is not allowed (XMPP forbids <!DOCTYPE>)")
    }

    func libxmlError(_ error: UnsafePointer<xmlError>) {
        guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }   // warnings are not failures
        guard resetOffset == nil else { return }   // the parser was stopped on purpose
        let code = Int(error.pointee.code)
        let place = inputPosition(line: Int(error.pointee.line), column: Int(error.pointee.int2))
        let end = endOfInput
        // An error at the very end once the input has ended is a cut-off stanza, whatever
        // libxml2 calls it ("extra content at the end", "attributes construct error", …).
        if finishing && (code == Int(XML_ERR_DOCUMENT_END.rawValue) || place == end) {
            let what = open.last.map { "<\(($0.prefix.map { $0 + ":" } ?? "") + $0.name)> is not closed" }
            fail(line: end.line, column: end.column, "unexpected end of input" + (what.map { ": " + $0 } ?? ""))
            return
        }
        var message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        while message.last?.isWhitespace == true { message.removeLast() }
        // One line per message ("… indicate encoding !\nBytes: 0xFF …").
        message = message.split(separator: "\n").joined(separator: " ")
        if code == Int(XML_ERR_TAG_NAME_MISMATCH.rawValue) || code == Int(XML_ERR_TAG_NOT_FINISHED.rawValue) {
            message = shiftingLineNumbers(in: message)
        }
        fail(line: place.line, column: place.column, message)
    }

    /// libxml2 names the line of the start tag ("… tag mismatch: a line 3 and b")
    /// counting from the start of the current document; count from the input's.
    private func shiftingLineNumbers(in message: String) -> String {
        let words = message.split(separator: " ", omittingEmptySubsequences: false)
        guard let index = words.firstIndex(of: "line"), index + 1 < words.count,
              let line = Int(words[index + 1]) else { return message }
        var shifted = words.map(String.init)
        shifted[index + 1] = String(line + documentOrigin.line - 1)
        return shifted.joined(separator: " ")
    }

    // MARK: - The SAX2 handler

    nonisolated(unsafe) private static let saxHandler: xmlSAXHandler = {
        var sax = xmlSAXHandler()
        xmlSAXVersion(&sax, 2)
        // xmlSAXVersion installs libxml2's tree-building handlers, which take the
        // parser context as their first argument; ours get the reader instead, so
        // every one of them must go (getEntity read the reader as a context and
        // crashed on an undeclared entity after a first stanza — found by fuzzing).
        sax.getEntity = nil
        sax.getParameterEntity = nil
        sax.resolveEntity = nil
        sax.entityDecl = nil
        sax.notationDecl = nil
        sax.attributeDecl = nil
        sax.elementDecl = nil
        sax.unparsedEntityDecl = nil
        sax.setDocumentLocator = nil
        sax.isStandalone = nil
        sax.hasInternalSubset = nil
        sax.hasExternalSubset = nil
        sax.startDocument = nil
        sax.endDocument = nil
        sax.comment = nil
        sax.processingInstruction = nil
        sax.reference = nil
        sax.warning = nil
        sax.error = nil
        sax.fatalError = nil
        sax.startElement = nil
        sax.endElement = nil
        sax.internalSubset = { context, _, _, _ in reader(context).refuseDTD() }
        sax.externalSubset = { context, _, _, _ in reader(context).refuseDTD() }
        sax.startElementNs = { context, localName, prefix, uri, namespaceCount, namespaces, attributeCount, _, attributes in
            reader(context).startElement(localName, prefix, uri, namespaceCount, namespaces, attributeCount, attributes)
        }
        sax.endElementNs = { context, _, _, _ in reader(context).endElement() }
        sax.characters = { context, bytes, count in reader(context).characters(bytes, count) }
        sax.ignorableWhitespace = sax.characters
        sax.cdataBlock = sax.characters
        sax.serror = { context, error in
            if let error { reader(context).libxmlError(UnsafePointer(error)) }
        }
        return sax
    }()
}

private func reader(_ context: UnsafeMutableRawPointer?) -> StanzaReader {
    Unmanaged<StanzaReader>.fromOpaque(context!).takeUnretainedValue()
}

private let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

@inline(__always)
func isXMLSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
}
