import CLibXML2

/// Driving libxml2: which bytes go to which parser, where documents start and
/// end, and how a place in the input is told as a line and a column.
extension StanzaReader {
    /// How many stanzas of a stream one parser reads before a new one takes over
    /// (with the stream's namespaces): libxml2 keeps every distinct name in a
    /// dictionary until its document ends, so without this the time and memory
    /// per stanza would grow with the stanzas before it.
    static let restartInterval = 1000

    /// The most bytes handed to libxml2 at once: the stanzas a piece completes
    /// wait in the outbox until it is parsed, and fewer of them alive at once
    /// keep malloc on its fast path.
    static let maximumPiece = 1 << 12

    /// Decompressed input: kept, then parsed.
    func feedDecoded(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard !isStopped, !ignoringRest, failure == nil, !bytes.isEmpty else { return }
        retained.append(contentsOf: bytes)
        inputLength += bytes.count
        try pump()
    }

    /// Parses (or skips) everything fed so far, handing out what it completes.
    func pump() throws {
        while !isStopped && failure == nil && !ignoringRest {
            if resynchronizer != nil {
                if resynchronize() { continue }
                break
            }
            if cursor >= inputLength { break }
            if context == nil {
                if beginDocument() { continue }
                break
            }
            parsePiece()
            try afterParse()
        }
        if let keep = resynchronizer?.keepFrom, keep > stanzaLevel.offset {
            // Skipping damage forgets the bytes skipped: count positions on over
            // them first (small reads, `tail -f`), or lines after it would be off.
            stanzaLevel = position(of: keep)
        }
        trim(upTo: resynchronizer?.keepFrom ?? min(stanzaLevel.offset, cursor))
        try deliver()
        if let failure { throw failure }
    }

    /// Hands libxml2 the next piece of the input. A new document gets small
    /// pieces, growing: libxml2 copies what it is given, and a run of tiny
    /// top-level elements must not copy the rest of the input for each one.
    private func parsePiece() {
        let start = cursor
        let count = allowedPiece(from: start, count: min(inputLength - start, pieceSize))
        guard count > 0 else { return }   // a limit is met: damage is pending
        pieceSize = min(pieceSize * 2, Self.maximumPiece)
        cursor = start + count
        retained.withUnsafeBufferPointer { all in
            let chunk = UnsafeRawPointer(all.baseAddress! + (start - retainedBase))
            _ = xmlParseChunk(context, chunk.assumingMemoryBound(to: CChar.self), Int32(count), 0)
        }
        readCutHeldTag()
    }

    /// Acts on what the callbacks found: damage, or the end of a document.
    func afterParse() throws {
        if let damage = pendingDamage ?? strayReference() {
            pendingDamage = nil
            handle(damage)
        } else if let reset = resetOffset {
            let header = restartsStream ? continuationHeader : nil
            freeContext()
            cursor = reset
            if let header { startDocument(at: reset, header: header) }
        }
        try deliver()
    }

    /// Starts a document at the next non-blank byte, or skips what cannot start
    /// one. Returns false when more input is needed.
    private func beginDocument() -> Bool {
        if sniffing {
            guard sniff() else { return false }
            if ignoringRest || failure != nil { return false }
        }
        var first = cursor
        retained.withUnsafeBufferPointer { all in
            while first < inputLength && isXMLSpace(all[first - retainedBase]) { first += 1 }
        }
        if first > cursor {
            stanzaLevel = position(of: first)
            cursor = first
        }
        if first == inputLength { return false }
        guard first + 1 < inputLength || endOfInput else { return false }
        let lead = retained[first - retainedBase]
        let next: UInt8? = first + 1 < inputLength ? retained[first + 1 - retainedBase] : nil
        // The next element of a sequence: read with the parser of those before it from here on.
        if followsElement && !endOfInput && nextSequenceElement(from: first) == first {
            startDocument(at: first, header: Self.sequenceHeader, sequence: true)
            return true
        }
        // A '<' starts a document, even a malformed one (libxml2 then says what is wrong with it).
        if lead == UInt8(ascii: "<"), let next, next != UInt8(ascii: "/") {
            if next == UInt8(ascii: "?") && startsWith("<?xml", at: first) { leaveStartPhase() }
            startDocument(at: first, header: nil)
            return true
        }
        let endTag = lead == UInt8(ascii: "<") && next == UInt8(ascii: "/")
        // (The message names the end tag: its name is awaited, as far as it is quoted,
        // so that the message does not depend on where a read ended.)
        if endTag && !endOfInput && nameMayGoOn(at: first + 2) { return false }
        // (Likewise the text the message quotes, to its line's end or its next tag.)
        if !endTag && !endOfInput && textMayGoOn(at: first) { return false }
        skipJunk(at: first, endTag: endTag)
        return true
    }

    /// Whether the text at `offset` runs to the end of the input read so far,
    /// within what ``quotedText(at:)`` quotes: more input may lengthen it.
    private func textMayGoOn(at offset: Int) -> Bool {
        var end = offset
        while end < inputLength && end - offset < 200 {
            let byte = retained[end - retainedBase]
            if byte == 0x0A || byte == 0x0D || (end > offset && byte == UInt8(ascii: "<")) { return false }
            end += 1
        }
        return end == inputLength && end - offset < 200
    }

    /// Whether the name at `offset` runs to the end of the input read so far,
    /// within what ``quotedName(at:)`` quotes: more input may lengthen it.
    private func nameMayGoOn(at offset: Int) -> Bool {
        var end = offset
        while end < inputLength && end - offset < 100 && isNameByte(retained[end - retainedBase]) { end += 1 }
        return end == inputLength && end - offset < 100
    }

    /// Text or an end tag where a top-level element could start.
    private func skipJunk(at offset: Int, endTag: Bool) {
        let place = position(of: offset)
        resynchronizer = Resynchronizer(from: offset, damageOffset: offset, inStream: false)
        interruptedStreamHeader = nil
        followsElement = false
        if startPhase && (endTag || !sawDocument) {
            // Input that starts in the middle of a stanza, and nothing is wrong: an
            // end tag shows that the elements read so far were children of a stanza
            // whose start was not read.
            if endTag {
                tentative.removeAll()
                tentativePlaces.removeAll()
            }
            if leadingText == nil && !endTag && !sawDocument {
                leadingText = place
                leadingTextMessage = notXMLMessage(at: offset)
            }
            return
        }
        leaveStartPhase()
        let message: String
        if !sawDocument && !endTag {
            message = notXMLMessage(at: offset)
        } else if endTag {
            message = "end tag </\(quotedName(at: offset + 2))> where no element is open"
        } else {
            message = "text outside any stanza: '\(quotedText(at: offset))'"
        }
        let damage = InputDamage(line: place.line, column: place.column, message: message,
                                  skippedFrom: place, resumedAt: nil)
        if !recovers {
            failure = damage.error
            resynchronizer = nil
            return
        }
        skippedDamage = damage
    }

    /// Starts a parser at `offset`. `header`: a stream's start tag, parsed first
    /// so that its namespaces are in scope (a stream continued with a new parser),
    /// or with `sequence`, ``sequenceHeader``.
    func startDocument(at offset: Int, header: [UInt8]?, sequence: Bool = false) {
        if offset != stanzaLevel.offset { stanzaLevel = position(of: offset) }
        trim(upTo: offset)
        cursor = offset
        let headerLength = header?.count ?? 0
        let headerColumns = header?.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) } ?? 0
        documentStart = offset - headerLength
        documentOrigin = (stanzaLevel.line, stanzaLevel.column - headerColumns)
        documentDepth = 0
        rootStarted = false
        inStream = false
        inSequence = sequence
        frame.isOpen = false
        followsElement = false
        streamScope = []
        streamHeader = nil
        resetOffset = nil
        restartsStream = false
        stanzasInDocument = 0
        tagScan = TagScan(start: -1)
        heldTagScan = HeldTagScan()
        finishing = false
        pieceSize = sequence ? Self.maximumPiece : 256
        stanzaLocalName = nil
        sawDocument = true
        if header == nil { declaredEncoding = encodingDeclaration(at: offset) }
        if sequence { declaredEncoding = nil }
        names.clear()
        var sax = Self.saxHandler
        let me = Unmanaged.passUnretained(self).toOpaque()
        context = xmlCreatePushParserCtxt(&sax, me, nil, 0, nil)
        guard let context else { return }
        // NOENT only makes libxml2 hand over attribute values with the
        // predefined entities decoded: custom entities need a DTD, which is
        // refused before its first declaration. NONET: never touch the network.
        // No XML_PARSE_HUGE: keep libxml2's limits on depth and sizes.
        // IGNORE_ENC and UTF-8: XMPP is UTF-8 only (RFC 6120), and libxml2's
        // converters for other declared encodings print to stderr on bad bytes.
        _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue))
        _ = xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
        streamLocalName = UnsafePointer(xmlDictLookup(context.pointee.dict, "stream", -1))
        streamsNamespace = UnsafePointer(xmlDictLookup(context.pointee.dict, "http://etherx.jabber.org/streams", -1))
        messageName = UnsafePointer(xmlDictLookup(context.pointee.dict, "message", -1))
        presenceName = UnsafePointer(xmlDictLookup(context.pointee.dict, "presence", -1))
        iqName = UnsafePointer(xmlDictLookup(context.pointee.dict, "iq", -1))
        if let header {
            header.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { _ = xmlParseChunk(context, $0.baseAddress, Int32($0.count), 0) }
            }
        }
    }

    func freeContext() {
        if let context {
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        open.removeAll()
        skipped = 0
        skippedNames.removeAll(keepingCapacity: true)
        textLength = 0
        pendingText.removeAll(keepingCapacity: true)
        resetOffset = nil
        inStream = false
        inSequence = false
        frame.isOpen = false
    }

    /// Ends the input for the current document: a stream may end unclosed
    /// between stanzas; anything else open is a cut-off stanza.
    func terminateDocument() {
        guard let context else { return }
        if inSequence { return abandonSequenceDocument() }
        let consumed = documentStart + Int(xmlByteConsumed(context))
        let restIsBlank = retained[max(0, consumed - retainedBase)...].allSatisfy(isXMLSpace)
        let framed = inStream || frame.isOpen   // a stream or a frame may end unclosed between stanzas
        if (framed && open.isEmpty && skipped == 0 && restIsBetweenStanzas(context)) || (restIsBlank && !rootStarted) {
            // Text held back between a stream's stanzas is checked first: libxml2 checks
            // text once it sees where the text ends or has 300 bytes of it, so whether a
            // bad character in it was damage depended on where reads ended (the reader
            // fuzzer found it). A '<' of our own shows libxml2 the end; the damage it
            // reports is handled as any other.
            if framed && !restIsBlank {
                // Inside a CDATA section (`<![CDATA[` never closed), only `]]>` ends the
                // text: libxml2 checks a section's bytes 300 at a time as they come,
                // so a bad byte in its last ones was damage or not by the reads too.
                let end = context.pointee.instate == XML_PARSER_CDATA_SECTION ? "]]><" : "<"
                _ = xmlParseChunk(context, end, Int32(end.utf8.count), 0)
                if pendingDamage != nil { return }
            }
            freeContext()
            return
        }
        finishing = true
        endOfInputPosition = endPosition()   // before libxml2 halts and forgets where it was
        _ = xmlParseChunk(context, nil, 0, 1)
        if pendingDamage == nil && resetOffset == nil {
            pendingDamage = cutOffDamage(offset: inputLength)
        }
    }

    /// Reads what is left once the input has ended.
    func finishInput() throws {
        try finishRaw()
        endOfInput = true
        while !isStopped && failure == nil && !ignoringRest {
            try pump()
            guard context != nil, !isStopped, failure == nil else { break }
            terminateDocument()
            try afterParse()
        }
        if failure == nil && !isStopped {
            leaveStartPhase()
            if let place = leadingText, !sawDocument && stanzaCount == 0 && outbox.isEmpty {
                report(InputDamage(line: place.line, column: place.column, message: leadingTextMessage,
                                    skippedFrom: place, resumedAt: nil))
            }
        }
        try deliver()
    }

    /// Input that is all there will be in the start phase is read as it is.
    func leaveStartPhase() {
        guard startPhase else { return }
        startPhase = false
        outbox.append(contentsOf: tentative.map { .stanza($0.0, line: $0.line) })
        outboxPlaces.append(contentsOf: tentativePlaces)
        tentative.removeAll()
        tentativePlaces.removeAll()
    }

    // MARK: - Bytes kept

    /// Forgets retained bytes before `offset`.
    func trim(upTo offset: Int) {
        let count = offset - retainedBase
        guard count > 0 else { return }
        // Trimming copies the rest: only when it is small beside what goes, so
        // that a large input fed at once is not copied again and again.
        if count < retained.count && (count < 1 << 12 || count < retained.count - count) { return }
        let removed = min(count, retained.count)
        beforeRetained = retained.withUnsafeBufferPointer { beforeRetained.advanced(over: UnsafeBufferPointer(rebasing: $0[..<removed])) }
        retained.removeFirst(removed)
        retainedBase += removed
    }

    func startsWith(_ text: StaticString, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset - retainedBase + count <= retained.count else { return false }
        return text.withUTF8Buffer { needle in
            (0..<count).allSatisfy { retained[offset - retainedBase + $0] == needle[$0] }
        }
    }

    /// The offset of the first start tag at or after `offset` (skipping text,
    /// comments and processing instructions), if it has been read.
    func firstTagOffset(from offset: Int) -> Int? {
        var index = max(offset, retainedBase) - retainedBase
        while index + 1 < retained.count {
            if retained[index] == UInt8(ascii: "<") && isNameStartByte(retained[index + 1]) { return index + retainedBase }
            index += 1
        }
        return nil
    }

    /// The offset of the last '<' before `offset`: where the start tag libxml2
    /// has just read begins (a well-formed tag holds no other '<').
    func tagStart(before offset: Int) -> Int {
        var index = min(offset, inputLength) - 1 - retainedBase
        while index > 0 && retained[index] != UInt8(ascii: "<") { index -= 1 }
        return max(index, 0) + retainedBase
    }
}
