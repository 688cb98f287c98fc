import StanzaQuery
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the REPL on the files' stanzas; returns the exit status.
///
/// On a terminal: a banner, prompts, libedit line editing, history and
/// completion; Ctrl-D exits 0. Otherwise lines are read plainly, one command
/// or query each, and the status is 2 if any failed.
func runREPL(files: [String], arguments: [String], defaultNamespace: String?, firstOnly: Bool, format: OutputFormat,
             options: QueryOptions) -> Int32 {
    let output = OutputSink(fileDescriptor: 1)
    let session = REPLSession(output: output, defaultNamespace: defaultNamespace)
    session.options = options
    session.arguments = arguments
    session.firstOnly = firstOnly
    session.format = format == .json ? .json : .text
    for file in files { session.load(path: file) }

    guard isatty(0) != 0 else {
        while let line = readLine(strippingNewline: true) {
            if !session.handle(line: line) { break }
        }
        if session.isContinuingXML { session.fail("(paste): unexpected end of input inside the pasted XML") }
        output.flush()
        return session.failed ? 2 : 0
    }

    setlocale(LC_CTYPE, "")   // libedit needs the terminal's character set; numbers stay in the C locale
    let count = session.stanzas.count
    let current = session.currentStanza.map { ", current: \(count) <\($0.qualifiedName)>" } ?? ""
    session.say("stanzaq \(StanzaqCommand.version): \(count) stanza\(count == 1 ? "" : "s") loaded\(current). Type :help for help, Ctrl-D to quit.")
    output.flush()
    let editor = LineEditor(historyPath: historyPath())
    editor.completer = { Completion.complete($0, stanza: session.currentStanza) }
    loop: while true {
        editor.continuation = session.isContinuingXML
        switch editor.readLine() {
        case .line(let line):
            editor.remember(line)
            if !session.handle(line: line) { break loop }
        case .interrupted:
            session.cancelPaste()
            session.say("")
            output.flush()
        case .end:
            session.say("")
            output.flush()
            break loop
        }
    }
    output.flush()
    return 0
}

/// `$XDG_STATE_HOME/stanzaq/history`, else `~/.local/state/stanzaq/history`;
/// the folder is created when missing. `nil` if neither variable is set.
private func historyPath() -> String? {
    let base: String
    if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), !state.isEmpty {
        base = state
    } else if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty {
        base = home + "/.local/state"
    } else {
        return nil
    }
    var path = ""
    for component in (base + "/stanzaq").split(separator: "/") {
        path += "/" + component
        mkdir(path, 0o700)
    }
    return path + "/history"
}
