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
    /// For each word, whether it starts with a `~` no quote or backslash protects.
    var tildes: [Bool] = []

    /// Word `index`, a file name: a leading unprotected `~` is expanded.
    func path(_ index: Int, environment: (String) -> String?) -> String {
        tildes[index] ? expandingTilde(words[index], environment: environment) : words[index]
    }
    /// The rest of the line, without surrounding spaces (``REPLCommand/Arguments/text``).
    var text = ""
}

/// Splits `line` into words as a POSIX shell does, without expansions: spaces
/// separate words; `'…'` keeps everything; `"…"` keeps everything but `\"` and `\\`;
/// a backslash elsewhere keeps the next character. Throws on an unclosed quote.
func shellWords(_ line: String) throws(Diagnostic) -> [String] {
    try shellWordsMarkingTildes(line).map(\.word)
}

/// ``shellWords(_:)``, each word with whether it starts with a `~` left unquoted.
func shellWordsMarkingTildes(_ line: String) throws(Diagnostic) -> [(word: String, tilde: Bool)] {
    var words: [(word: String, tilde: Bool)] = []
    var word = ""
    var inWord = false
    var tilde = false
    var iterator = line.makeIterator()
    while let character = iterator.next() {
        if !inWord { tilde = character == "~" }
        switch character {
        case " ", "\t":
            if inWord { words.append((word, tilde)); word = ""; inWord = false }
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
    if inWord { words.append((word, tilde)) }
    return words
}

/// `path` with a leading `~` (the home directory, `$HOME`) or `~user` (that user's,
/// from the password database) expanded, as a shell expands it; otherwise as it is.
func expandingTilde(_ path: String, environment: (String) -> String?) -> String {
    guard path.first == "~" else { return path }
    let slash = path.firstIndex(of: "/") ?? path.endIndex
    let user = String(path[path.index(after: path.startIndex)..<slash])
    let home: String?
    if user.isEmpty {
        home = environment("HOME") ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) }
    } else {
        home = getpwnam(user).map { String(cString: $0.pointee.pw_dir) }
    }
    guard let home else { return path }
    return home + path[slash...]
}
