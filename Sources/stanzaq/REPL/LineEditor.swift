import CLibEdit
import StanzaqKit

/// Line editing, history and completion on libedit.
///
/// This uses libedit's native API (`el_gets`, `history`) rather than its
/// readline emulation: the emulation keeps its state in globals, cannot tell
/// Ctrl-C from Ctrl-D (both end `readline()` with NULL), and its completion
/// hooks differ between libedit versions. The native API gives `el_gets`'s
/// count (-1 with EINTR on Ctrl-C), a key binding for Tab, and a history
/// object we load and save ourselves. Its variadic calls go through the
/// small inline wrappers of the CLibEdit module.
final class LineEditor {
    enum Input {
        case line(String)
        /// Ctrl-C: the line was abandoned.
        case interrupted
        /// Ctrl-D on an empty line, or the end of input.
        case end
    }

    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let historyFile: HistoryFile?
    /// Shows `...> ` instead of `stanzaq> `.
    var continuation = false
    /// What the word before the cursor may become.
    var completer: (String) -> Completion = { Completion(word: $0, candidates: []) }

    init(historyPath: String?, historySize: Int32 = 1000) {
        editLine = stanzaq_el_init("stanzaq")
        history = history_init()
        historyFile = historyPath.map { HistoryFile(path: $0, size: Int(historySize)) }
        _ = stanzaq_history_set_size(history, historySize)
        for entry in historyFile?.load() ?? [] { _ = stanzaq_history_enter(history, entry) }
        _ = stanzaq_el_set_editor(editLine, "emacs")
        _ = stanzaq_el_set_history(editLine, history)
        // libedit's callbacks are C functions: they find their editor in its client data
        // (unretained: the editor outlives its EditLine, which it ends in deinit).
        _ = stanzaq_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        _ = stanzaq_el_set_prompt(editLine) { editLine in
            (LineEditor.of(editLine)?.continuation ?? false) ? continuationPrompt : primaryPrompt
        }
        _ = stanzaq_el_add_function(editLine, "stanzaq-complete", "Complete the word before the cursor") { editLine, _ in
            LineEditor.of(editLine)?.complete(editLine!) ?? UInt8(CC_ERROR)
        }
        _ = stanzaq_el_bind(editLine, "^I", "stanzaq-complete")
        _ = el_source(editLine, nil)   // the user's ~/.editrc, if any
        // Ctrl-C interrupts el_gets's read (the handler does not restart it), so the
        // REPL abandons the line instead of dying.
        Interruption.install(.session)
    }

    /// The editor of a libedit callback.
    private static func of(_ editLine: OpaquePointer?) -> LineEditor? {
        guard let editLine, let data = stanzaq_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    deinit {
        el_end(editLine)
        history_end(history)
    }

    /// Reads one line with editing; Ctrl-C gives `.interrupted`.
    func readLine() -> Input {
        Interruption.reset()
        var count: Int32 = 0
        guard let text = el_gets(editLine, &count), count > 0 else {
            if Interruption.isRequested || (count < 0 && errno == EINTR) { return .interrupted }
            return .end
        }
        var line = String(cString: text)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    /// Adds a line to the history and appends it to the history file.
    func remember(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace) else { return }
        _ = stanzaq_history_enter(history, line)
        historyFile?.append(line)
    }

    private func complete(_ editLine: OpaquePointer) -> UInt8 {
        guard let info = el_line(editLine)?.pointee else { return UInt8(CC_ERROR) }
        let length = info.cursor - info.buffer
        let before = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: length), as: UTF8.self)
        let completion = completer(before)
        if completion.candidates.isEmpty { return UInt8(CC_REFRESH_BEEP) }
        let insertion = String(completion.commonPrefix.dropFirst(completion.word.count))
        if !insertion.isEmpty {
            _ = el_insertstr(editLine, insertion)
            return UInt8(CC_REFRESH)
        }
        // Ambiguous: list the candidates under the line, then redraw it.
        printToTerminal("\n" + completion.candidates.joined(separator: "  ") + "\n")
        return UInt8(CC_REDISPLAY)
    }
}

private func printToTerminal(_ text: String) {
    stanzaq_print(text)
}

nonisolated(unsafe) private let primaryPrompt = strdup("stanzaq> ")
nonisolated(unsafe) private let continuationPrompt = strdup("...> ")
