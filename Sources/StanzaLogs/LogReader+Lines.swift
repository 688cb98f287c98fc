#if canImport(StanzaXML)
import StanzaXML
#endif

/// Each line of a log: detection while the format is not known, then its parser,
/// and what the line is to the records around it.
extension LogReader {
    func readLine(_ raw: UnsafeBufferPointer<UInt8>) {
        lineNumber += 1
        withTerminalEscapesRemoved(raw) { dispatch($0, number: lineNumber) }
        flushQueue(all: false)
    }

    func dispatch(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
        if parser == nil {
            undetected.append((number, Array(line)))
            if let detected = detector.decide(after: line) { adopt(detected: detected) }
            return
        }
        interpret(line, number: number)
    }

    /// The format is known: reads the lines kept while it was not.
    func adopt(detected: LogFormat) {
        format = detected
        parser = detected.makeParser()
        let kept = undetected
        undetected = []
        for (number, bytes) in kept where !isStopped {
            bytes.withUnsafeBufferPointer { interpret($0, number: number) }
        }
    }

    func interpret(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
        guard !isStopped, lookahead == nil || hold(line, number: number), var parsed = parser?.parse(line) else { return }
        if parsed.kind == .record || parsed.kind == .maybeMoreElseRecord || parsed.kind == .text, learnsRecordPrefix {
            switch role(ofRecordLine: line, number: number) {
            case .record: break
            case .text: parsed = ParsedLine(kind: .more, payload: 0..<line.contentEnd)
            case .held: return
            }
        }
        interpretParsed(parsed, line, number: number)
    }

    func interpretParsed(_ parsed: ParsedLine, _ line: UnsafeBufferPointer<UInt8>, number: Int) {
        if record?.batched == true && parsed.kind != .record && parsed.kind != .text && !(parsed.kind == .more && parsed.decoded == nil) {
            // The kept record may go on in this line: it is read now, and its channel reads on.
            readBatch(lastGoesOn: true)
            guard !isStopped else { return }
        }
        if pastIsUnknown && !endedEarlierRecord {
            // A record begun before the start may go on in this line: not known here.
            switch parsed.kind {
            case .record, .text, .maybeMoreElseRecord: endedEarlierRecord = true
            case .more, .maybeMore: dependsOnUnknownPast = true
            case .unrelated: break
            }
        }
        if held != nil && !(parsed.kind == .record && (parsed.lineHeader?.shape ?? parsed.header?.shape) == .wholeStanzas) { releaseHeld() }
        switch parsed.kind {
        case .text:
            endRecord()
        case .unrelated:
            break
        case .record:
            endRecord()
            startRecord(parsed, data: parsed.payload, line, number: number)
        case .more:
            guard record != nil, !record!.damaged else { return }
            if record!.batched && parsed.decoded == nil && keepContinuation(parsed.payload, line, number: number) { return }
            continueRecord(parsed, line, number: number)
        case .maybeMoreElseRecord:
            if let current = record, !current.damaged, let channel = current.channel, !channel.isBetweenStanzas {
                continueRecord(parsed, line, number: number)
            } else {
                endRecord()
                let range = parsed.recordData
                startRecord(parsed, data: range, line, number: number)
                // Text after the last tag belongs to a stanza the line leaves open.
                if let current = record, !current.damaged, let channel = current.channel, !channel.isBetweenStanzas,
                   range.upperBound < parsed.payload.upperBound {
                    feed(nil, data: range.upperBound..<parsed.payload.upperBound, line, newlineBefore: false)
                }
            }
        case .maybeMore:
            guard let current = record, !current.damaged, let channel = current.channel else { endRecord(); return }
            let blank = parsed.decoded == nil && line.trimmed(parsed.payload).isEmpty
            if !channel.isBetweenStanzas || !current.hasData || blank {
                continueRecord(parsed, line, number: number)
            } else {
                endRecord()
            }
        }
    }
}
