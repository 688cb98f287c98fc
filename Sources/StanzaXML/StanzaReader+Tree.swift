import CLibXML2

/// The SAX2 callbacks: building each stanza's tree, and noticing where a
/// stanza or a stream starts and ends. They only record; stanzas and damage
/// are handed out once xmlParseChunk has returned (StanzaReader.deliver).
extension StanzaReader {
    /// The string for a name libxml2 interned in its dictionary: equal names
    /// come as the same pointer, so a small direct-mapped cache keyed by the
    /// pointer spares building (and validating) the same String per element.
    @inline(__always)
    func name(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        names.name(pointer)
    }

    func flushText() {
        guard !pendingText.isEmpty, let top = open.last else { return }
        top.appendText(String(decoding: pendingText, as: UTF8.self))
        pendingText.removeAll(keepingCapacity: true)
    }

    func startElement(
        _ localNamePointer: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
        _ namespaceCount: Int32, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        _ attributeCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard pendingDamage == nil, resetOffset == nil else { return }
        let depth = documentDepth
        documentDepth += 1
        textLength = 0
        textAnchor = consumedOffset()
        if documentDepth - (inSequence ? 1 : 0) > Self.maximumDepth {
            damageHere("elements nested deeper than \(Self.maximumDepth) levels (libxml2's limit)")
            return
        }
        if inSequence && depth == 0 { return }   // the reader's own start tag
        let level = depth - (inStream || inSequence ? 1 : 0) - (frame.isOpen ? 1 : 0)   // 0: the stanza's root
        if interruptsStanza(depth: depth, level: level, prefix, localNamePointer, uri) { return }
        if level == 0 && !frame.isOpen && isFrame(localNamePointer, uri) {
            return beginFrame(depth: depth, prefix: name(prefix), localName: name(localNamePointer) ?? "",
                              declarations: namespaceDeclarations(namespaceCount, namespaces))
        }
        guard countElement(level: level, prefix: prefix, localName: localNamePointer,
                           items: Int(attributeCount) + Int(namespaceCount)) else { return }
        if skipped > 0 || (stanzaDecision == false && !open.isEmpty)
            || (stanzaDecision == nil && depthLimit.map { open.count > $0 } ?? false) {
            skipped += 1
            skippedNames.append((prefix, localNamePointer))
            return
        }
        let localName = name(localNamePointer) ?? ""
        let declarations = namespaceDeclarations(namespaceCount, namespaces)
        let namespace = name(uri) ?? defaultNamespace(declarations) ?? ""
        if open.count == 1, stanzaDecision == nil, let childSelection,
           !childSelection.admits(name: localName, namespace: namespace, rootNamespace: open[0].namespace) {
            skipped += 1
            skippedNames.append((prefix, localNamePointer))
            return
        }
        if depth == 0 {
            rootStarted = true
            if localNamePointer == streamLocalName && uri == streamsNamespace {
                beginStream(prefix: name(prefix), declarations: declarations)
                return
            }
            if startPhase && isStanzaName(localNamePointer) { leaveStartPhase() }
        } else if inSequence && depth == 1 {
            rootStarted = true
            if startPhase && isStanzaName(localNamePointer) { leaveStartPhase() }
        }
        if level == 0 {
            // Stanzas never contain a stanza of their own name but inside a payload
            // of another namespace: a second one means the first was cut off.
            if isStanzaName(localNamePointer) && isStanzaNamespace(name(uri) ?? "") {
                stanzaLocalName = localNamePointer
                stanzaNamespace = uri
            } else {
                stanzaLocalName = nil
            }
            sameNamespaceDepth = 1
            openStanzaLine = startTagLine()
        }
        let element = Element(
            name: localName, namespace: namespace, prefix: name(prefix),
            attributes: buildsAttributes ? attributeList(attributeCount, attributes) : [], namespaceDeclarations: declarations)
        if let parent = open.last {
            flushText()
            parent.append(element)
        } else {
            if let scope = inheritedScope { element.inheritedDeclarations = scope }
            stanzaDecision = wholeStanzaTest?(element)
        }
        open.append(element)
    }

    /// Whether a start tag at `depth` (the stanza's root at `level` 0) shows that the
    /// stanza being read was cut off: a stream header where a stanza could start
    /// or inside one (a new stream), or a stanza's name in the stanza's namespace
    /// where it starts a new stanza. Reported as such, then true.
    @inline(__always)
    private func interruptsStanza(depth: Int, level: Int, _ prefix: UnsafePointer<xmlChar>?,
                                  _ localNamePointer: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) -> Bool {
        if depth > 0 && localNamePointer == streamLocalName && uri == streamsNamespace {
            interrupted(at: tagStart(before: consumedOffset()), by: "a new stream",
                        reconnect: level == 0 && open.isEmpty && skipped == 0)
            return true
        }
        guard level > 0, stanzaLocalName != nil else { return false }
        let sameNamespace = uri == stanzaNamespace
        if sameNamespace && sameNamespaceDepth == level && isStanzaName(localNamePointer) {
            let start = tagStart(before: consumedOffset())
            if startsNewStanza(at: start) {
                interrupted(at: start, by: "a new <\(name(prefix).map { $0 + ":" } ?? "")\(name(localNamePointer) ?? "")>", reconnect: false)
                return true
            }
        }
        if sameNamespace && sameNamespaceDepth == level { sameNamespaceDepth = level + 1 }
        return false
    }

    /// The namespace declarations libxml2 passes with a start tag (prefix, URI pairs).
    @inline(__always)
    private func namespaceDeclarations(_ count: Int32, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?)
        -> [NamespaceDeclaration] {
        guard count > 0, let namespaces else { return [] }
        var declarations: [NamespaceDeclaration] = []
        declarations.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            declarations.append(NamespaceDeclaration(prefix: name(namespaces[2 * index]), uri: name(namespaces[2 * index + 1]) ?? ""))
        }
        return declarations
    }

    /// The attributes libxml2 passes with a start tag (five pointers each: name,
    /// prefix, URI, value start and end).
    @inline(__always)
    private func attributeList(_ count: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) -> [Attribute] {
        guard count > 0, let attributes else { return [] }
        var list: [Attribute] = []
        list.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let base = 5 * index
            let start = attributes[base + 3]!, end = attributes[base + 4]!
            let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
            list.append(Attribute(name: name(attributes[base]) ?? "", prefix: name(attributes[base + 1]),
                                  namespace: name(attributes[base + 2]) ?? "", value: value))
        }
        return list
    }

    /// The line where the stanza whose start tag libxml2 has just read begins.
    /// Counted on from the last place between stanzas over the blanks up to the
    /// tag's `<` (a byte or two: a stanza follows the end of the one before);
    /// when markup comes first (a comment, an XML declaration), counted back
    /// from libxml2's line (that of the tag's end, where it calls back) over the
    /// newlines inside the tag. Once per stanza: its cost is noise.
    private func startTagLine() -> Int {
        let from = stanzaLevel.offset - retainedBase
        let end = min(consumedOffset(), inputLength) - retainedBase
        return retained.withUnsafeBufferPointer { bytes in
            if from >= 0 {
                var line = stanzaLevel.line, index = from
                while index < end {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "<") {
                        if index + 1 < end && (bytes[index + 1] == UInt8(ascii: "!") || bytes[index + 1] == UInt8(ascii: "?")) { break }
                        return line
                    }
                    if byte == 0x0A { line += 1 }
                    index += 1
                }
            }
            var line = currentPosition().line, index = end - 1
            while index > 0 && bytes[index] != UInt8(ascii: "<") {
                if bytes[index] == 0x0A { line -= 1 }
                index -= 1
            }
            return line
        }
    }

    /// The pointers libxml2's dictionary gives `message`, `presence` and `iq`.
    @inline(__always)
    func isStanzaName(_ pointer: UnsafePointer<xmlChar>?) -> Bool {
        pointer == messageName || pointer == presenceName || pointer == iqName
    }

    /// Whether a stanza's start tag, in the open stanza's namespace with nothing
    /// else between, is a new stanza (the open one was cut off): when it begins
    /// a line and is not indented more than the open stanza's start tag.
    /// (Resynchronizer explains the rule.)
    private func startsNewStanza(at start: Int) -> Bool {
        guard let root = firstTagOffset(from: stanzaLevel.offset), root < start else { return false }
        return retained.withUnsafeBufferPointer { bytes in
            guard let indent = indentation(of: start, in: bytes, base: retainedBase, before: beforeRetained) else { return false }
            return indent <= column(of: root, in: bytes, base: retainedBase, before: beforeRetained)
        }
    }

    /// The root of the document is a stream: its children are the stanzas.
    private func beginStream(prefix: String?, declarations: [NamespaceDeclaration]) {
        inStream = true
        streamScope = declarations
        leaveStartPhase()
        // Written again for a parser that continues this stream.
        streamHeader = writtenStartTag(prefix: prefix, localName: "stream", declarations: declarations)
        // Between stanzas from just after the start tag's '>' (libxml2 calls back before reading it).
        var end = consumedOffset()
        if end >= retainedBase && end < inputLength && retained[end - retainedBase] == UInt8(ascii: ">") { end += 1 }
        if end > stanzaLevel.offset { stanzaLevel = position(of: end) }
    }

    /// The namespace of an unprefixed element that has none: `-N`'s, unless a
    /// default namespace declaration is in scope — which, as the element has
    /// no namespace, can only be an explicit `xmlns=''` undeclaring it.
    private func defaultNamespace(_ declarations: [NamespaceDeclaration]) -> String? {
        guard let defaultNamespace else { return nil }
        func declaresDefault(_ list: [NamespaceDeclaration]) -> Bool { list.contains { $0.prefix == nil } }
        if declaresDefault(declarations) || open.contains(where: { declaresDefault($0.namespaceDeclarations) })
            || declaresDefault(inheritedScope ?? []) {
            return nil
        }
        return defaultNamespace
    }

    func endElement() {
        guard pendingDamage == nil, resetOffset == nil else { return }
        documentDepth -= 1
        textLength = 0
        textAnchor = consumedOffset()
        let stanzaDepth = (inStream || inSequence ? 1 : 0) + (frame.isOpen ? 1 : 0)
        if stanzaLocalName != nil && sameNamespaceDepth > documentDepth - stanzaDepth {
            sameNamespaceDepth = documentDepth - stanzaDepth
        }
        if skipped > 0 {
            skipped -= 1
            skippedNames.removeLast()
            return
        }
        if frame.isOpen && open.isEmpty {
            // The frame's end tag (its children are all closed, built or not).
            endFrame()
            if inSequence { return endSequenceElement() }
        } else if let element = open.popLast() {
            if !pendingText.isEmpty {
                element.appendText(String(decoding: pendingText, as: UTF8.self))
                pendingText.removeAll(keepingCapacity: true)
            }
            if open.isEmpty {
                let end = consumedOffset()
                let place = StanzaByteRange(bytes: min(stanzaLevel.offset, end)..<end, streamHeader: continuationHeader)
                if startPhase && !inStream {
                    tentative.append((element, line: openStanzaLine))
                    tentativePlaces.append(place)
                    if tentative.count >= Self.tentativeLimit { leaveStartPhase() }
                } else {
                    outbox.append(.stanza(element, line: openStanzaLine))
                    outboxPlaces.append(place)
                }
                stanzaLocalName = nil
                markStanzaLevel()
                if inStream || frame.isOpen {
                    stanzasInDocument += 1
                    if stanzasInDocument >= Self.restartInterval, let context {
                        resetOffset = stanzaLevel.offset
                        restartsStream = true
                        xmlStopParser(context)
                        return
                    }
                } else if inSequence {
                    return endSequenceElement()
                }
            }
        }
        if documentDepth == 0, let context {
            // The document's root is closed: whatever follows belongs to the next one.
            markStanzaLevel()
            resetOffset = consumedOffset()
            restartsStream = false
            followsElement = !inStream
            xmlStopParser(context)
        }
    }

    /// How many top-level elements the start phase holds back at most.
    package static let tentativeLimit = 16

    func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
        guard pendingDamage == nil, let bytes, count > 0 else { return }
        // libxml2 hands text over in pieces and checks no total: apply its limit
        // to each text node, built or not (the same input is well-formed whatever the query).
        textLength += Int(count)
        if textLength > Self.maximumTextLength {
            let place = textLimitPosition()
            damage(line: place.line, column: place.column, "text longer than \(Self.maximumTextLength) bytes (libxml2's limit)")
            pendingText.removeAll()
            return
        }
        guard !open.isEmpty, skipped == 0, stanzaDecision != false else { return }
        pendingText.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
    }

    // MARK: - The SAX2 handler

    nonisolated(unsafe) static let saxHandler: xmlSAXHandler = {
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
            withReader(context) { $0.startElement(localName, prefix, uri, namespaceCount, namespaces, attributeCount, attributes) }
        }
        sax.endElementNs = { context, _, _, _ in withReader(context) { $0.endElement() } }
        sax.characters = { context, bytes, count in withReader(context) { $0.characters(bytes, count) } }
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

/// Calls `body` with the reader a callback's context points to, without
/// retaining and releasing it: for the callbacks of every element and every
/// text, where that pair of atomic operations was a noticeable part of every
/// search's time.
/// Safe because libxml2 calls back only from inside `xmlParseChunk`, which the
/// reader itself calls, holding itself alive.
@inline(__always)
private func withReader(_ context: UnsafeMutableRawPointer?, _ body: (StanzaReader) -> Void) {
    Unmanaged<StanzaReader>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
}

/// The stanzas of RFC 6120, which never contain themselves.
@inline(__always)
func isStanzaName(_ name: String) -> Bool {
    name == "message" || name == "presence" || name == "iq"
}

/// The namespaces they are in (or none, in XEP examples read without `-N`).
@inline(__always)
func isStanzaNamespace(_ namespace: String) -> Bool {
    namespace == "jabber:client" || namespace.isEmpty || namespace == "jabber:server" || namespace == "jabber:component:accept"
}
