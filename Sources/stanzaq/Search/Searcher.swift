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

    private(set) var matched = false
    private(set) var failed = false
    private var total = 0

    init(queries: [Query], mode: Mode, invert: Bool, firstOnly: Bool, strict: Bool, defaultNamespace: String?,
         lineBuffered: Bool, rows: Bool, formatter: RecordFormatter, output: OutputSink) {
        self.queries = queries
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
        let reader = StanzaReader(defaultNamespace: defaultNamespace) { [unowned self] stanza in
            let hit = self.handle(stanza, number: self.stanzaNumber + 1, file: name)
            self.stanzaNumber += 1
            if hit { count += 1 }
            if self.lineBuffered { self.output.flush() }
            // Checked between stanzas, so that output ends with a whole record.
            return !(self.mode == .quiet && self.matched) && !Interruption.isRequested
        }
        reader.depthLimit = depthLimit
        stanzaNumber = 0
        do {
            try reader.read(fileDescriptor: fd)
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

    /// Evaluates every query on one stanza and writes its records; returns
    /// whether the stanza counts (has a result, or none when inverted).
    private func handle(_ stanza: Element, number: Int, file: String) -> Bool {
        if rows { return handleRow(stanza, number: number, file: file) }
        var hasResult = false
        for query in queries {
            do {
                if mode != .results {
                    // Only whether there is a result matters.
                    if try query.check(in: stanza, strict: strict) { hasResult = true; break }
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
            output.writeRecord { formatter.writeRow(file: file, stanza: number, values: row, into: &$0) }
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
        output.writeRecord { formatter.writeRecord(file: file, stanza: stanza, value: value, into: &$0) }
    }

    private func report(_ message: String) {
        failed = true
        printError(message)
    }
}
