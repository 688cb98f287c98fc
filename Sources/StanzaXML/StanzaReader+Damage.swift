import CLibXML2

/// Damage seen in a SAX callback, acted on once xmlParseChunk has returned.
struct PendingDamage {
    var line: Int
    var column: Int
    var message: String
    /// Where the damage was seen, as an input offset (see ``Resynchronizer``).
    var offset: Int
    /// Not damage: an XML declaration or stream header where a stanza could
    /// start begins a new stream (a reconnect).
    var isReconnect = false
}

/// What the reader does with damaged input: report it, skip the damaged
/// stanza, and resume where a stanza can start.
extension StanzaReader {
    /// Whether damage is being skipped (``Recovery/skipDamage``): reading has not resumed after it yet.
    package var isSkippingDamage: Bool { resynchronizer != nil || skippedDamage != nil }

    /// Damage found in a callback: stop libxml2; the rest happens after xmlParseChunk.
    func damage(line: Int, column: Int, _ message: String, offset: Int? = nil) {
        guard pendingDamage == nil else { return }
        pendingDamage = PendingDamage(line: line, column: column, message: shortened(message), offset: offset ?? consumedOffset())
        if let context { xmlStopParser(context) }
    }

    /// Damage at libxml2's current position.
    func damageHere(_ message: String) {
        let place = currentPosition()
        damage(line: place.line, column: place.column, message)
    }

    /// A new stream (or a new stanza of the same name) starts at `tagStart`
    /// while a stanza is open: that stanza was cut off. Where no stanza is
    /// open, a new stream is a reconnect, not damage.
    func interrupted(at tagStart: Int, by what: String, reconnect: Bool) {
        guard pendingDamage == nil else { return }
        if reconnect {
            pendingDamage = PendingDamage(line: 0, column: 0, message: "", offset: tagStart - 1, isReconnect: true)
        } else {
            let root = position(of: firstTagOffset(from: stanzaLevel.offset) ?? stanzaLevel.offset)
            let there = position(of: tagStart)
            pendingDamage = PendingDamage(
                line: root.line, column: root.column,
                message: "\(openRootName) is not closed (\(what) starts at \(there.line):\(there.column))",
                offset: tagStart - 1)
        }
        if let context { xmlStopParser(context) }
    }

    /// `<message>`: the open stanza's root as written.
    var openRootName: String {
        open.first.map { "<\($0.qualifiedName)>" } ?? "the stanza"
    }

    /// The input ends inside a stanza.
    func cutOffDamage(offset: Int) -> PendingDamage {
        let end = endOfInputPosition
        guard let root = open.first else {
            return PendingDamage(line: end.line, column: end.column, message: "unexpected end of input", offset: offset)
        }
        let start = position(of: firstTagOffset(from: stanzaLevel.offset) ?? stanzaLevel.offset)
        let inner: String
        if let (prefix, localName) = skippedNames.last {
            inner = ", inside <\((name(prefix).map { $0 + ":" } ?? "") + (name(localName) ?? ""))>"
        } else {
            inner = open.count > 1 ? ", inside <\(open[open.count - 1].qualifiedName)>" : ""
        }
        return PendingDamage(line: start.line, column: start.column,
                             message: "<\(root.qualifiedName)> is not closed (the input ends at \(end.line):\(end.column)\(inner))",
                             offset: offset)
    }

    /// Acts on damage once libxml2 has returned: report it (or, with
    /// ``Recovery/stop``, fail), and skip from the last place between stanzas.
    func handle(_ damage: PendingDamage) {
        let header = continuationHeader
        let frameName = frame.isOpen ? frame.localName : nil
        frame.interruptedOuterHeader = frame.isOpen ? frame.outerHeader : nil
        let from = stanzaLevel.offset
        freeContext()
        skippedDamage = nil
        followsElement = false
        if damage.isReconnect {
            // Not damage: the new stream's document starts at its header.
            let start = damage.offset + 1
            if start > stanzaLevel.offset { stanzaLevel = position(of: start) }
            cursor = start
            return
        }
        resynchronizer = Resynchronizer(from: from, damageOffset: damage.offset, inStream: header != nil, frameName: frameName)
        interruptedStreamHeader = header
        var skipStart = from
        retained.withUnsafeBufferPointer { all in
            while skipStart < inputLength && isXMLSpace(all[skipStart - retainedBase]) { skipStart += 1 }
        }
        let report = InputDamage(line: damage.line, column: damage.column, message: damage.message,
                                  skippedFrom: position(of: skipStart), resumedAt: nil)
        if !recovers {
            failure = report.error
            resynchronizer = nil
            return
        }
        skippedDamage = report
        skippedDamageOffset = damage.offset
        leaveStartPhase()
    }

    /// Skips damaged input; returns true once reading has resumed (false: more input needed).
    func resynchronize() -> Bool {
        guard var scanner = resynchronizer else { return true }
        let outcome = retained.withUnsafeBufferPointer { scanner.scan($0, base: retainedBase, before: beforeRetained, atEnd: endOfInput) }
        if scanner.rootPosition == nil, let root = scanner.rootOffset { scanner.rootPosition = position(of: root) }
        switch outcome {
        case .needMore:
            resynchronizer = nil
            if endOfInput {
                finishSkip(resumedAt: nil)
                cursor = inputLength
                return false
            }
            // Keep positions right while the skipped bytes are forgotten.
            if scanner.keepFrom - stanzaLevel.offset > 1 << 16 { stanzaLevel = position(of: scanner.keepFrom) }
            resynchronizer = scanner
            cursor = inputLength
            return false
        case .resume(let offset, let inStream):
            resynchronizer = nil
            if let opened = scanner.rootPosition, scanner.resumedInsideRoot, offset < skippedDamageOffset, skippedDamage != nil {
                // The stanza was cut off before the place libxml2 noticed: say so, and
                // the damage libxml2 saw is read again (and reported) where it is.
                let there = position(of: offset)
                skippedDamage?.line = opened.line
                skippedDamage?.column = opened.column
                let what = startsWith("<?", at: offset) || !isNameStartByte(retained[offset + 1 - retainedBase])
                    ? "a new stream" : "a new <\(quotedName(at: offset + 1))>"
                skippedDamage?.message = "<\(quotedName(scanner.rootName))> is not closed (\(what) starts at \(there.line):\(there.column))"
            }
            stanzaLevel = position(of: offset)
            finishSkip(resumedAt: stanzaLevel)
            cursor = offset
            // (Where the damage was inside a frame that ended while it was skipped, the stream goes on.)
            let header = inStream ? scanner.leftFrame ? frame.interruptedOuterHeader : interruptedStreamHeader : nil
            interruptedStreamHeader = nil
            if let header { startDocument(at: offset, header: header) }
            return true
        }
    }

    private func finishSkip(resumedAt: InputPosition?) {
        guard var damage = skippedDamage else { return }
        skippedDamage = nil
        damage.resumedAt = resumedAt
        report(damage)
    }

    /// Hands damage out (``Recovery/skipDamage``) or fails with it (``Recovery/stop``).
    func report(_ damage: InputDamage) {
        if recovers {
            outbox.append(.damage(damage))
        } else if failure == nil {
            failure = damage.error
        }
    }

    // MARK: - libxml2's errors

    /// A DTD: the document it belongs to is skipped whole (the element after it
    /// is the damaged one: its entities were declared there, or not at all).
    func refuseDTD() {
        let place = currentPosition()
        damage(line: place.line, column: place.column, "DTD is not allowed (XMPP forbids <!DOCTYPE>)", offset: Int.max / 2)
    }

    func libxmlError(_ error: UnsafePointer<xmlError>) {
        guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }   // warnings are not failures
        guard resetOffset == nil, pendingDamage == nil else { return }   // the parser was stopped on purpose
        let code = Int(error.pointee.code)
        let place = inputPosition(line: Int(error.pointee.line), column: Int(error.pointee.int2))
        // An error at the very end once the input has ended is a cut-off stanza, whatever
        // libxml2 calls it ("extra content at the end", "attributes construct error", …).
        if finishing && (code == Int(XML_ERR_DOCUMENT_END.rawValue) || place == endOfInputPosition) {
            pendingDamage = cutOffDamage(offset: consumedOffset())
            if let context { xmlStopParser(context) }
            return
        }
        if code == Int(XML_ERR_RESERVED_XML_NAME.rawValue) {
            // An XML declaration inside a stream or a stanza: a new stream (a reconnect).
            var start = tagStart(before: consumedOffset())
            while start > retainedBase && !startsWith("<?xml", at: start) { start = tagStart(before: start) }
            // Only a declaration after the start of this document is a new stream: one
            // at its very start is a malformed declaration (`<?xml"1.0"?>`), and taking
            // it for a reconnect would start the same document again, forever.
            if startsWith("<?xml", at: start), start > documentStart {
                let atStanzaLevel = open.isEmpty && skipped == 0
                interrupted(at: start, by: "a new stream", reconnect: atStanzaLevel)
                return
            }
        }
        var message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        while message.last?.isWhitespace == true { message.removeLast() }
        // One line per message ("… indicate encoding !\nBytes: 0xFF …").
        message = message.split(separator: "\n").joined(separator: " ")
        // A byte no UTF-8 character starts with is named alone: libxml2 names it
        // with the bytes after it, as many as it holds, or, given it alone (a read
        // that ended there), says only "detected an error in element content".
        if message.hasPrefix("Input is not proper UTF-8") || message.hasSuffix("detected an error in element content"),
           let alone = notUTF8LeadMessage(at: consumedOffset()) {
            message = alone
        } else if message.hasPrefix("Input is not proper UTF-8") {
            message = notUTF8Message(message)
        }
        if code == Int(XML_ERR_TAG_NAME_MISMATCH.rawValue) || code == Int(XML_ERR_TAG_NOT_FINISHED.rawValue) {
            message = shiftingLineNumbers(in: message)
        } else if inSequence && code == Int(XML_ERR_GT_REQUIRED.rawValue) {
            message = elementRelativeLineNumbers(in: message)
        }
        damage(line: place.line, column: place.column, message)
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
}

/// Shortens each word of a message longer than 60 characters (a name or a value
/// libxml2 quotes whole), so that a message stays readable on one line.
func shortened(_ message: String) -> String {
    guard message.count > 60 else { return message }
    return message.split(separator: " ", omittingEmptySubsequences: false).map { word in
        word.count > 60 ? String(word.prefix(50)) + "…" : String(word)
    }.joined(separator: " ")
}

// MARK: - A reference that never ends

extension StanzaReader {
    /// Damage libxml2 would report at an `&` where it has stopped. Its push parser
    /// reads a reference only once a `;` has arrived, anywhere after it: a stray
    /// `&` in text (`Tom & Jerry`) held back every byte after it, and so every
    /// later stanza, until a `;` came or the input ended — in a log, forever, and
    /// with every record re-read (libxml2's "Huge input lookup"). What libxml2
    /// says at the end of the input is known as soon as a byte that cannot be
    /// part of the reference has arrived: `xmlParseEntityRef: no name` where no
    /// name follows the `&`, `EntityRef: expecting ';'` after a name, at that
    /// byte. Character references and names with non-ASCII bytes are left to
    /// libxml2 (its messages there depend on more than the bytes).
    func strayReference() -> PendingDamage? {
        guard pendingDamage == nil, let context else { return nil }
        let ampersand = documentStart + Int(xmlByteConsumed(context))
        guard ampersand >= retainedBase, ampersand < inputLength, retained[ampersand - retainedBase] == 0x26 else { return nil }
        var index = ampersand + 1
        while index < inputLength {
            let byte = retained[index - retainedBase]
            if byte == 0x3B || byte >= 0x80 || (index == ampersand + 1 && byte == 0x23) { return nil }
            let isName = index == ampersand + 1 ? isNameStartByte(byte) : isNameByte(byte)
            if !isName {
                let place = position(of: index)
                return PendingDamage(line: place.line, column: place.column,
                                     message: index == ampersand + 1 ? "xmlParseEntityRef: no name" : "EntityRef: expecting ';'",
                                     offset: ampersand)
            }
            index += 1
        }
        return nil
    }
}
