#if canImport(StanzaXML)
import StanzaXML
#endif

/// Start-tag-only records (Prosody's `Received[c2s]:`, `Sending[c2s]:`, the only
/// parser that gives the ``RecordShape/startTag`` shape, so they sit with
/// Prosody's format): matched with the whole stanzas mod_stanza_debug logs
/// again, reported alone only where none are logged.
extension LogReader {
    // MARK: - Start-tag-only records

    /// Where the top tag of a whole stanza is, as Prosody's `top_tag()` writes it, without its `>`.
    func topTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let start = bytes.skippingBlanks(from: 0)
        guard start < bytes.count, bytes[start] == 0x3C, let close = bytes.firstIndex(of: 0x3E, from: start) else { return nil }
        var end = close
        if end > start, bytes[end - 1] == 0x2F { end -= 1 }
        return start..<end
    }

    /// A whole stanza is logged: it may be the one a start tag waits for, or one a start tag will follow.
    func noteWholeStanza(_ decoded: [UInt8]?, data: Range<Int>, _ line: UnsafeBufferPointer<UInt8>, channel: LogChannel, key: ChannelKey) {
        if let decoded {
            decoded.withUnsafeBufferPointer { noteTopTag(of: $0, channel: channel, key: key) }
        } else {
            noteTopTag(of: UnsafeBufferPointer(rebasing: line[data]), channel: channel, key: key)
        }
    }

    /// The channel logs its stanzas (whole, or the bytes of its stream: Prosody
    /// with mod_rawdebug): its start tags alone are not reported (``reportsAlone(_:)``).
    func noteLogsStanzas(_ channel: LogChannel, key: ChannelKey) {
        guard !channel.logsWholeStanzas else { return }
        channel.logsWholeStanzas = true
        loggedWholeStanzas = true
        ledger?.note(.logsWhole(key))
    }

    func noteTopTag(of data: UnsafeBufferPointer<UInt8>, channel: LogChannel, key: ChannelKey) {
        noteLogsStanzas(channel, key: key)
        guard let range = topTag(data) else { releaseHeld(); return }
        let tag = UnsafeBufferPointer(rebasing: data[range])
        if let first = ledger?.firstLine, currentLine < first + Self.startTagLines { ledger?.noteEarly(key, tag) }
        // The start tag logged just before, waiting for this stanza, is not reported.
        if held == key, equal(heldTag, tag) {
            held = nil
            heldRest = nil
            return
        }
        releaseHeld()
        if !queue.isEmpty {
            for index in queue.indices {
                if case .startTag(let waiting) = queue[index], waiting.key == key, equal(waiting.tag, tag) {
                    queue.remove(at: index)
                    return
                }
            }
        }
        // A start tag may follow: the previous whole stanza's tag goes among its channel's.
        if let previous = lastWhole {
            lastWholeTag.withUnsafeBufferPointer { previous.channel.recentTopTags.remember($0) }
        }
        lastWhole = (key, channel)
        lastWholeTag.removeAll(keepingCapacity: true)
        lastWholeTag.append(contentsOf: tag)
        ledger?.noteWhole(key, tag)
    }

    /// Whether `bytes` holds `tag`, its attributes in any order (``sameStartTag``).
    func equal(_ bytes: [UInt8], _ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == tag.count && bytes.withUnsafeBufferPointer { sameStartTag($0, tag) }
    }

    /// The start tag held for a line goes into the queue, as any start tag waiting for its stanza.
    func releaseHeld() {
        guard let key = held, let rest = heldRest else { return }
        // The stanzas of the records kept come before it.
        readBatch()
        held = nil
        heldRest = nil
        heldTag.withUnsafeBufferPointer { tag in
            queue.append(.startTag(WaitingStartTag(key: key, tag: tag, namespace: rest.namespace, source: rest.source,
                                                   column: rest.column, until: rest.until)))
        }
    }

    func startTagRecord(key: ChannelKey, namespace: @autoclosure () -> String?, data range: Range<Int>, _ line: UnsafeBufferPointer<UInt8>,
                                source: @autoclosure () -> StanzaSource) {
        let data = UnsafeBufferPointer(rebasing: line[range])
        let start = data.skippingBlanks(from: 0)
        // Only an element's start tag: not `<?xml …?>`, `</…>` or a stream's header.
        guard start + 1 < data.count, data[start] == 0x3C, isASCIILetter(data[start + 1]) || data[start + 1] == 0x5F || data[start + 1] >= 0x80,
              !data.has("<stream:stream", at: start), let range = topTag(data) else { return }
        let tag = UnsafeBufferPointer(rebasing: data[range])
        // The whole stanza was logged just before: the last one, or one its channel remembers.
        if lastWhole?.key == key, equal(lastWholeTag, tag) {
            lastWhole = nil
            ledger?.noteStartTag(key, tag, .lastWhole)
            return
        }
        if let channel = existingChannel(for: key), channel.recentTopTags.forget(tag) {
            ledger?.noteStartTag(key, tag, .remembered)
            return
        }
        ledger?.noteStartTag(key, tag, .neither)
        releaseHeld()
        held = key
        heldRest = (namespace(), source(), range.lowerBound + start + 1, lineNumber + Self.startTagLines)
        heldTag.removeAll(keepingCapacity: true)
        heldTag.append(contentsOf: tag)
    }

    /// Reports damage.
    func damaged(_ found: InputDamage) {
        if pastIsUnknown { dependsOnUnknownPast = true }
        damage(found)
    }

    // MARK: - Start tags waiting for their stanzas

    func flushQueue(all: Bool) {
        guard !queue.isEmpty else { return }
        while let first = queue.first, !isStopped {
            switch first {
            case .stanza(let element, let source):
                queue.removeFirst()
                _ = hand(element, source)
            case .startTag(let waiting):
                guard all || lineNumber >= waiting.until else { return }
                queue.removeFirst()
                guard reportsAlone(waiting.key) else { continue }
                if let element = childless(waiting.tag, namespace: waiting.namespace, source: waiting.source, column: waiting.column) {
                    _ = hand(element, waiting.source)
                }
            }
        }
    }

    /// Whether a start tag no whole stanza accounts for is reported as a stanza:
    /// only where its channel logs no whole stanzas (Prosody without
    /// mod_stanza_debug). Where it does, a start tag alone is of a stanza never on
    /// the wire (the `unavailable` presence Prosody makes itself when a session
    /// closes is logged as `Received[c2s]:`).
    func reportsAlone(_ key: ChannelKey) -> Bool {
        if existingChannel(for: key)?.logsWholeStanzas == true { return false }
        guard pastIsUnknown else { return true }
        // The channel may have logged whole stanzas before the start: it is taken
        // to have if the reader's other channels log them (a session's last start
        // tag, Prosody's unavailable presence, after its last stanza), and checked.
        guard ledger != nil else {
            dependsOnUnknownPast = true
            return true
        }
        ledger?.note(.alone(key, reported: !loggedWholeStanzas))
        return !loggedWholeStanzas
    }

    /// The element a start tag describes, with no children.
    func childless(_ tag: [UInt8], namespace: String?, source: StanzaSource, column: Int) -> Element? {
        let key = defaultNamespace == nil ? (namespace ?? "") : ""
        let reader: StanzaReader
        if let existing = tagReaders[key] {
            reader = existing
        } else {
            reader = StanzaReader(defaultNamespace: defaultNamespace) { [unowned self] in self.parsedTag = $0; return true }
            try? reader.feed(LogChannel.streamHeader(namespace: key.isEmpty ? nil : key, defaultNamespace: defaultNamespace))
            tagReaders[key] = reader
        }
        parsedTag = nil
        do {
            try reader.feed([0x0A] + tag + Array("/>".utf8))
        } catch StanzaReaderError.malformed(_, _, let message) {
            damaged(InputDamage(line: source.line, column: column, message: message))
            tagReaders[key] = nil
            return nil
        } catch {
            tagReaders[key] = nil
            return nil
        }
        if parsedTag == nil {
            damaged(InputDamage(line: source.line, column: column, message: "a start tag that is not one"))
            tagReaders[key] = nil
        }
        return parsedTag
    }
}
