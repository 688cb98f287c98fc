import StanzaQuery

/// Reads every input, evaluates the queries on each stanza, and hands what it
/// finds to a ``SearchSink``: the searcher of ripgrep's searcher/sink split. It
/// decides what counts as a match and the exit status; the sink decides what
/// is printed.
public final class Searcher {
    public let options: SearchOptions
    public let sink: any SearchSink
    public let diagnostics: Diagnostics
    /// The descriptor read for the path `-`.
    public let standardInput: Int32

    // The properties the search reads and changes for every stanza are not
    // checked for exclusive access at run time: nothing accesses them
    // re-entrantly, and the checks were ten calls a stanza (callgrind, `-e` rows).
    /// Whether some stanza counted (had a result, or, inverted, none).
    @exclusivity(unchecked) public internal(set) var matched = false
    /// Whether an error was reported.
    @exclusivity(unchecked) public internal(set) var failed = false
    /// Whether a parallel search no longer wants what this searcher finds
    /// (checked between stanzas, as Ctrl-C is).
    var isCancelled: (() -> Bool)?
    /// Whether a message named a stanza by its number (which a part of a log
    /// after the first does not know).
    private var reportedStanzaNumber = false
    /// For a part of a log: what its reader did that depends on the stanzas before it.
    var cutLog: LogCutLog?

    /// Where `sink` writes: given, the search may run on several threads
    /// (``SearchOptions/threads``), the records of each input kept apart and
    /// written here in order.
    public let output: Output?

    public init(options: SearchOptions, sink: any SearchSink, diagnostics: Diagnostics, standardInput: Int32 = 0,
                output: Output? = nil) {
        self.options = options
        self.sink = sink
        self.output = output
        self.diagnostics = diagnostics
        self.standardInput = standardInput
        unboundPrefixes = UnboundPrefixes(queries: options.queries + options.wheres, aliases: options.namespaceAliases)
    }

    /// The prefixes of prefixed names not yet seen bound in the input.
    @exclusivity(unchecked) var unboundPrefixes: UnboundPrefixes

    /// The exit status so far, as grep's: 0 something matched, 1 nothing, 2 an error
    /// (`-q` exits 0 once something matched, even after an error, as `grep -q` does);
    /// 130 after Ctrl-C.
    public var status: Int32 {
        if Interruption.isRequested { return Interruption.status }
        return sink.stopsAtFirstMatch && matched ? 0 : failed ? 2 : (matched ? 0 : 1)
    }

    /// Searches the inputs the operands name, in order ("-" is standard input; no
    /// operand: standard input, or with `-r` the working directory), then ends the
    /// search (a total count). Throws when the output cannot be written; ``status``
    /// still tells what was found until then.
    public func run(paths: [String]) throws(OutputError) {
        let walk = FileWalk(operands: paths, recursive: options.recursive, filter: options.globs, directory: options.directory)
        // One input named (or none: standard input) is worth threads only if it can be cut into parts.
        let single = options.recursive || paths.count > 1 ? nil : paths.first ?? "-"
        if let parallel = ParallelSearch(searcher: self, walk: walk, single: single) {
            try parallel.run()
            return
        }
        try run(walk)
    }

    /// Searches the inputs of `walk`, in its order.
    public func run(_ walk: some Sequence<WalkItem>) throws(OutputError) {
        try run(walk, sink: sink)
    }

    // Generic over the sink so that release builds call it directly.
    private func run<Sink: SearchSink>(_ walk: some Sequence<WalkItem>, sink: Sink) throws(OutputError) {
        var total = 0
        for item in walk {
            switch item {
            case .input(let path):
                total += try search(path: path, sink: sink)
            case .unreadableDirectory:
                if let diagnostic = Self.diagnostic(for: item) { try report(diagnostic, sink: sink) }
            }
            if sink.stopsAtFirstMatch && matched { return }
            // Ctrl-C: the records written so far are whole; a count would not be.
            if Interruption.isRequested { try sink.flush(); return }
        }
        try sink.endSearch(count: total)
        try sink.flush()
        unboundPrefixes.warnings.forEach(diagnostics.report)
    }

    /// What is reported for an item of the walk that cannot be searched.
    static func diagnostic(for item: WalkItem) -> Diagnostic? {
        switch item {
        case .input: return nil
        case .unreadableDirectory(let path, let code): return .opening(path, errno: code)
        }
    }

    /// Searches one input; returns how many of its stanzas counted.
    private func search<Sink: SearchSink>(path: String, sink: Sink) throws(OutputError) -> Int {
        try search(InputPart(path: path), sink: sink).count
    }

    /// Searches one input, or a part of one (a parallel search); returns how
    /// many of its stanzas counted, and for a part that ends inside the input,
    /// whether it was read cleanly to its end (else what it found is not what
    /// one reader of the whole input finds, and it must be read another way).
    func search<Sink: SearchSink>(_ input: InputPart, sink: Sink) throws(OutputError) -> (count: Int, clean: Bool) {
        let path = input.path
        let name = input.name
        let part = input.part
        let fd: Int32
        if let part {
            fd = part.fileDescriptor
        } else {
            if path == "-" && standardInput < 0 {
                // The process was started without standard input.
                try report(.reading(name, StanzaReaderError.io(errno: EBADF)), sink: sink)
                return (0, true)
            }
            // Opened non-blocking: a FIFO with no writer yet would block open() itself,
            // which Ctrl-C (its handler restarts system calls) could not end.
            fd = path == "-" ? standardInput : openat(options.directory, path.fileSystemPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            if fd < 0 {
                try report(.opening(path, errno: errno), sink: sink)
                return (0, true)
            }
            Interruption.reading(fd)
            if fd != standardInput {
                Self.awaitWriter(fd)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            }
        }
        defer {
            if part == nil {
                Interruption.reading(-1)
                if fd != standardInput { close(fd) }
            }
        }
        var count = 0
        var number = part?.stanzasBefore ?? 0
        var outputError: OutputError?
        // After this many stanzas that count, the input has given what is asked (`-m`, `-l`).
        let limit = [options.maxCount, sink.stanzasPerInput].compactMap { $0 }.min()
        let depth: Int?
        let children: ChildSelection?
        // What the whole-stanza test found, for the stanzas it decided, in order:
        // taken up when each is handled, rather than evaluating the queries again.
        let decisions = StartTagDecisions()
        let wholeStanzaTest = self.wholeStanzaTest(for: sink) { decisions.record($0, hasResult: $1) }
        if sink.needsWholeStanzas || unboundPrefixes.isWatching {
            // (With a whole-stanza test, only the stanzas that count are: it
            // decides which at their start tag, and nothing else of the others is built.)
            // (While a prefix of the queries' is still to be seen bound, a
            // declaration anywhere in a stanza counts.)
            depth = nil
            children = nil
        } else if case .test = sink.evaluation {
            depth = depthLimit(deciding: true)
            children = childSelection(deciding: true)
        } else {
            depth = depthLimit(deciding: false)
            children = childSelection(deciding: false)
        }
        var logReader: LogReader?
        // (Its handler reads it, below: a cycle, broken as the XML reader's.)
        defer { logReader = nil }
        // A log read again from its start: what is found while its first lines are
        // read was written by the parts before (only counted, for stanza numbers).
        let silentThrough = part?.silentThrough ?? 0
        // Every stanza, from the XML reader or the log reader; false: stop reading.
        let take: (Element, StanzaSource?) -> Bool = { [unowned self] stanza, source in
            if silentThrough > 0, let logReader, logReader.currentLine <= silentThrough {
                number += 1
                return true
            }
            self.unboundPrefixes.observe(stanza)
            number += 1
            // Taken up for every stanza, even one not evaluated, so that none is kept.
            let known = decisions.isEmpty ? nil : decisions.take(stanza)
            if let limit, count >= limit && !sink.wantsMoreStanzas { return false }
            let place = StanzaPlace(file: name, number: number, source: source)
            let otherDirection = self.options.direction.map { source?.direction != $0 } ?? false
            if otherDirection && !sink.seesEitherDirection { return self.goesOn(sink) }
            do {
                if otherDirection || (limit.map { count >= $0 } ?? false) {
                    // Not selectable: shown only as context (an iq's partner going the other way), not evaluated.
                    // Or past the last stanza that counts: shown only as trailing context.
                    try sink.passed(stanza, in: place)
                } else if try self.handle(stanza, in: place, sink: sink, decided: known) {
                    count += 1
                }
                try sink.endStanza()
            } catch {
                outputError = error as? OutputError
                return false
            }
            if let limit, count >= limit && !sink.wantsMoreStanzas { return false }
            return self.goesOn(sink)
        }
        var xmlReader: StanzaReader?
        // The reader's handler reads the reader (where each stanza starts): a
        // cycle, broken here. (Not `weak`: a weakly referenced object's every
        // retain and release takes the slow path, 10% of a search.)
        defer { xmlReader = nil }
        var start: [UInt8] = []
        // (A part of a log that starts inside it: numbered on from its first line.)
        var linesBefore = part.map { $0.log != nil ? $0.line - 1 : 0 } ?? 0
        // Said once per input: by the reader of its start, when it knows the format.
        var warned = part.map { $0.offset > 0 || $0.silentThrough > 0 } ?? false
        func warn(_ format: LogFormat?) {
            if !warned { options.inputWarnings(file: name, format: format).forEach(diagnostics.report) }
            warned = true
        }
        func begin(_ kind: InputKind) {
            switch kind {
            case .xml:
                warn(nil)
                // The line of each stanza, when it is printed (`--line-number`).
                let placed = !options.fields.isEmpty
                let handler: StanzaReader.Handler = { take($0, placed ? xmlReader.map { StanzaSource(line: $0.stanzaLine) } : nil) }
                let reader: StanzaReader
                if let header = part?.continuing {
                    reader = StanzaReader(continuing: header, line: part!.line, defaultNamespace: options.defaultNamespace,
                                          recovery: .skipDamage, handler: handler)
                } else {
                    reader = StanzaReader(defaultNamespace: options.defaultNamespace, recovery: .skipDamage, handler: handler)
                }
                // Damaged input costs the damaged stanza only: reported, skipped, exit 2 at the end.
                reader.damageHandler = { [unowned self] damage in
                    // Ctrl-C ended the input in the middle of a stanza: not the input's fault.
                    guard !Interruption.isRequested, outputError == nil else { return false }
                    do {
                        try self.report(Diagnostic(.position(file: name, line: damage.line, column: damage.column),
                                                   damage.message), sink: sink)
                    } catch {
                        outputError = error as? OutputError
                        return false
                    }
                    return !Interruption.isRequested
                }
                reader.depthLimit = depth
                reader.childSelection = children
                reader.wholeStanzaTest = wholeStanzaTest
                xmlReader = reader
            case .log(let format):
                if let format = format ?? part?.log { warn(format) }
                logReader = LogReader(format: format, defaultNamespace: options.defaultNamespace,
                                      handler: { take($0, $1) },
                                      damage: { [unowned self] damage in
                                          guard outputError == nil else { return }
                                          if silentThrough > 0, let logReader, logReader.currentLine <= silentThrough { return }
                                          do {
                                              try self.report(Diagnostic(.position(file: name, line: damage.line, column: damage.column),
                                                                         damage.message), sink: sink)
                                          } catch {
                                              outputError = error as? OutputError
                                          }
                                      })
                logReader!.depthLimit = depth
                logReader!.childSelection = children
                logReader!.continueInNewFile(linesBefore: linesBefore)
                if let part, part.log != nil {
                    logReader!.startsMidLog = part.offset > 0
                    logReader!.recordsCuts = true
                }
            }
        }
        // Reads (and recognises) the input, stanzas going to `take`; false: stop.
        func feed(_ bytes: UnsafeRawBufferPointer, atEnd: Bool = false) throws -> Bool {
            if xmlReader == nil && logReader == nil {
                // A part that continues an XMPP stream, or a log, is read as the parts before it.
                let known: InputKind? = part?.continuing != nil ? .xml
                    : part.flatMap { $0.log != nil && $0.offset > 0 ? .log($0.log) : nil }
                if let kind = known ?? options.input {
                    begin(kind)
                    return try feed(bytes)
                }
                if start.isEmpty {
                    // Most inputs are told by their first bytes: look at those
                    // rather than copy the whole first chunk (a small file's
                    // every byte, once more: 2% over 1,000 files, callgrind).
                    // Recognition of a prefix, not at the end, answers as of the
                    // whole or not at all.
                    let head = Array(UnsafeRawBufferPointer(rebasing: bytes.prefix(4096)))
                    if let kind = InputKind.recognise(head, atEnd: atEnd && head.count == bytes.count) {
                        begin(kind)
                        return try feed(bytes)
                    }
                }
                start.append(contentsOf: bytes)
                guard let kind = InputKind.recognise(start, atEnd: atEnd) else { return true }
                begin(kind)
                let bytes = start
                start = []
                return try bytes.withUnsafeBytes { try feed($0) }
            }
            if let xmlReader {
                try xmlReader.feed(bytes)
                return !xmlReader.isStopped && outputError == nil
            }
            logReader!.feed(bytes)
            return !logReader!.isStopped && outputError == nil
        }
        // gzip is undone before anything reads the input (a part of a split input is never gzip).
        let decompressed = part == nil ? DecompressedInput() : nil
        var readsOn = true
        func feedRaw(_ chunk: UnsafeRawBufferPointer) throws -> Bool {
            guard let decompressed else { return try feed(chunk) }
            let damage = try decompressed.feed(chunk) { if readsOn { readsOn = try feed($0) } }
            if let damage { try reportGzip(damage) }
            return readsOn && !decompressed.isSkippingRest
        }
        func reportGzip(_ damage: DecompressedInput.Damage) throws {
            try report(Diagnostic(.position(file: name, line: damage.place.line, column: damage.place.column), damage.message), sink: sink)
        }
        do {
            var failure: Error?
            let code: Int32?
            if let bytes = part?.bytes {
                // A part that ends inside the input: read, not finished.
                code = nil
                do { _ = try bytes.withUnsafeBytes { try feed($0) } } catch { failure = error }
            } else if let part {
                code = part.readToEnd { chunk in
                    do { return try feed(chunk) } catch { failure = error; return false }
                }
            } else {
                code = InputChunks.read(fileDescriptor: fd, follow: options.follow && fd != standardInput ? path : nil, body: { chunk in
                    do { return try feedRaw(chunk) } catch { failure = error; return false }
                }, idle: {
                    logReader?.idle()
                    do { try sink.flush() } catch { outputError = error as? OutputError }
                }, newFile: { lines in
                    if xmlReader == nil && logReader == nil { start = [] }
                    logReader?.continueInNewFile(linesBefore: lines)
                    linesBefore = lines
                })
            }
            if let failure { throw failure }
            if let code { throw StanzaReaderError.io(errno: code) }
            if outputError == nil && (part?.bytes == nil || part?.endsInput == true) {
                if let decompressed, readsOn, let damage = try decompressed.finish({ if readsOn { readsOn = try feed($0) } }) {
                    try reportGzip(damage)
                }
                _ = try feed(UnsafeRawBufferPointer(start: nil, count: 0), atEnd: true)
                try xmlReader?.finish()
                logReader?.finish()
            }
        } catch where !Interruption.isRequested && outputError == nil {
            try report(.reading(name, error), sink: sink)
        } catch {
            // Ctrl-C ended the input in the middle of a stanza: not the input's fault.
        }
        if let outputError { throw outputError }
        if let part, let format = part.log {
            // Stopped by the search (-q): what was read up to there is right.
            if !goesOn(sink) { return (count, true) }
            guard let logReader else { return (count, false) }
            cutLog = logReader.cutLog
            // Read as one reader of the whole log reads it if its start depends on
            // nothing before (the part before ended at a clean cut) — stanza numbers
            // included, which a part after the first does not know — and the next
            // part can start afresh where it ends.
            let start = part.offset == 0 || (!logReader.dependsOnEarlierLines && !reportedStanzaNumber)
            let end = part.endsInput || (logReader.isAtCleanCut && logReader.format == format)
            return (count, start && end)
        }
        if let part {
            guard let expected = part.stanzas else { return (count, true) }
            // Stopped by the search (-q): what was read up to there is right.
            if !goesOn(sink) { return (count, true) }
            let clean = xmlReader.map { $0.isInsideStreamBetweenStanzas && $0.streamStartTag == part.header } ?? false
            return (count, clean && number - part.stanzasBefore == expected)
        }
        if let format = logReader?.format { warn(format) }
        if !Interruption.isRequested { try sink.endInput(name, count: count) }
        return (count, true)
    }

    /// A FIFO opened before any writer: waits for one (poll, unlike open, returns
    /// on Ctrl-C, whose handler also ends the input), so that reading does not
    /// take "no writer yet" for the end of the input.
    private static func awaitWriter(_ fd: Int32) {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&entry, 1, -1) < 0 && errno == EINTR && !Interruption.isRequested {}
    }

    /// Whether reading goes on after a stanza: checked between stanzas, so that
    /// output ends with a whole record.
    private func goesOn<Sink: SearchSink>(_ sink: Sink) -> Bool {
        !(sink.stopsAtFirstMatch && matched) && !Interruption.isRequested && !(isCancelled?() ?? false)
    }

    /// For a sink that prints whole only the stanzas that count (`-s`, `-v`),
    /// when the queries look at a stanza's start tag only: whether a stanza
    /// whose root's start tag has just been read counts, so that only those
    /// are built whole (callgrind: most of the work of `-s '/<type=error>'` was
    /// building and freeing the whole tree of every stanza, to print one in
    /// hundreds). When every query was evaluated without error, `record` is told whether one
    /// had a result, and the searcher takes that answer for the stanza (the same,
    /// as ``Query/isDecidedByStartTag`` says) instead of evaluating again; after an
    /// error, the stanza is built whole and evaluated again, and the error
    /// reported there, in order.
    private func wholeStanzaTest<Sink: SearchSink>(for sink: Sink, record: @escaping (Element, Bool) -> Void)
        -> ((Element) -> Bool)? {
        guard sink.printsOnlyCountedStanzas, case .test(let invert) = sink.evaluation, options.each == nil,
              options.wheres.isEmpty, !unboundPrefixes.isWatching, options.queries.allSatisfy(\.isDecidedByStartTag)
        else { return nil }
        let queries = options.queries, strict = options.strict
        return { root in
            var hasResult = false
            for query in queries {
                do {
                    if try query.check(in: root, strict: strict) { hasResult = true }
                } catch {
                    return true
                }
            }
            record(root, hasResult)
            return hasResult != invert
        }
    }

    /// How deep the reader must build stanzas: as deep as the deepest query
    /// reaches; when `deciding` whether there is a result (counting, testing:
    /// no element is printed), only as deep as the paths go.
    /// Which children of a stanza's root the reader builds (see ``ChildSelection``):
    /// all with `--each`, whose queries start below the elements its path reaches.
    private func childSelection(deciding: Bool) -> ChildSelection? {
        options.each == nil ? ChildSelection(queries: options.queries + options.wheres, deciding: deciding) : nil
    }

    private func depthLimit(deciding: Bool) -> Int? {
        var deepest = 0
        for query in options.queries {
            guard let reach = deciding ? query.reachToDecide : query.reach else { return nil }
            deepest = max(deepest, reach)
        }
        // A --where filter only decides.
        for filter in options.wheres {
            guard let reach = filter.reachToDecide else { return nil }
            deepest = max(deepest, reach)
        }
        // With --each, the queries look below the elements its path reaches.
        if let each = options.each {
            guard let below = each.reachToDecide else { return nil }
            return below + deepest
        }
        return deepest
    }

    /// Evaluates what the sink asks for on one stanza and hands it over; returns
    /// whether the stanza counts (has a result, or, inverted, none).
    /// `decided`: whether a query has a result, already known (see ``wholeStanzaTest(for:record:)``).
    @inline(__always)
    private func handle<Sink: SearchSink>(_ stanza: Element, in place: StanzaPlace, sink: Sink,
                                          decided: Bool? = nil) throws(OutputError) -> Bool {
        if options.each == nil, !options.wheres.isEmpty, !(try isSelected(stanza, in: place, sink: sink)) {
            if case .test = sink.evaluation { try sink.passed(stanza, in: place) }
            return false
        }
        switch sink.evaluation {
        case .results(let firstOnly):
            var hasResult = false
            for query in options.queries where firstOnly {
                let value: QueryValue?
                do {
                    value = try query.findFirst(in: stanza, strict: options.strict)
                } catch {
                    try reportEvaluation(error, of: query, in: place, sink: sink)
                    continue
                }
                if let value {
                    hasResult = true
                    try sink.result(value, in: place)
                }
            }
            for query in options.queries where !firstOnly {
                let values: [QueryValue]
                do {
                    values = try query.find(in: stanza, strict: options.strict)
                } catch {
                    try reportEvaluation(error, of: query, in: place, sink: sink)
                    continue
                }
                for value in values {
                    hasResult = true
                    try sink.result(value, in: place)
                }
            }
            if hasResult { matched = true }
            return hasResult

        case .rows:
            guard let each = options.each else {
                guard try makeRow(on: stanza, in: place, sink: sink) else { return false }
                matched = true
                try sink.row(row, in: place)
                return true
            }
            var hasResult = false
            for element in try contexts(each, in: stanza, place: place, sink: sink) {
                guard try makeRow(on: element, in: place, sink: sink) else { continue }
                hasResult = true
                try sink.row(row, in: place)
            }
            if hasResult { matched = true }
            return hasResult

        case .test(let invert):
            // Every query is evaluated, so that each one's errors are reported.
            var hasResult = false
            if let each = options.each {
                for element in try contexts(each, in: stanza, place: place, sink: sink) {
                    if try test(element, in: place, sink: sink) { hasResult = true }
                }
            } else {
                if let decided { hasResult = decided } else { hasResult = try test(stanza, in: place, sink: sink) }
            }
            guard hasResult != invert else {
                try sink.passed(stanza, in: place)
                return false
            }
            matched = true
            try sink.counted(stanza, in: place)
            return true
        }
    }

    /// Fills ``row`` with the first result of each query on `context` (a stanza,
    /// or an element of `--each`); returns whether any query has one.
    @inline(__always)
    private func makeRow<Sink: SearchSink>(on context: Element, in place: StanzaPlace, sink: Sink) throws(OutputError) -> Bool {
        // Filled in place (emptying and appending cost a tenth of a row, callgrind).
        let queries = options.queries
        if row.count != queries.count { row = [QueryValue?](repeating: nil, count: queries.count) }
        var hasResult = false
        for index in queries.indices {
            do {
                row[index] = try queries[index].findFirst(in: context, strict: options.strict)
                if row[index] != nil { hasResult = true }
            } catch {
                row[index] = nil
                try reportEvaluation(error, of: queries[index], in: place, sink: sink)
            }
        }
        return hasResult
    }

    /// Whether any query has a result on `context` (every query is evaluated,
    /// so that each one's errors are reported).
    private func test<Sink: SearchSink>(_ context: Element, in place: StanzaPlace, sink: Sink) throws(OutputError) -> Bool {
        var hasResult = false
        for query in options.queries {
            do {
                if try query.check(in: context, strict: options.strict) { hasResult = true }
            } catch {
                try reportEvaluation(error, of: query, in: place, sink: sink)
            }
        }
        return hasResult
    }

    /// Whether every `--where` filter has a result on `context` (a stanza, or an
    /// element of `--each`). Each is evaluated until one has none, an error
    /// reported as a query's and taken for none.
    private func isSelected<Sink: SearchSink>(_ context: Element, in place: StanzaPlace, sink: Sink) throws(OutputError) -> Bool {
        for filter in options.wheres {
            do {
                if !(try filter.check(in: context, strict: options.strict)) { return false }
            } catch {
                try reportEvaluation(error, of: filter, in: place, sink: sink)
                return false
            }
        }
        return true
    }

    /// The elements `--each` selects in a stanza (its path gives elements only:
    /// the command line refuses an extraction there) that `--where` selects.
    private func contexts<Sink: SearchSink>(_ each: Query, in stanza: Element, place: StanzaPlace,
                                            sink: Sink) throws(OutputError) -> [Element] {
        let elements: [Element]
        do {
            elements = try each.find(in: stanza, strict: options.strict).compactMap {
                if case .element(let element) = $0 { return element } else { return nil }
            }
        } catch {
            try reportEvaluation(error, of: each, in: place, sink: sink)
            return []
        }
        if options.wheres.isEmpty { return elements }
        var selected: [Element] = []
        for element in elements where try isSelected(element, in: place, sink: sink) { selected.append(element) }
        return selected
    }

    /// The values of one row, kept between stanzas to spare an allocation each.
    @exclusivity(unchecked) private var row: [QueryValue?] = []

    /// Reports an error of `query` on one stanza, unless it repeats one reported
    /// before (a `~` filter given up, stanzaq(1), "Resource limits"): that one
    /// only makes the exit status 2.
    private func reportEvaluation<Sink: SearchSink>(_ error: EvaluationError, of query: Query, in place: StanzaPlace,
                                                    sink: Sink) throws(OutputError) {
        if error.reportedBefore {
            failed = true
            return
        }
        reportedStanzaNumber = true
        try report(.evaluating(query, file: place.file, stanza: place.number, error), sink: sink)
    }

    /// Writes out the records so far (so that they come before the message on a
    /// terminal), then reports.
    private func report<Sink: SearchSink>(_ diagnostic: Diagnostic, sink: Sink) throws(OutputError) {
        failed = true
        try sink.flush()
        diagnostics.report(diagnostic)
    }
}
