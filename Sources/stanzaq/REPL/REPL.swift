import StanzaQuery
import StanzaqKit

/// Runs the REPL on the files' stanzas; returns the exit status.
///
/// On a terminal: a banner, prompts, libedit line editing, history and
/// completion; Ctrl-D exits 0. Otherwise lines are read plainly, one command
/// or query each, and the status is 2 if any failed.
func runREPL(files: [String], arguments: [String], defaultNamespace: String?, firstOnly: Bool, format: OutputFormat,
             options: QueryOptions, in environment: CommandEnvironment) -> Int32 {
    let session = REPLSession(output: environment.output, diagnostics: environment.diagnostics,
                              isTerminal: environment.stdoutIsTerminal, defaultNamespace: defaultNamespace)
    session.options = options
    session.directory = environment.directory
    session.arguments = arguments
    session.firstOnly = firstOnly
    session.format = format == .json ? .json : .text
    do {
        for file in files { try session.load(path: file) }
        guard environment.stdinIsTerminal else {
            try session.run(script: environment.standardInput)
            return session.failed ? 2 : 0
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
    try session.say("stanzaq \(StanzaqCommand.version): \(session.summary). Type :help for help, Ctrl-D to quit.")
    try session.output.flush()
    let editor = LineEditor(historyPath: historyPath())
    editor.completer = { Completion.complete($0, stanza: session.currentStanza) }
    while true {
        editor.continuation = session.isContinuingXML
        switch editor.readLine() {
        case .line(let line):
            // Pasted XML is not history: it may hold credentials (an <auth>), and
            // recalling one line of a stanza is of no use.
            if !editor.continuation && line.first != "<" { editor.remember(line) }
            if try !session.handle(line: line) { return }
        case .interrupted:
            session.cancelPaste()
            try session.say("")
            try session.output.flush()
        case .end:
            try session.say("")
            try session.output.flush()
            return
        }
    }
}

/// The history file's path (``HistoryFile/path(environment:)``).
private func historyPath() -> String? {
    HistoryFile.path { name in getenv(name).map { String(cString: $0) } }
}
