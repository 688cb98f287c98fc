#if canImport(StanzaQuery)
import StanzaQuery
#endif

extension XMLRewrite {
    /// Rewrites the input at `path` (`-`: standard input) redacted onto
    /// `output`; returns the exit status: 0, or 2 after a message on
    /// `diagnostics` (then nothing of the input is written).
    public static func run(path: String, directory: Int32, standardInput: Int32, redactor: Redactor,
                           defaultNamespace: String?, output: Output, diagnostics: Diagnostics) throws(OutputError) -> Int32 {
        let name = path == "-" ? "(standard input)" : path
        let opener = InputOpener(directory: directory, standardInput: standardInput)
        let fd: Int32
        switch opener.open(path, name: name) {
        case .success(let opened): fd = opened
        case .failure(let diagnostic):
            diagnostics.report(diagnostic)
            return 2
        }
        let bytes = readAll(fd)
        opener.finish(fd)
        let rewritten: [UInt8]
        do {
            guard let bytes else { throw StanzaReaderError.io(errno: errno) }
            if let refusal = refusal(of: bytes) { throw refusal }
            if isMonalRawlog(bytes) {
                rewritten = try MonalRawlogRewrite.rewrite(bytes, redactor: redactor, defaultNamespace: defaultNamespace)
            } else if isLog(bytes) {
                rewritten = try LogRewrite.rewrite(bytes, redactor: redactor, defaultNamespace: defaultNamespace)
            } else {
                rewritten = try rewrite(bytes, redactor: redactor, defaultNamespace: defaultNamespace)
            }
        } catch let refusal as Refusal {
            diagnostics.report(Diagnostic("\(name): not rewritten: \(refusal.message)"))
            return 2
        } catch {
            diagnostics.report(.reading(name, error))
            diagnostics.report(Diagnostic("\(name): not rewritten: a stanza that is not read is not redacted"))
            return 2
        }
        try output.write(rewritten)
        try output.flush()
        return 0
    }

    /// Whether `bytes` are Monal's rawlog (``MonalRawlogRewrite``).
    static func isMonalRawlog(_ bytes: [UInt8]) -> Bool {
        let head = Array(bytes.prefix(1 << 16))
        return head.withUnsafeBufferPointer { Envelope.recognised($0, atEnd: bytes.count <= 1 << 16) } == .some(.monalRawlog)
    }

    /// Whether `bytes` are a log (``LogRewrite``), not XML.
    static func isLog(_ bytes: [UInt8]) -> Bool {
        if case .log? = InputKind.recognise(Array(bytes.prefix(1 << 16)), atEnd: bytes.count <= 1 << 16) { return true }
        return false
    }

    /// Why `bytes` are not rewritten: a log in an envelope, or compressed
    /// data. (Empty input is rewritten: as nothing.)
    static func refusal(of bytes: [UInt8]) -> Refusal? {
        let head = Array(bytes.prefix(1 << 16)), atEnd = bytes.count <= 1 << 16
        if CompressionFormat.startsCompressed(head) {
            return Refusal(message: "compressed input is rewritten once decompressed (zcat FILE | stanzaq … --rewrite)")
        }
        if case .some(.some(let envelope)) = head.withUnsafeBufferPointer({ Envelope.recognised($0, atEnd: atEnd) }),
           envelope != .monalRawlog {
            return Refusal(message: "it is a log in the \(envelope.rawValue) envelope, which is not rewritten "
                           + "(XML, logs and Monal's rawlog are): unwrap the log first")
        }
        return nil
    }

    /// Everything `fd` gives until its end; `nil` on a read error (in `errno`).
    private static func readAll(_ fd: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR && !Interruption.isRequested { continue }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
