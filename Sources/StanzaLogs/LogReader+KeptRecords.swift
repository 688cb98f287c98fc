#if canImport(StanzaXML)
import StanzaXML
#endif

/// Records of whole stanzas kept and read together (``WholeRecordBatch``).
extension LogReader {
    // MARK: - Kept records

    /// Reads the records kept, in order, and hands their stanzas on: those read
    /// cleanly together, the others read by their channels (as they would have
    /// been had they not been kept), each as of its line. A record that may go on
    /// (the last) is then read on by its channel; if it does (`lastGoesOn`), its
    /// channel reads it whole (its stanza most likely goes on too).
    func readBatch(lastGoesOn: Bool = false) {
        guard !batch.isEmpty else { return }
        defer {
            batch.clear()
            recordLine = nil
            // (Reading stopped before it: the record is dropped with the batch.)
            if record?.batched == true { record!.batched = false }
        }
        // (Fields are read in place: a copy of an entry retained and released its channel and texts.)
        let entries = batch.entries
        var start = 0
        var together = 0..<0, alone = 0
        for index in entries.indices where !isStopped {
            if index >= together.upperBound && index >= alone {
                // The records that can be read in one call: ended, of one stream, their channels idle.
                var next = index
                while next < entries.count, entries[next].endedAt != nil, entries[next].namespace == entries[index].namespace,
                      entries[next].channel.isIdle { next += 1 }
                if next - index > 1,
                   batch.read(index..<next, from: start, depthLimit: depthLimit, childSelection: childSelection) {
                    together = index..<next
                } else {
                    alone = max(next, index + 1)
                }
            }
            if together.contains(index) {
                start = entries[index].end
                continue
            }
            // (A channel that has read a record alone may hold what the next depends on.)
            let ended = entries[index].endedAt != nil
            let clean = !(lastGoesOn && !ended) && entries[index].channel.isIdle
                && batch.read(index..<(index + 1), from: start, depthLimit: depthLimit, childSelection: childSelection)
            if !clean {
                // The stanzas before it first (they may stop the reading).
                handBatchStanzas()
                if isStopped { break }
            }
            if !ended {
                goOn(index, from: start, read: clean)
            } else if !clean {
                readAlone(index, from: start)
            }
            start = entries[index].end
        }
        handBatchStanzas()
    }

    func handBatchStanzas() {
        let entries = batch.entries
        for (element, index, line, endLine) in batch.stanzas {
            recordLine = endLine == 0 ? entries[index].source.line : endLine
            if line == 0 {
                if !deliver(element, entries[index].source) { break }
            } else {
                var source = entries[index].source
                source.line = line
                if !deliver(element, source) { break }
            }
        }
        batch.forgetStanzas()
        recordLine = nil
    }

    /// Feeds the kept record `index` (its data from `start`) to its channel, line
    /// by line as it would have been fed: false at damage (the lines after it are not fed).
    func feedKept(_ index: Int, from start: Int, to channel: LogChannel) -> Bool {
        let entry = batch.entries[index]
        return batch.data.withUnsafeBufferPointer { data in
            var from = start + 1, line = entry.source.line, column = entry.column
            for continuation in batch.continuations[entry.continuations] {
                recordLine = line
                if !channel.feed(UnsafeBufferPointer(rebasing: data[from..<continuation.newline]), line: line, column: column,
                                 newlineBefore: true, exactColumns: true) { return false }
                (from, line, column) = (continuation.newline + 1, continuation.line, continuation.column)
            }
            recordLine = line
            return channel.feed(UnsafeBufferPointer(rebasing: data[from..<entry.end]), line: line, column: column,
                                newlineBefore: true, exactColumns: true)
        }
    }

    /// A kept record that has ended, read by its channel as its lines would have been read.
    func readAlone(_ index: Int, from start: Int) {
        let entry = batch.entries[index]
        let channel = entry.channel
        channel.startRecord(entry.source, line: entry.source.line)
        channel.beginWholeRecord()
        if feedKept(index, from: start, to: channel) {
            recordLine = entry.endedAt
            channel.endWholeRecord()
        }
        recordLine = nil
        if channel.isStopped { isStopped = true }
    }

    /// The record being read, kept so far, goes on as a record of its channel:
    /// its lines so far fed to the channel unless it was `read` cleanly (the
    /// channel is then as if it had been).
    func goOn(_ index: Int, from start: Int, read: Bool) {
        let entry = batch.entries[index]
        let channel = entry.channel
        record!.batched = false
        channel.startRecord(entry.source, line: entry.source.line)
        channel.beginWholeRecord()
        if batch.data[(start + 1)..<entry.end].contains(where: { !isXMLSpace($0) }) { record!.hasData = true }
        guard !read else { return }
        if !feedKept(index, from: start, to: channel) {
            record!.damaged = true
        }
        recordLine = nil
        if channel.isStopped { isStopped = true }
    }

    func channel(for key: ChannelKey, namespace: @autoclosure () -> String?) -> LogChannel {
        uses += 1
        if let channel = recentChannel(for: key) {
            channel.lastUse = uses
            return channel
        }
        if let existing = channels[key] {
            remember(key, existing)
            existing.lastUse = uses
            return existing
        }
        if channels.count >= Self.channelLimit {
            // (Which channel goes depends on those made before the start.)
            if pastIsUnknown { dependsOnUnknownPast = true }
            // Forget the channel idle longest that holds no partial stanza.
            if let idle = channels.filter({ $0.value.isBetweenStanzas }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                channels[idle.key] = nil
                recentChannels.removeAll { $0.key == idle.key }
                nextRecent = 0
            }
        }
        let first = namespace()
        let channel = makeChannel(for: key, namespace: startNamespace(of: key) ?? first, firstNamespace: first)
        channel.lastUse = uses
        ledger?.note(.made(key))
        return channel
    }

    /// Makes the channel of `key`, reading a stream whose namespace is `namespace`.
    func makeChannel(for key: ChannelKey, namespace: String?, firstNamespace: String?) -> LogChannel {
        let channel = LogChannel(
            namespace: namespace, firstNamespace: firstNamespace, defaultNamespace: defaultNamespace, depthLimit: depthLimit,
            childSelection: childSelection,
            deliver: { [unowned self] element, source in self.deliver(element, source) },
            report: { [unowned self] in self.damaged($0) })
        channel.spares = spares
        channels[key] = channel
        remember(key, channel)
        return channel
    }

    func existingChannel(for key: ChannelKey) -> LogChannel? {
        recentChannel(for: key) ?? channels[key]
    }

    /// The channel of `key` among those used lately: compared in place, the direction first.
    func recentChannel(for key: ChannelKey) -> LogChannel? {
        recentChannels.withUnsafeBufferPointer { recent in
            for index in recent.indices where recent[index].key.direction == key.direction && recent[index].key.session == key.session {
                return recent[index].channel
            }
            return nil
        }
    }

    func remember(_ key: ChannelKey, _ channel: LogChannel) {
        if recentChannels.count < Self.recentLimit {
            recentChannels.append((key, channel))
        } else {
            recentChannels[nextRecent] = (key, channel)
            nextRecent = (nextRecent + 1) % Self.recentLimit
        }
    }
}
