#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// The bytes of standard input as they were read, kept up to a limit so that
/// the input can be searched again for a hint (``Searcher/noResultHint(paths:compile:)``).
public final class KeptInput {
    /// How many bytes are kept at most; past it, nothing is (the input is too large to search again).
    public static let limit = 4 << 20
    private(set) var bytes: [UInt8] = []
    private(set) var overflowed = false

    public init() {}

    func keep(_ chunk: UnsafeRawBufferPointer) {
        guard !overflowed else { return }
        if bytes.count + chunk.count > Self.limit {
            overflowed = true
            bytes = []
        } else {
            bytes.append(contentsOf: chunk)
        }
    }

    /// A descriptor from which the bytes kept can be read again, or `nil`.
    func replay() -> Int32? {
        guard !overflowed else { return nil }
        guard let fd = unlinkedTemporaryFile() else { return nil }
        guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) == 0, lseek(fd, 0, SEEK_SET) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}

extension Searcher {
    /// How many bytes of files a search for a hint reads again at most.
    public static let hintInputLimit = 16 << 20

    /// After a search in which no stanza counted: the hint that a near query
    /// has results in the same inputs (``NoResultHint``), found by searching
    /// them again, at most once per near query tried, each search ending at its
    /// first stanza that counts. `nil` when none has a result, or when the
    /// inputs cannot be read again within the limits (a directory walk, files
    /// of more than ``hintInputLimit`` bytes, standard input of more than
    /// ``KeptInput/limit`` or not kept).
    ///
    /// `compile`: the query text compiled as the command line compiles its
    /// queries (format arguments, namespace aliases).
    public func noResultHint(paths: [String], compile: (String) -> Query?) -> NoResultHint? {
        guard !options.recursive, let sizes = Self.sizes(of: paths, directory: options.directory),
              sizes <= Self.hintInputLimit else { return nil }
        var input: Int32 = -1
        if paths.isEmpty || paths.contains("-") {
            // A file is read again from its start (threads may have read it in
            // parts, which were not kept); a pipe from what was kept of it.
            var status = stat()
            if fstat(standardInput, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                guard Int(status.st_size) <= Self.hintInputLimit else { return nil }
                input = dup(standardInput)
            } else if let replayed = standardInputCopy?.replay() {
                input = replayed
            }
            guard input >= 0 else { return nil }
        }
        defer { if input >= 0 { close(input) } }
        func search(_ queries: [Query], report: SearchOptions.Report = .quiet, sink: (SearchOptions) -> any SearchSink) -> Searcher {
            var again = options
            again.queries = queries
            again.report = report
            again.format = .text
            again.withFilename = false
            again.withStanzaNumber = false
            again.colors = nil
            again.separator = [0x0A]
            again.fields = []
            again.reportsStatistics = false
            again.parallel.reportsParts = false
            again.pairs = false
            again.unanswered = false
            again.context = nil
            again.maxCount = nil
            again.lineBuffered = false
            if input >= 0 { lseek(input, 0, SEEK_SET) }
            let searcher = Searcher(options: again, sink: sink(again), diagnostics: .inMemory(), standardInput: input)
            try? searcher.run(paths: paths)
            return searcher
        }
        return NoResultHint.hint(for: options.queries.map(\.syntax), names: {
            var names = InputNames()
            for path in paths.isEmpty ? ["-"] : paths {
                let fd = path == "-" ? dup(input) : openat(options.directory, path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                defer { close(fd) }
                if path == "-" { lseek(fd, 0, SEEK_SET) }
                // Chunk by chunk; a tag cut by a chunk's end is read with the next.
                var held: [UInt8] = []
                _ = InputChunks.read(fileDescriptor: fd, follow: nil, body: { chunk in
                    held.append(contentsOf: chunk)
                    let cut = held.lastIndex(of: 0x3C).map { held.count - $0 < 4096 ? $0 : held.count } ?? held.count
                    held.withUnsafeBytes { names.scan(UnsafeRawBufferPointer(rebasing: $0[..<cut])) }
                    held.removeFirst(cut)
                    return true
                }, idle: {}, newFile: { _ in })
                held.withUnsafeBytes { names.scan($0) }
            }
            return names
        }, hasResult: { text in
            guard let query = compile(text), !Interruption.isRequested else { return false }
            return search([query]) { $0.makeSink(output: .inMemory()) }.matched
        }, firstValue: { text in
            guard let query = compile(text), !Interruption.isRequested else { return nil }
            let output = Output.inMemory()
            let found = search([query], report: .results) { ResultSink(formatter: $0.formatter, output: output, firstOnly: true) }
            try? output.flush()
            guard found.matched else { return nil }
            return String(decoding: output.contents.prefix { $0 != 0x0A }, as: UTF8.self)
        })
    }

    /// The total size of the files `paths` names, or `nil` if one is not a regular file (a directory) or cannot be seen.
    private static func sizes(of paths: [String], directory: Int32) -> Int? {
        var total = 0
        for path in paths where path != "-" {
            var status = stat()
            guard fstatat(directory, path, &status, 0) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            total += Int(status.st_size)
        }
        return total
    }
}
