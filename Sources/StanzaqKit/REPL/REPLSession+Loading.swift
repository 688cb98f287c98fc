#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Loading files into the REPL (stanzaq(1), REPL).
extension REPLSession {
    /// Loads the stanzas of a file (or "-"), read as `kind` says (`nil`: the
    /// session's ``input``, else recognised as the command line recognises it);
    /// returns false after reporting an error.
    ///
    /// XML in a regular file is loaded lazily (where each stanza is, read again
    /// when needed); everything else — a log, compressed data, a pipe — is read through the
    /// command line's searcher, and its stanzas are kept with their log fields.
    @discardableResult
    public func load(path: String, as kind: InputKind? = nil) throws(OutputError) -> Bool {
        let kind = kind ?? input
        var status = stat()
        guard fstatat(directory, path.fileSystemPath, &status, 0) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return try loadThroughSearcher(path: path, as: kind)
        }
        let fd = openat(directory, path.fileSystemPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            try fail(.opening(path, errno: errno))
            return false
        }
        Interruption.reading(fd)
        defer {
            Interruption.reading(-1)
            close(fd)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Self.holdsPlainXML(fd, kind: kind) else {
            return try loadThroughSearcher(path: path, as: kind)
        }
        if let loaded = try loadLazily(fd, info: info, path: path) { return loaded }
        // Otherwise the stanzas are kept: read the file again from its start.
        guard lseek(fd, 0, SEEK_SET) == 0 else { return false }
        var loaded: [Element] = []
        let reader = StanzaReader(defaultNamespace: defaultNamespace) { loaded.append($0); return true }
        var ok = true
        do {
            try reader.read(fileDescriptor: fd)
        } catch {
            try fail(.reading(path, error))
            ok = false
        }
        add(loaded, source: path)
        return ok
    }

    /// Whether a regular file holds XML that offsets can give back: not compressed
    /// (offsets would be in its decompressed bytes), not a log in an envelope
    /// (Monal's rawlog starts with a binary length), and XML as `kind` says or,
    /// not said, as its first bytes tell (``InputKind/recognise(_:atEnd:)``).
    static func holdsPlainXML(_ fd: Int32, kind: InputKind?) -> Bool {
        if case .log = kind { return false }
        var head = [UInt8](repeating: 0, count: 1 << 16)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return false }
        head.removeLast(head.count - count)
        if CompressionFormat.startsCompressed(head) { return false }
        if kind != .xml, case .some(.some) = head.withUnsafeBufferPointer({ Envelope.recognised($0, atEnd: count < 1 << 16) }) { return false }
        return kind == .xml || InputKind.recognise(head, atEnd: count < 1 << 16) == .xml
    }

    /// Reads a regular file of XML, keeping where each stanza is; `nil` when the
    /// offsets do not give the stanzas back as they were read (then they are kept),
    /// else whether it was read without error.
    private func loadLazily(_ fd: Int32, info: stat, path: String) throws(OutputError) -> Bool? {
        let file = StanzaFile(path: path, directory: directory, defaultNamespace: defaultNamespace)
        var places: [StanzaByteRange] = []
        var last: Element?
        var found = Set<String>()
        var reader: StanzaReader!
        reader = StanzaReader(defaultNamespace: defaultNamespace) { element in
            if let place = reader.currentPlace { places.append(place) }
            Completion.collectNamespaces(of: element, into: &found)
            last = element
            return true
        }
        var failure: (any Error)?
        do { try reader.read(fileDescriptor: fd) } catch { failure = error }
        file.seal(info, places: places)
        // Read again only what the offsets give back as it was read: the last stanza the same.
        if !reader.isCompressedInput, places.count == reader.stanzaCount,
           let last, let again = try? file.element(at: places.count - 1),
           XMLSerializer().string(for: again) == XMLSerializer().string(for: last) {
            if let failure { try fail(.reading(path, failure)) }
            stanzas.reserveCapacity(stanzas.count + places.count)
            for position in places.indices { stanzas.append(.place(file, position)) }
            namespaces.formUnion(found)
            current = stanzas.count - 1
            cached = last
            return failure == nil
        }
        if places.isEmpty && failure == nil { return true }
        return nil
    }

    /// Reads a file as the command line does (``Searcher``: compression undone, a log
    /// recognised or read as `kind` says, damage reported and skipped), keeping
    /// its stanzas with their log fields.
    private func loadThroughSearcher(path: String, as kind: InputKind?) throws(OutputError) -> Bool {
        let (sink, ok) = try readThroughSearcher(path: path, as: kind)
        add(sink.stanzas, source: path)
        return ok
    }

    /// Reads a file as the command line does into a ``LoadingSink``; `merge`:
    /// with each stanza's instant, as `--merge` orders it. Also whether it was
    /// read without error.
    func readThroughSearcher(path: String, as kind: InputKind?, merge: Bool = false) throws(OutputError) -> (LoadingSink, Bool) {
        var options = SearchOptions(queries: [])
        options.input = kind
        options.defaultNamespace = defaultNamespace
        options.directory = directory
        // (`:fields jid` may ask for it later.)
        options.findsJIDs = true
        options.merge = merge
        options.timeZone = timeZone
        let sink = LoadingSink()
        // The REPL reads its commands from standard input: "-" names a file here.
        let searcher = Searcher(options: options, sink: sink, diagnostics: diagnostics, standardInput: -1)
        try output.flush()
        try searcher.run([.input(path == "-" ? "./-" : path)])
        if searcher.failed { failed = true }
        return (sink, !searcher.failed)
    }

    /// Stanzas are numbered once, in the order they were loaded, whatever their
    /// source: `:all`'s prefixes, `:list` and `:use` agree.
    func add(_ elements: [Element], source: String) {
        add(elements.map { ($0, nil) }, source: source)
    }

    /// ``add(_:source:)``, each stanza with the fields its log gave it.
    func add(_ elements: [(Element, StanzaSource?)], source: String) {
        for (element, fields) in elements {
            stanzas.append(.element(element, source: source, fields: fields))
            namespaces.formUnion(Completion.namespaces(element))
            if fields != nil { hasLogFields = true }
        }
        if !elements.isEmpty { current = stanzas.count - 1 }
    }

    func noteLoaded(_ count: Int, current: Int) throws(OutputError) {
        try note("loaded \(count) stanza\(count == 1 ? "" : "s"); current: \(current + 1) <\(currentStanza?.qualifiedName ?? "?")>")
    }
}

/// Takes every stanza the searcher reads, with its log fields: how the REPL
/// loads what it cannot read again by offset. With no query and the test
/// inverted, every stanza counts.
final class LoadingSink: SearchSink {
    private(set) var stanzas: [(Element, StanzaSource?)] = []
    /// With `--merge`, each stanza's instant (``StanzaPlace/instant``).
    private(set) var instants: [DateTime?] = []

    var evaluation: Evaluation { .test(invert: true) }
    var needsWholeStanzas: Bool { true }

    func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        stanzas.append((element, stanza.source))
        instants.append(stanza.instant)
    }
}
