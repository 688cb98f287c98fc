/// One REPL command: its name, what it takes, its help line and what it does —
/// the table `:help`, completion and dispatch all read (SQLite's
/// `do_meta_command`, as a table).
struct REPLCommand: Sendable {
    /// What a command's arguments are.
    enum Arguments: Sendable {
        /// None.
        case none
        /// Words, split as a shell splits them (quotes keep spaces).
        case words
        /// The rest of the line as it is: a query, whose quotes are its own.
        case text
    }

    /// What Tab offers after the command.
    enum CompletionKind: Sendable {
        case nothing, files, query
        case choices([String])
    }

    let name: String
    var aliases: [String] = []
    let arguments: Arguments
    /// The usage line, e.g. `:load FILE`.
    let usage: String
    let help: String
    var completion: CompletionKind = .nothing
    /// Runs the command; returns false when the session ends.
    let action: @Sendable (REPLSession, REPLArguments) throws(OutputError) -> Bool
}

/// What follows a command's name.
struct REPLArguments {
    /// Split as a shell splits words (``REPLCommand/Arguments/words``).
    var words: [String] = []
    /// The rest of the line, without surrounding spaces (``REPLCommand/Arguments/text``).
    var text = ""
}

/// Splits `line` into words as a POSIX shell does, without expansions: spaces
/// separate words; `'…'` keeps everything; `"…"` keeps everything but `\"` and `\\`;
/// a backslash elsewhere keeps the next character. Throws on an unclosed quote.
func shellWords(_ line: String) throws(Diagnostic) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var iterator = line.makeIterator()
    while let character = iterator.next() {
        switch character {
        case " ", "\t":
            if inWord { words.append(word); word = ""; inWord = false }
        case "'":
            inWord = true
            while true {
                guard let next = iterator.next() else { throw Diagnostic("unclosed ' in: \(line)") }
                if next == "'" { break }
                word.append(next)
            }
        case "\"":
            inWord = true
            while true {
                guard var next = iterator.next() else { throw Diagnostic("unclosed \" in: \(line)") }
                if next == "\"" { break }
                if next == "\\", let escaped = iterator.next() {
                    if escaped != "\"" && escaped != "\\" { word.append("\\") }
                    next = escaped
                }
                word.append(next)
            }
        case "\\":
            inWord = true
            if let next = iterator.next() { word.append(next) }
        default:
            inWord = true
            word.append(character)
        }
    }
    if inWord { words.append(word) }
    return words
}
