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

    func noteTopTag(of data: UnsafeBufferPointer<UInt8>, channel: LogChannel, key: ChannelKey) {
        channel.logsWholeStanzas = true
        guard let range = topTag(data) else { releaseHeld(); return }
        let tag = UnsafeBufferPointer(rebasing: data[range])
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
        if recordsCuts { cutLog.operations.append(.whole(key, cutLog.keep(tag))) }
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
            if recordsCuts { cutLog.operations.append(.startTag(key, cutLog.keep(tag), .lastWhole)) }
            return
        }
        if let channel = existingChannel(for: key), channel.recentTopTags.forget(tag) {
            if recordsCuts { cutLog.operations.append(.startTag(key, cutLog.keep(tag), .remembered)) }
            return
        }
        if recordsCuts { cutLog.operations.append(.startTag(key, cutLog.keep(tag), .neither)) }
        releaseHeld()
        held = key
        heldRest = (namespace(), source(), range.lowerBound + start + 1, lineNumber + Self.startTagWindow)
        heldTag.removeAll(keepingCapacity: true)
        heldTag.append(contentsOf: tag)
    }

    /// Reports damage.
    func damaged(_ found: InputDamage) {
        if startsMidLog { dependsOnEarlierLines = true }
        damage(found)
    }
}
