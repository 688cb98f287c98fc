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
        /// `endsPaste`: the line is the last of a paste (``readLine()``).
        case line(String, endsPaste: Bool)
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
    /// The lines of a multi-line paste still to be returned, one per ``readLine()``.
    private var pastedLines: [String] = []
    /// Whether the terminal is asked to mark pastes (bracketed paste: `ESC [200~` … `ESC [201~`).
    private let bracketsPastes: Bool
    /// Whether the line being read was ended by a bracketed paste.
    private var lineEndedByPaste = false
    /// Whether the last line returned was followed by more input already waiting:
    /// a paste on a terminal without bracketed paste, still arriving.
    private var inBurst = false

    init(historyPath: String?, historySize: Int32 = 1000, terminal: String?) {
        bracketsPastes = !(terminal ?? "dumb").isEmpty && terminal != "dumb"
        editLine = stanzaq_el_init("stanzaq")
        history = stanzaq_history_init()
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
        _ = stanzaq_el_set_getcfn(editLine) { editLine, character in
            LineEditor.of(editLine)?.readCharacter(into: character!) ?? -1
        }
        _ = stanzaq_el_add_function(editLine, "stanzaq-paste", "Insert a bracketed paste as text") { editLine, _ in
            LineEditor.of(editLine)?.paste(editLine!) ?? UInt8(CC_ERROR)
        }
        _ = stanzaq_el_bind(editLine, "\\e[200~", "stanzaq-paste")
        _ = stanzaq_el_source(editLine, nil)   // the user's ~/.editrc, if any
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
        stanzaq_el_end(editLine)
        stanzaq_history_end(history)
    }

    /// Reads one line with editing; Ctrl-C gives `.interrupted`. The line may hold
    /// newlines when it was recalled from a multi-line history entry.
    ///
    /// After a paste of several lines, the lines after the first are returned by the
    /// next calls, each shown behind its prompt as if it had been typed (a Ctrl-C
    /// meanwhile drops them). The last line of a paste says so (`endsPaste`), so that
    /// the next line typed is never taken as more of it: a bracketed paste's last
    /// line, or, without bracketed paste, the line after which no more input waits
    /// when the lines before it came with more waiting (faster than anyone types).
    func readLine() -> Input {
        if !pastedLines.isEmpty {
            if Interruption.isRequested {
                pastedLines = []
                Interruption.reset()
                return .interrupted
            }
            let line = pastedLines.removeFirst()
            printToTerminal(prompt + line + "\n")
            return .line(line, endsPaste: pastedLines.isEmpty)
        }
        Interruption.reset()
        if bracketsPastes { printToTerminal("\u{1B}[?2004h") }
        defer { if bracketsPastes { printToTerminal("\u{1B}[?2004l") } }
        var count: Int32 = 0
        let text = stanzaq_el_gets(editLine, &count)
        if Interruption.isRequested {
            pastedLines = []
            return .interrupted
        }
        guard let text, count > 0 else {
            pastedLines = []
            return count < 0 && errno == EINTR ? .interrupted : .end
        }
        var line = FileNames.decode(UnsafeRawBufferPointer(start: text, count: strlen(text)))   // a :load name may not be UTF-8
        if line.hasSuffix("\n") { line.removeLast() }
        if lineEndedByPaste {
            lineEndedByPaste = false
            inBurst = false
            return .line(line, endsPaste: pastedLines.isEmpty)
        }
        // Within a burst, a moment's gap is still the same paste (it may arrive in pieces).
        let waiting = inputIsWaiting(milliseconds: inBurst ? 20 : 0)
        defer { inBurst = waiting }
        return .line(line, endsPaste: inBurst && !waiting)
    }

    /// libedit's character reader: one character from the terminal (UTF-8), or -1 with
    /// EINTR as soon as Ctrl-C is pressed. libedit's own reader misses a Ctrl-C that
    /// comes between two of its reads (it then waits for the next key); this one
    /// waits on the terminal and on ``Interruption/wakeDescriptor`` together.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        var bytes: [UInt8] = []
        while true {
            if Interruption.isRequested {
                errno = EINTR
                return -1
            }
            var pollers = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: Interruption.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            if poll(&pollers, 2, -1) < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if pollers[1].revents != 0 { Interruption.drainWake() }
            guard pollers[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            let count = read(0, &byte, 1)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count < 0 { return -1 }
            if count == 0 { return 0 }
            bytes.append(byte)
            // A UTF-8 sequence is as long as its first byte says.
            let first = bytes[0]
            let length = first < 0xC0 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
            if bytes.count > 1 && byte & 0xC0 != 0x80 { bytes = [byte] }   // a broken sequence: start again
            guard bytes.count >= length || first < 0x80 else { continue }
            let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
            character.pointee = wchar_t(bitPattern: scalar.value)
            return 1
        }
    }

    private var prompt: String { continuation ? "...> " : "stanzaq> " }

    /// The rest of the input, when it is already waiting: a Tab in it was pasted (a
    /// terminal without bracketed paste delivers a paste faster than anyone types).
    private var inputIsWaiting: Bool { inputIsWaiting(milliseconds: 0) }

    /// Whether input is waiting, or arrives within `milliseconds`.
    private func inputIsWaiting(milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0 && poller.revents & Int16(POLLIN) != 0
    }

    /// `ESC [200~` was read: reads the pasted text up to `ESC [201~` and inserts it
    /// as it is (a Tab is a tab, not completion). A paste of several lines ends the
    /// line being edited with its first line; ``readLine()`` returns the others.
    private func paste(_ editLine: OpaquePointer) -> UInt8 {
        let end: [Unicode.Scalar] = ["\u{1B}", "[", "2", "0", "1", "~"]
        var scalars: [Unicode.Scalar] = []
        var character: wchar_t = 0
        while stanzaq_el_wgetc(editLine, &character) > 0 {
            scalars.append(Unicode.Scalar(UInt32(bitPattern: character)) ?? "\u{FFFD}")
            if scalars.count >= end.count && Array(scalars.suffix(end.count)) == end {
                scalars.removeLast(end.count)
                break
            }
        }
        // Terminals send a pasted line end as CR (sometimes CR LF).
        var normalized = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() where !(scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n") {
            normalized.append(scalar == "\r" ? "\n" : scalar)
        }
        let text = String(normalized)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count > 1 else {
            insert(text)
            return UInt8(CC_REFRESH)
        }
        // What followed the cursor goes after the pasted text.
        var after = ""
        if let info = stanzaq_el_wline(editLine)?.pointee {
            let count = info.lastchar - info.cursor
            after = String(String.UnicodeScalarView(UnsafeBufferPointer(start: info.cursor, count: count).map {
                Unicode.Scalar(UInt32(bitPattern: $0)) ?? "\u{FFFD}"
            }))
            if count > 0 {
                _ = stanzaq_el_cursor(editLine, Int32(count))
                stanzaq_el_deletestr(editLine, Int32(count))
            }
        }
        if lines.last == "" && after.isEmpty { lines.removeLast() } else { lines[lines.count - 1] += after }
        let first = lines.removeFirst()
        insert(first)
        pastedLines = lines
        // The line ends here, without ed-newline's redraw and line feed: it is
        // redrawn whole (from the start of the line, clearing what was after it).
        var shown = ""
        if let info = stanzaq_el_line(editLine)?.pointee {
            shown = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: info.lastchar - info.buffer), as: UTF8.self)
        }
        printToTerminal("\r" + prompt + shown + "\u{1B}[K\n")
        lineEndedByPaste = true
        return UInt8(CC_NEWLINE)
    }

    /// Inserts `text` at the cursor, as text.
    private func insert(_ text: String) {
        var wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        wide.append(0)
        _ = stanzaq_el_winsertstr(editLine, wide)
    }

    /// Adds a line to the history and appends it to the history file.
    func remember(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace) else { return }
        _ = stanzaq_history_enter(history, line)
        historyFile?.append(line)
    }

    private func complete(_ editLine: OpaquePointer) -> UInt8 {
        guard let info = stanzaq_el_line(editLine)?.pointee else { return UInt8(CC_ERROR) }
        if inputIsWaiting {
            insert("\t")
            return UInt8(CC_REFRESH)
        }
        let length = info.cursor - info.buffer
        let before = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: length), as: UTF8.self)
        let completion = completer(before)
        if completion.candidates.isEmpty { return UInt8(CC_REFRESH_BEEP) }
        let insertion = String(completion.commonPrefix.dropFirst(completion.word.count))
        if !insertion.isEmpty {
            _ = stanzaq_el_insertstr(editLine, insertion)
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
