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
    /// (`-q` exits 0 once something matched, even after an error, as `grep -q` does).
    var status: Int32 { mode == .quiet && matched ? 0 : failed ? 2 : (matched ? 0 : 1) }

    /// Searches the inputs in order ("-" is standard input), then prints a total count.
    func run(paths: [String]) {
        for path in paths {
            search(path: path)
            if mode == .quiet && matched { return }
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
        defer { if fd != 0 { close(fd) } }
        var count = 0
        let reader = StanzaReader(defaultNamespace: defaultNamespace) { [unowned self] stanza in
            let hit = self.handle(stanza, number: self.stanzaNumber + 1, file: name)
            self.stanzaNumber += 1
            if hit { count += 1 }
            if self.lineBuffered { self.output.flush() }
            return !(self.mode == .quiet && self.matched)
        }
        reader.depthLimit = depthLimit
        stanzaNumber = 0
        do {
            try reader.read(fileDescriptor: fd)
        } catch StanzaReaderError.malformed(let line, let column, let message) {
            output.flush()
            report("\(name):\(line):\(column): \(message)")
        } catch {
            output.flush()
            report("stanzaq: error: \(name): \(error)")
        }
        total += count
        if mode == .count && formatter.withFilename {
            output.write(formatter.countRecord(file: name, count: count))
        }
    }

    private var stanzaNumber = 0

    /// Evaluates every query on one stanza and writes its records; returns
    /// whether the stanza counts (has a result, or none when inverted).
    private func handle(_ stanza: Element, number: Int, file: String) -> Bool {
        let onlyExistence = mode != .results
        var results: [[QueryValue]] = []
        results.reserveCapacity(queries.count)
        for query in queries {
            do {
                if onlyExistence || firstOnly || rows {
                    results.append(try query.findFirst(in: stanza, strict: strict).map { [$0] } ?? [])
                } else {
                    results.append(try query.find(in: stanza, strict: strict))
                }
            } catch {
                output.flush()
                report("\(file):stanza \(number): query '\(query.text)': \(error)")
                results.append([])
            }
        }
        let hasResult = results.contains { !$0.isEmpty }
        let counts = hasResult != invert
        switch mode {
        case .results:
            guard hasResult else { return false }
            matched = true
            if rows {
                output.write(formatter.record(file: file, stanza: number, values: results.map(\.first), row: true))
            } else {
                for value in results[0] {
                    output.write(formatter.record(file: file, stanza: number, values: [value], row: false))
                }
            }
        case .select:
            if counts {
                matched = true
                output.write(formatter.record(file: file, stanza: number, values: [.element(stanza)], row: false))
            }
        case .count, .quiet:
            if counts { matched = true }
        }
        return counts
    }

    private func report(_ message: String) {
        failed = true
        printError(message)
    }
}
