#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Lines as the REPL takes them: commands, queries, pasted XML, and scripts.
extension REPLSession {

    /// Handles one line; returns false when the session should end.
    public func handle(line: String) throws(OutputError) -> Bool {
        let goesOn = try dispatch(line)
        try output.flush()
        return goesOn
    }

    func dispatch(_ line: String) throws(OutputError) -> Bool {
        if pasteReader != nil || line.first == "<" {
            try continuePaste(line)
            return true
        }
        let trimmed = line.trimmingSpaces
        if trimmed.isEmpty { return true }
        if trimmed.first == ":" { return try command(trimmed) }
        try evaluate(trimmed, all: false)
        return true
    }

    /// The end of the input: a paste left open is an error.
    public func finish() throws(OutputError) {
        if let reader = pasteReader {
            pasteReader = nil
            do {
                try reader.finish()
            } catch {
                try fail(.reading("(paste \(pasteCount))", error))
            }
        }
        try output.flush()
    }

    func continuePaste(_ line: String) throws(OutputError) {
        if pasteReader == nil {
            pasteCount += 1
            pasted = []
            pasteReader = StanzaReader(defaultNamespace: defaultNamespace) { [unowned self] in
                self.pasted.append($0)
                return true
            }
        }
        guard let reader = pasteReader else { return }
        let source = "(paste \(pasteCount))"
        do {
            try reader.feed(Array((line + "\n").utf8))
        } catch {
            pasteReader = nil
            try fail(.reading(source, error))
            add(pasted, source: source)
            return
        }
        // An empty line ends the paste of a stream left open.
        if reader.isBetweenDocuments || (line.trimmingSpaces.isEmpty && reader.isBetweenStanzas) {
            pasteReader = nil
            add(pasted, source: source)
            if let current { try noteLoaded(pasted.count, current: current) }
        }
    }

    /// The end of a paste (stanzaq(1), REPL): XML it left open ends with it, so
    /// that a pasted block and the next line typed are two inputs. A stream left
    /// open between stanzas ends as an empty line ends it; XML cut inside a stanza
    /// is an error, as at the end of the input, and the stanzas before it load.
    public func endPaste() throws(OutputError) {
        guard let reader = pasteReader else { return }
        pasteReader = nil
        let source = "(paste \(pasteCount))"
        if !reader.isBetweenStanzas {
            do {
                try reader.finish()
            } catch {
                try fail(.reading(source, error))
            }
        }
        add(pasted, source: source)
        if !pasted.isEmpty, let current { try noteLoaded(pasted.count, current: current) }
        try output.flush()
    }

    /// Abandons a paste in progress (Ctrl-C).
    public func cancelPaste() {
        pasteReader = nil
    }

    func command(_ line: String) throws(OutputError) -> Bool {
        let name = String(line.prefix { $0 != " " && $0 != "\t" })
        let rest = String(line.dropFirst(name.count)).trimmingSpaces
        guard let command = Self.command(named: name) else {
            let names = Self.commands.map(\.name).joined(separator: " ")
            try fail(Diagnostic("unknown command '\(name)' (commands: \(names))"))
            return true
        }
        var arguments = REPLArguments()
        switch command.arguments {
        case .none:
            break
        case .words:
            do {
                let words = try shellWordsMarkingTildes(rest)
                arguments.words = words.map(\.word)
                arguments.tildes = words.map(\.tilde)
            } catch {
                try fail(error)
                return true
            }
        case .text:
            arguments.text = rest
        }
        return try command.action(self, arguments)
    }

    func usage(_ text: String) throws(OutputError) -> Bool {
        try fail(Diagnostic("usage: \(text)"))
        return true
    }

    func noStanza() throws(OutputError) -> Bool {
        try fail(Diagnostic("no stanza loaded: paste XML (a line starting with '<') or :load FILE"))
        return true
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

extension REPLSession {
    /// Runs a script: every line of `fileDescriptor` (the REPL without a terminal),
    /// then ``finish()``.
    public func run(script fileDescriptor: Int32) throws(OutputError) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        while !ended {
            let count = buffer.withUnsafeMutableBytes { systemRead(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = true
                if pending.isEmpty { break }
                pending.append(UInt8(ascii: "\n"))
            } else {
                pending.append(contentsOf: buffer[..<count])
            }
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start && pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = FileNames.decode(pending[start..<end])   // a :load name may not be UTF-8
                start = newline + 1
                if try !handle(line: line) {
                    try finish()
                    return
                }
            }
            pending.removeFirst(start)
        }
        try finish()
    }
}
