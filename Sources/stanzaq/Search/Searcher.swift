import StanzaQuery
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What to do with the stanzas that have (or, inverted, lack) results.
enum Mode {
    /// Print the results.
    case results
    /// Print each such stanza whole (`-s`).
    case select
    /// Count them (`-c`).
    case count
    /// Print nothing; stop at the first one (`-q`).
    case quiet
}

/// Reads every input, evaluates the queries on each stanza, and hands
/// records to the sink: the searcher of ripgrep's searcher/printer split.
final class Searcher {
    let queries: [Query]
    let mode: Mode
    let invert: Bool
    let firstOnly: Bool
    let strict: Bool
    let defaultNamespace: String?
    let lineBuffered: Bool
    let formatter: RecordFormatter
    let output: OutputSink
    /// Several queries give one row (TSV or a JSON array) per stanza.
    let rows: Bool
    /// How to read the inputs (`--xml`, `--log[=FORMAT]`); `nil`: recognise each.
    var input: InputKind?
    /// Only the stanzas a log shows going this way (`--direction`).
    var direction: LogDirection?
    /// Follow the (one) file as it grows (`--follow`).
    var follow = false

    private(set) var matched = false
    private(set) var failed = false
    private var total = 0

    /// The prefixes of prefixed names not yet seen bound in the input.
    private var unboundPrefixes: UnboundPrefixes

    init(queries: [Query], mode: Mode, invert: Bool, firstOnly: Bool, strict: Bool, defaultNamespace: String?,
         namespaceAliases: [String: String] = [:], lineBuffered: Bool, rows: Bool, formatter: RecordFormatter,
         output: OutputSink) {
        self.queries = queries
        unboundPrefixes = UnboundPrefixes(queries: queries, aliases: namespaceAliases)
        self.mode = mode
        self.invert = invert
        self.firstOnly = firstOnly
        self.strict = strict
        self.defaultNamespace = defaultNamespace
        self.lineBuffered = lineBuffered
        self.rows = rows
        self.formatter = formatter
        self.output = output
    }

    /// How deep the reader must build stanzas: as deep as the deepest query
    /// reaches, and whole when stanzas or elements are printed.
    private var depthLimit: Int? {
        if mode == .select { return nil }
        var deepest = 0
        for query in queries {
            guard let reach = query.reach else { return nil }
            deepest = max(deepest, reach)
        }
        return deepest
    }

    /// The exit status so far, as grep's: 0 something matched, 1 nothing, 2 an error
    /// (`-q` exits 0 once something matched, even after an error, as `grep -q` does);
    /// 130 after Ctrl-C.
    var status: Int32 {
        if Interruption.isRequested { return Interruption.status }
        return mode == .quiet && matched ? 0 : failed ? 2 : (matched ? 0 : 1)
    }

    /// Searches the inputs in order ("-" is standard input), then prints a total count.
    func run(paths: [String]) {
        for path in paths {
            search(path: path)
            if mode == .quiet && matched { return }
            // Ctrl-C: the records written so far are whole; a count would not be.
            if Interruption.isRequested { output.flush(); return }
        }
        if mode == .count && !formatter.withFilename {
            output.write(formatter.countRecord(file: nil, count: total))
        }
        output.flush()
        unboundPrefixes.warnings.forEach(printError)
    }

    private func search(path: String) {
        let name = path == "-" ? "(standard input)" : path
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        if fd < 0 {
            report("stanzaq: error: \(path): \(String(cString: strerror(errno)))")
            return
        }
        Interruption.reading(fd)
        defer {
            Interruption.reading(-1)
            if fd != 0 { close(fd) }
        }
        var count = 0
        stanzaNumber = 0
        // Every stanza, from the XML reader or the log reader.
        let take: (Element, StanzaSource?) -> Bool = { [unowned self] stanza, source in
            self.unboundPrefixes.observe(stanza)
            self.stanzaNumber += 1
            if let direction = self.direction, source?.direction != direction { return self.goesOn }
            self.source = source
            if self.handle(stanza, number: self.stanzaNumber, file: name) { count += 1 }
            if self.lineBuffered { self.output.flush() }
            return self.goesOn
        }
        var xmlReader: StanzaReader?
        var logReader: LogReader?
        var start: [UInt8] = []
        var linesBefore = 0
        func begin(_ kind: InputKind) {
            switch kind {
            case .xml:
                xmlReader = StanzaReader(defaultNamespace: defaultNamespace) { take($0, nil) }
                xmlReader!.depthLimit = depthLimit
            case .log(let format):
                logReader = LogReader(format: format, defaultNamespace: defaultNamespace,
                                      handler: { take($0, $1) },
                                      damage: { [unowned self] damage in
                                          self.output.flush()
                                          self.report("\(name):\(damage.line):\(damage.column): \(damage.message)")
                                      })
                logReader!.depthLimit = depthLimit
                logReader!.continueInNewFile(linesBefore: linesBefore)
            }
        }
        // Reads (and recognises) the input, stanzas going to `take`; false: stop.
        func feed(_ bytes: UnsafeRawBufferPointer, atEnd: Bool = false) throws -> Bool {
            if xmlReader == nil && logReader == nil {
                start.append(contentsOf: bytes)
                guard let kind = input ?? InputKind.recognise(start, atEnd: atEnd) else { return true }
                begin(kind)
                let bytes = start
                start = []
                return try bytes.withUnsafeBytes { try feed($0) }
            }
            if let xmlReader {
                try xmlReader.feed(bytes)
                return !xmlReader.isStopped
            }
            logReader!.feed(bytes)
            return !logReader!.isStopped
        }
        do {
            var failure: Error?
            let code = InputChunks.read(fileDescriptor: fd, follow: follow && fd != 0 ? path : nil, body: { chunk in
                do { return try feed(chunk) } catch { failure = error; return false }
            }, idle: { [unowned self] in
                logReader?.idle()
                self.output.flush()
            }, newFile: { lines in
                if xmlReader == nil && logReader == nil { start = [] }
                logReader?.continueInNewFile(linesBefore: lines)
                linesBefore = lines
            })
            if let failure { throw failure }
            if let code { throw StanzaReaderError.io(errno: code) }
            _ = try feed(UnsafeRawBufferPointer(start: nil, count: 0), atEnd: true)
            try xmlReader?.finish()
            logReader?.finish()
        } catch StanzaReaderError.malformed(let line, let column, let message) where !Interruption.isRequested {
            output.flush()
            report("\(name):\(line):\(column): \(message)")
        } catch where !Interruption.isRequested {
            output.flush()
            report("stanzaq: error: \(name): \(error)")
        } catch {
            // Ctrl-C ended the input in the middle of a stanza: not the input's fault.
        }
        total += count
        if mode == .count && formatter.withFilename && !Interruption.isRequested {
            output.write(formatter.countRecord(file: name, count: count))
        }
    }

    private var stanzaNumber = 0
    /// Where the log has the stanza being handled (`nil`: XML input).
    private var source: StanzaSource?

    /// Whether reading goes on after a stanza: checked between stanzas, so that
    /// output ends with a whole record.
    private var goesOn: Bool {
        !(mode == .quiet && matched) && !Interruption.isRequested
    }

    /// Evaluates every query on one stanza and writes its records; returns
    /// whether the stanza counts (has a result, or none when inverted).
    private func handle(_ stanza: Element, number: Int, file: String) -> Bool {
        if rows { return handleRow(stanza, number: number, file: file) }
        var hasResult = false
        for query in queries {
            do {
                if mode != .results {
                    // Only whether there is a result matters; --strict checks every query.
                    if try query.check(in: stanza, strict: strict) {
                        hasResult = true
                        if !strict { break }
                    }
                } else if firstOnly {
                    if let value = try query.findFirst(in: stanza, strict: strict) {
                        hasResult = true
                        write(file: file, stanza: number, value: value)
                    }
                } else {
                    for value in try query.find(in: stanza, strict: strict) {
                        hasResult = true
                        write(file: file, stanza: number, value: value)
                    }
                }
            } catch {
                output.flush()
                report("\(file):stanza \(number): query '\(query.text)': \(error)")
            }
        }
        let counts = hasResult != invert
        switch mode {
        case .results:
            if hasResult { matched = true }
        case .select:
            if counts {
                matched = true
                write(file: file, stanza: number, value: .element(stanza))
            }
        case .count, .quiet:
            if counts { matched = true }
        }
        return mode == .results ? hasResult : counts
    }

    /// Several queries (or TSV): one row of first results per stanza that has any.
    private func handleRow(_ stanza: Element, number: Int, file: String) -> Bool {
        row.removeAll(keepingCapacity: true)
        for query in queries {
            do {
                row.append(try query.findFirst(in: stanza, strict: strict))
            } catch {
                output.flush()
                report("\(file):stanza \(number): query '\(query.text)': \(error)")
                row.append(nil)
            }
        }
        let hasResult = row.contains { $0 != nil }
        switch mode {
        case .results:
            guard hasResult else { return false }
            matched = true
            output.writeRecord { formatter.writeRow(file: file, stanza: number, source: source, values: row, into: &$0) }
            return true
        case .select:
            let counts = hasResult != invert
            if counts {
                matched = true
                write(file: file, stanza: number, value: .element(stanza))
            }
            return counts
        case .count, .quiet:
            let counts = hasResult != invert
            if counts { matched = true }
            return counts
        }
    }

    /// The values of one row, kept between stanzas to spare an allocation each.
    private var row: [QueryValue?] = []

    private func write(file: String, stanza: Int, value: QueryValue) {
        output.writeRecord { formatter.writeRecord(file: file, stanza: stanza, source: source, value: value, into: &$0) }
    }

    private func report(_ message: String) {
        failed = true
        printError(message)
    }
}
