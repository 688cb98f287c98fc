/// What one search reads: an input (a path, `-` for standard input), from its
/// start or from a place inside it (``ReadingStart``).
struct SearchedInput {
    var path: String
    /// Where reading starts, and the state the reader starts in there.
    var start = ReadingStart()
    /// For a parallel search: the piece of the input this is, whose reading it
    /// checks (``InputSearch/verdict(on:)``).
    var piece: PartOfInput?

    init(path: String) {
        self.path = path
    }

    /// The name in messages and prefixes.
    var name: String { path == "-" ? "(standard input)" : path }
}
