#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// `--since -10m`, `--until -1h` (stanzaq(1), "Times"): counted back from the
/// last record of the inputs, the latest time of any of their stanzas, which
/// a first reading of the inputs finds; with `--follow`, from now.
extension SearchOptions {
    /// Whether `--since` or `--until` is relative (`-10m`).
    public var hasRelativeBound: Bool {
        [since, until].contains { if case .beforeLast? = $0 { true } else { false } }
    }

    /// These options with relative bounds made instants: so many seconds
    /// before the latest time of any stanza of the inputs `paths` name (read
    /// once for it, as the search reads them, nothing reported), or before now
    /// with `--follow` or where no stanza has a time. Standard input that is no
    /// file is kept in an unlinked temporary file first, so that it can be read
    /// twice: the descriptor to read it from is returned with the options.
    public func resolvingRelativeBounds(paths: [String], standardInput: Int32) -> (options: SearchOptions, standardInput: Int32) {
        guard hasRelativeBound else { return (self, standardInput) }
        var resolved = self
        var input = standardInput
        var reference = TimeFilter.now
        if !follow {
            if (paths.isEmpty && !recursive) || paths.contains("-"), let copy = Self.seekableCopy(of: standardInput) { input = copy }
            reference = latestTime(paths: paths, standardInput: input) ?? reference
        }
        for bound in [\SearchOptions.since, \SearchOptions.until] {
            if case .beforeLast(let seconds)? = resolved[keyPath: bound] {
                resolved[keyPath: bound] = .instant(TimeBound.before(reference, seconds: seconds))
            }
        }
        return (resolved, input)
    }

    /// The latest instant of any stanza of the inputs, by the rules `--merge`
    /// orders them with; `nil` if none has a time.
    private func latestTime(paths: [String], standardInput: Int32) -> DateTime? {
        let start = lseek(standardInput, 0, SEEK_CUR)
        defer { if start >= 0 { lseek(standardInput, start, SEEK_SET) } }
        var first = SearchOptions(queries: [])
        (first.input, first.envelope, first.defaultNamespace, first.directory) = (input, envelope, defaultNamespace, directory)
        (first.recursive, first.globs, first.timeZone, first.merge) = (recursive, globs, timeZone, true)
        let sink = LatestTimeSink()
        let searcher = Searcher(options: first, sink: sink, diagnostics: .inMemory(), standardInput: standardInput)
        try? searcher.run(paths: paths)
        return sink.latest
    }

    /// An unlinked temporary file holding what is left to read of `fd`, read
    /// from its start; `nil` if `fd` is a regular file already (or on failure).
    private static func seekableCopy(of fd: Int32) -> Int32? {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT != S_IFREG else { return nil }
        guard let copy = unlinkedTemporaryFile() else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            guard writeAll(copy, UnsafeRawBufferPointer(rebasing: buffer[..<count])) == 0 else {
                close(copy)
                return nil
            }
        }
        guard lseek(copy, 0, SEEK_SET) == 0 else {
            close(copy)
            return nil
        }
        return copy
    }
}

/// Keeps the latest instant of the stanzas read (``StanzaPlace/instant``):
/// every stanza counts, none is kept or printed.
final class LatestTimeSink: SearchSink {
    private(set) var latest: DateTime?

    var evaluation: Evaluation { .test(invert: true) }

    func counted(_ element: Element, in stanza: StanzaPlace) throws(OutputError) {
        if let instant = stanza.instant, latest.map({ instant > $0 }) ?? true { latest = instant }
    }
}
