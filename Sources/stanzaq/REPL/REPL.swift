import CLibEdit
import StanzaQuery
import StanzaqKit

/// Runs the REPL on the files' stanzas; returns the exit status.
///
/// On a terminal: a banner, prompts, libedit line editing, history and
/// completion; Ctrl-D exits 0. Otherwise lines are read plainly, one command
/// or query each, and the status is 2 if any failed.
func runREPL(files: [String], arguments: [String], defaultNamespace: String?, firstOnly: Bool, format: OutputFormat,
             render: RenderOptions, options: QueryOptions, input: InputKind?, direction: LogDirection?,
             fields: [LogFieldName]?, merge: Bool, timeZone: TimeZoneChoice, in environment: CommandEnvironment) -> Int32 {
    let session = REPLSession(output: environment.output, diagnostics: environment.diagnostics,
                              isTerminal: environment.stdoutIsTerminal, defaultNamespace: defaultNamespace)
    session.options = options
    session.directory = environment.directory
    session.arguments = arguments
    session.firstOnly = firstOnly
    session.format = format
    session.render = render
    session.input = input
    session.direction = direction
    session.fields = fields
    session.timeZone = timeZone
    do {
        if merge {
            try session.load(merging: files)
        } else {
            for file in files { try session.load(path: file) }
        }
        guard environment.stdinIsTerminal else {
            try session.run(script: environment.standardInput)
            return session.failed ? 2 : 0
        }
        if let error = stanzaq_edit_load_error() {
            // (Loaded only now: a search never edits a line. A package depends on it.)
            environment.diagnostics.report(Diagnostic("the REPL's line editor needs libedit: \(String(cString: error))"))
            return 2
        }
        try runOnTerminal(session)
        return 0
    } catch OutputError.brokenPipe {
        return 0
    } catch {
        environment.diagnostics.report(error.diagnostic)
        return 2
    }
}

private func runOnTerminal(_ session: REPLSession) throws(OutputError) {
    setlocale(LC_CTYPE, "")   // libedit needs the terminal's character set; numbers stay in the C locale
    // Results are written out stanza by stanza, so that Ctrl-C stops a long :all at once.
    session.output.lineBuffered = true
    try session.say("stanzaq \(StanzaqCommand.version): \(session.summary). Type :help for help, Ctrl-D to quit.")
    try session.output.flush()
    let editor = LineEditor(historyPath: historyPath(), terminal: getenv("TERM").map { String(cString: $0) })
    editor.completer = { session.complete($0) }
    // The lines of the XML being entered: one history entry when it is complete.
    var xml: [String] = []
    while true {
        editor.continuation = session.isContinuingXML
        switch editor.readLine() {
        case .line(let text, let endsPaste):
            // A multi-line history entry comes back as one text.
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if session.isContinuingXML || line.first == "<" {
                    xml.append(line)
                } else {
                    editor.remember(line)
                }
                if try !session.handle(line: line) { return }
                if !xml.isEmpty && !session.isContinuingXML {
                    rememberXML(xml, in: editor)
                    xml = []
                }
            }
            // XML a paste left open ends with it: the next line typed is an input of its own.
            if endsPaste && session.isContinuingXML {
                try session.endPaste()
                rememberXML(xml, in: editor)
                xml = []
            }
        case .interrupted:
            session.cancelPaste()
            xml = []
            try session.say("")
            try session.output.flush()
        case .end:
            try session.say("")
            try session.output.flush()
            return
        }
    }
}

/// XML entered or pasted is one history entry per stanza (or stream) however many
/// lines it took, except a SASL exchange, whose <auth> and <response> carry
/// credentials.
private func rememberXML(_ lines: [String], in editor: LineEditor) {
    let text = lines.joined(separator: "\n")
    guard !text.contains("urn:ietf:params:xml:ns:xmpp-sasl") else { return }
    editor.remember(text)
}

/// The history file's path (``HistoryFile/path(environment:)``).
private func historyPath() -> String? {
    HistoryFile.path { name in getenv(name).map { String(cString: $0) } }
}
