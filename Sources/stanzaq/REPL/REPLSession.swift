import StanzaQuery
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The REPL's state and commands (SPEC 6), apart from line editing: it takes
/// whole lines and writes results, so the same code serves a terminal and a
/// script on standard input.
final class REPLSession {
    struct LoadedStanza {
        let element: Element
        let source: String
        let number: Int
    }

    private(set) var stanzas: [LoadedStanza] = []
    private(set) var current: Int?
    var arguments: [String] = []
    var format: OutputFormat = .text
    var firstOnly = false
    var defaultNamespace: String?
    /// How queries are compiled (--case-sensitive, --monal).
    var options = QueryOptions()
    /// Whether any line failed (the exit status of a script).
    private(set) var failed = false
    /// XML being pasted over several lines, and what it gave so far.
    private var pasteReader: StanzaReader?
    private var pasted: [Element] = []
    private var pasteCount = 0

    let output: OutputSink

    init(output: OutputSink, defaultNamespace: String?) {
        self.output = output
        self.defaultNamespace = defaultNamespace
    }

    /// Whether the next line continues XML being pasted (prompt `...> `).
    var isContinuingXML: Bool { pasteReader != nil }

    var currentStanza: Element? { current.map { stanzas[$0].element } }

    static let commands: [(name: String, usage: String, help: String)] = [
        (":help", ":help", "this list"),
        (":load", ":load FILE", "load the stanzas of FILE (the last becomes current)"),
        (":list", ":list", "the loaded stanzas (* marks the current one)"),
        (":use", ":use N", "make stanza N (as :list numbers them) current"),
        (":show", ":show", "the current stanza, indented"),
        (":args", ":args [A ...]", "set (or show) the format arguments for %@, %d, ..."),
        (":output", ":output text|json", "how results are printed"),
        (":first", ":first on|off", "only the first result of each query"),
        (":default-namespace", ":default-namespace [NS]", "namespace for stanzas loaded without one (none: unset)"),
        (":explain", ":explain QUERY", "how QUERY is read"),
        (":all", ":all QUERY", "QUERY on every stanza, with file and stanza number"),
        (":quit", ":quit", "leave (Ctrl-D too)"),
    ]

    // MARK: Loading

    /// Loads the stanzas of a file (or "-"); returns false after reporting an error.
    @discardableResult
    func load(path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            fail("stanzaq: error: \(path): \(String(cString: strerror(errno)))")
            return false
        }
        defer { close(fd) }
        var loaded: [Element] = []
        let reader = StanzaReader(defaultNamespace: defaultNamespace) { loaded.append($0); return true }
        var ok = true
        do {
            try reader.read(fileDescriptor: fd)
        } catch StanzaReaderError.malformed(let line, let column, let message) {
            fail("\(path):\(line):\(column): \(message)")
            ok = false
        } catch {
            fail("stanzaq: error: \(path): \(error)")
            ok = false
        }
        add(loaded, source: path)
        return ok
    }

    private func add(_ elements: [Element], source: String) {
        let numberBase = stanzas.filter { $0.source == source }.count
        for (index, element) in elements.enumerated() {
            stanzas.append(LoadedStanza(element: element, source: source, number: numberBase + index + 1))
        }
        if !elements.isEmpty { current = stanzas.count - 1 }
    }

    // MARK: Lines

    /// Handles one line; returns false when the session should end.
    func handle(line: String) -> Bool {
        defer { output.flush() }
        if pasteReader != nil || line.first == "<" {
            continuePaste(line)
            return true
        }
        let trimmed = line.trimmingSpaces
        if trimmed.isEmpty { return true }
        if trimmed.first == ":" { return command(trimmed) }
        evaluate(trimmed, on: currentStanza.map { [($0, nil)] } ?? nil, prefixes: false)
        return true
    }

    private func continuePaste(_ line: String) {
        if pasteReader == nil {
            pasteCount += 1
            pasted = []
            pasteReader = StanzaReader(defaultNamespace: defaultNamespace) { [unowned self] in
                self.pasted.append($0)
                return true
            }
        }
        guard let reader = pasteReader else { return }
        do {
            try reader.feed(Array((line + "\n").utf8))
            // An empty line ends the paste of a stream left open.
            if reader.isBetweenDocuments || (line.trimmingSpaces.isEmpty && reader.isBetweenStanzas) {
                pasteReader = nil
                add(pasted, source: "(paste \(pasteCount))")
                if let current {
                    note("loaded \(pasted.count) stanza\(pasted.count == 1 ? "" : "s"); current: \(current + 1) <\(stanzas[current].element.qualifiedName)>")
                }
            }
        } catch {
            pasteReader = nil
            fail("(paste \(pasteCount)):\(error)")
            add(pasted, source: "(paste \(pasteCount))")
        }
    }

    /// Abandons a paste in progress (Ctrl-C).
    func cancelPaste() {
        pasteReader = nil
    }

    // MARK: Commands

    private func command(_ line: String) -> Bool {
        let name = String(line.prefix { $0 != " " })
        let rest = String(line.dropFirst(name.count)).trimmingSpaces
        switch name {
        case ":help":
            for command in Self.commands {
                say(command.usage.padding(to: 26) + command.help)
            }
            say("Any other line is a query on the current stanza; a line starting with '<' is XML to load.")
        case ":load":
            guard !rest.isEmpty else { return usage(":load FILE") }
            let before = stanzas.count
            if load(path: rest), let current {
                note("loaded \(stanzas.count - before) stanza\(stanzas.count - before == 1 ? "" : "s"); current: \(current + 1) <\(stanzas[current].element.qualifiedName)>")
            }
        case ":list":
            if stanzas.isEmpty { say("no stanzas loaded") }
            for (index, stanza) in stanzas.enumerated() {
                let mark = index == current ? "*" : " "
                let details = ["id", "from", "type"].compactMap { key in
                    stanza.element.attribute(key).map { "\(key)=\($0)" }
                }.joined(separator: " ")
                say("\(mark) \(index + 1)\t<\(stanza.element.qualifiedName)>" + (details.isEmpty ? "" : "\t" + details))
            }
        case ":use":
            guard let number = Int(rest), number >= 1, number <= stanzas.count else {
                fail("stanzaq: error: :use takes a stanza number from 1 to \(stanzas.count)")
                return true
            }
            current = number - 1
            note("current: \(number) <\(stanzas[number - 1].element.qualifiedName)>")
        case ":show":
            guard let stanza = currentStanza else { return noStanza() }
            say(XMLSerializer(options: .init(pretty: true)).string(for: stanza))
        case ":args":
            if !rest.isEmpty {
                arguments = rest.split(separator: " ").map(String.init)
                return true
            }
            say(arguments.isEmpty ? "no format arguments" : "arguments: " + arguments.map { "'\($0)'" }.joined(separator: " "))
        case ":output":
            guard let format = OutputFormat(rawValue: rest), format != .tsv else { return usage(":output text|json") }
            self.format = format
            note("output: \(format.rawValue)")
        case ":first":
            switch rest {
            case "on": firstOnly = true
            case "off": firstOnly = false
            default: return usage(":first on|off")
            }
            note("first: \(rest)")
        case ":default-namespace":
            defaultNamespace = rest.isEmpty ? nil : rest
            note(defaultNamespace.map { "default namespace for new stanzas: \($0)" } ?? "no default namespace")
        case ":explain":
            guard !rest.isEmpty else { return usage(":explain QUERY") }
            do {
                let syntax = try QuerySyntax(parsing: rest)
                if !options.extensions { try syntax.rejectExtensions() }
                say(syntax.explanation(options: options))
            } catch {
                fail("stanzaq: error: \(error)")
            }
        case ":all":
            guard !rest.isEmpty else { return usage(":all QUERY") }
            evaluate(rest, on: stanzas.map { ($0.element, $0) }, prefixes: true)
        case ":quit", ":q", ":exit":
            return false
        default:
            fail("stanzaq: error: unknown command '\(name)' (commands: \(Self.commands.map(\.name).joined(separator: " ")))")
        }
        return true
    }

    private func usage(_ text: String) -> Bool {
        fail("stanzaq: error: usage: \(text)")
        return true
    }

    private func noStanza() -> Bool {
        fail("stanzaq: error: no stanza loaded: paste XML (a line starting with '<') or :load FILE")
        return true
    }

    // MARK: Queries

    private func evaluate(_ text: String, on targets: [(Element, LoadedStanza?)]?, prefixes: Bool) {
        let query: Query
        do {
            // The session's arguments serve every query: each takes the ones it has specifiers for.
            let syntax = try QuerySyntax(parsing: text)
            query = try Query(syntax: syntax, arguments: Array(arguments.prefix(syntax.formatSpecifierCount)), options: options)
        } catch {
            fail("stanzaq: error: \(error)")
            return
        }
        guard let targets else { _ = noStanza(); return }
        let formatter = RecordFormatter(
            format: format, render: RenderOptions(), separator: [UInt8(ascii: "\n")],
            withFilename: prefixes, withStanzaNumber: prefixes, colors: nil)
        var any = false
        for (element, loaded) in targets {
            do {
                let results = firstOnly ? (try query.findFirst(in: element)).map { [$0] } ?? [] : try query.find(in: element)
                for value in results {
                    any = true
                    output.writeRecord {
                        formatter.writeRecord(file: loaded?.source ?? "", stanza: loaded?.number ?? 0, value: value, into: &$0)
                    }
                }
            } catch {
                let place = loaded.map { "\($0.source):stanza \($0.number): " } ?? ""
                fail("\(place)query '\(text)': \(error)")
            }
        }
        if !any && !prefixes { note("(no result)") }
    }

    // MARK: Messages

    /// Says something to the person (standard output).
    func say(_ text: String) {
        output.write(text + "\n")
    }

    /// A remark that is no result: on a terminal only, so scripts see results alone.
    func note(_ text: String) {
        if isatty(1) != 0 { say(text) }
    }

    func fail(_ message: String) {
        failed = true
        output.flush()
        printError(message)
    }
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
