#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// A file followed with `--follow` is read from its end (stanzaq(1), LOGS): what
/// it already holds still says what it is.
extension InputSearch {
    /// Decides from the first bytes `fd` already holds that it is a log, and of
    /// which format, when nothing names them: the lines appended may not tell
    /// the format for many lines (slixmpp's `SEND:` is also Monal's and
    /// libstrophe's), and their records waited for it. A file that is empty, in
    /// an envelope or compressed is recognised as it comes, as before.
    func recogniseExistingContent(of fd: Int32) {
        guard options.envelope == nil, options.input == nil || options.input == .log(nil) else { return }
        let size = 1 << 16
        var head = [UInt8](repeating: 0, count: size)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) }
        guard count > 0 else { return }
        head.removeSubrange(count...)
        let atEnd = count < size
        if options.recognisesEnvelopes {
            guard case .some(.none) = head.withUnsafeBufferPointer({ Envelope.recognised($0, atEnd: atEnd) }) else { return }
        }
        guard case .log(nil)? = options.input ?? InputKind.recognise(head, atEnd: atEnd),
              let format = head.withUnsafeBufferPointer({ LogFormat.detection(atStartOf: $0, atEnd: atEnd)?.format }) else { return }
        envelopeDecided = true
        followedKind = .log(format)
    }
}
