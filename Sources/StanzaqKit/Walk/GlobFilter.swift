/// The `-g GLOB` filters of a recursive search (stanzaq(1), `-g`), as ripgrep
/// reads them: gitignore-style globs, `!GLOB` excluding; when several match a
/// path, the one given last decides; once one glob includes, a file that no glob
/// matches is left out (a directory is still entered).
///
/// They filter what the walk finds inside directories, never an operand named on
/// the command line.
public struct GlobFilter: Sendable {
    struct Rule: Sendable {
        var glob: Glob
        var excludes: Bool
        /// Written with a trailing `/`: matches directories only.
        var directoriesOnly: Bool
        /// Written without a `/` (but a trailing one): matches the name at any depth.
        var matchesName: Bool
    }

    private var rules: [Rule] = []
    private var includes: Bool { rules.contains { !$0.excludes } }

    /// No filter: everything is searched.
    public init() {}

    /// The filters, in the order given; throws a message for a glob that cannot be read.
    public init(_ globs: [String]) throws(GlobError) {
        for text in globs {
            var pattern = Substring(text)
            let excludes = pattern.hasPrefix("!")
            if excludes { pattern = pattern.dropFirst() }
            let directoriesOnly = pattern.count > 1 && pattern.hasSuffix("/")
            if directoriesOnly { pattern = pattern.dropLast() }
            let matchesName = !pattern.contains("/")
            if pattern.hasPrefix("/") { pattern = pattern.dropFirst() }
            guard !pattern.isEmpty else { throw GlobError(glob: text, reason: "it is empty") }
            rules.append(Rule(glob: try Glob(String(pattern), original: text), excludes: excludes,
                              directoriesOnly: directoriesOnly, matchesName: matchesName))
        }
    }

    /// Whether no glob was given.
    public var isEmpty: Bool { rules.isEmpty }

    /// Whether the walk takes the file or directory at `path`, relative to the
    /// directory given on the command line (`sub/a.xml`).
    public func admits(_ path: String, isDirectory: Bool) -> Bool {
        let scalars = Array(path.unicodeScalars)
        let name = scalars.lastIndex(of: "/").map { Array(scalars[($0 + 1)...]) } ?? scalars
        for rule in rules.reversed() {
            if rule.directoriesOnly && !isDirectory { continue }
            if rule.glob.matches(rule.matchesName ? name : scalars) { return !rule.excludes }
        }
        return isDirectory || !includes
    }
}

/// A glob that cannot be read (an unclosed `[` or `{`).
public struct GlobError: Error, Equatable, CustomStringConvertible {
    public var glob: String
    public var reason: String
    public var description: String { "-g '\(glob)': \(reason)" }
}

/// One glob: `*` and `?` (never across `/`), `[abc]`, `[a-z]`, `[!a]`, `**` (any
/// number of directories), `{a,b}` (either), `\x` (the character x).
struct Glob: Sendable {
    enum Token: Equatable, Sendable {
        case literal(Unicode.Scalar)
        case any
        case star
        /// `**`: anything, `/` included; `**/`: nothing, or anything ending with `/`.
        case anyDepth(slash: Bool)
        case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    }

    /// The alternatives `{a,b}` expanded: the glob matches if one does.
    private var alternatives: [[Token]] = []

    init(_ text: String, original: String) throws(GlobError) {
        for expanded in try Self.expandBraces(Array(text.unicodeScalars), original: original) {
            alternatives.append(try Self.tokens(expanded, original: original))
        }
    }

    func matches(_ path: [Unicode.Scalar]) -> Bool {
        alternatives.contains { Self.match($0, path) }
    }

    private static func expandBraces(_ text: [Unicode.Scalar], original: String) throws(GlobError) -> [[Unicode.Scalar]] {
        var index = 0
        while index < text.count {
            if text[index] == "\\" { index += 2; continue }
            if text[index] == "{" { break }
            index += 1
        }
        guard index < text.count else { return [text] }
        // The matching '}', and the top-level commas between.
        var depth = 0
        var cuts: [Int] = [index]
        var end: Int?
        var scan = index + 1
        while scan < text.count {
            switch text[scan] {
            case "\\": scan += 1
            case "{": depth += 1
            case "}" where depth == 0: end = scan
            case "}": depth -= 1
            case "," where depth == 0: cuts.append(scan)
            default: break
            }
            if end != nil { break }
            scan += 1
        }
        guard let end else { throw GlobError(glob: original, reason: "'{' is not closed") }
        cuts.append(end)
        let prefix = Array(text[..<index])
        let suffixes = try expandBraces(Array(text[(end + 1)...]), original: original)
        var result: [[Unicode.Scalar]] = []
        for part in 0..<(cuts.count - 1) {
            for middle in try expandBraces(Array(text[(cuts[part] + 1)..<cuts[part + 1]]), original: original) {
                for suffix in suffixes { result.append(prefix + middle + suffix) }
            }
        }
        return result
    }

    private static func tokens(_ text: [Unicode.Scalar], original: String) throws(GlobError) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < text.count {
            let scalar = text[index]
            switch scalar {
            case "\\" where index + 1 < text.count:
                tokens.append(.literal(text[index + 1]))
                index += 2
                continue
            case "?":
                tokens.append(.any)
            case "*":
                let atSegmentStart = index == 0 || text[index - 1] == "/"
                if index + 1 < text.count, text[index + 1] == "*", atSegmentStart,
                   index + 2 == text.count || text[index + 2] == "/" {
                    let slash = index + 2 < text.count
                    tokens.append(.anyDepth(slash: slash))
                    index += slash ? 3 : 2
                    continue
                }
                if tokens.last != .star { tokens.append(.star) }
            case "[":
                var scan = index + 1
                var negated = false
                if scan < text.count, text[scan] == "!" || text[scan] == "^" { negated = true; scan += 1 }
                var ranges: [ClosedRange<Unicode.Scalar>] = []
                var first = true
                while scan < text.count, text[scan] != "]" || first {
                    first = false
                    var low = text[scan]
                    if low == "\\", scan + 1 < text.count { scan += 1; low = text[scan] }
                    if scan + 2 < text.count, text[scan + 1] == "-", text[scan + 2] != "]" {
                        let high = text[scan + 2]
                        guard low <= high else { throw GlobError(glob: original, reason: "the range \(low)-\(high) is reversed") }
                        ranges.append(low...high)
                        scan += 3
                    } else {
                        ranges.append(low...low)
                        scan += 1
                    }
                }
                guard scan < text.count else { throw GlobError(glob: original, reason: "'[' is not closed") }
                tokens.append(.set(ranges, negated: negated))
                index = scan
            default:
                tokens.append(.literal(scalar))
            }
            index += 1
        }
        return tokens
    }

    /// Matching by dynamic programming over (token, position): linear in the
    /// product of the lengths, however many stars.
    private static func match(_ tokens: [Token], _ path: [Unicode.Scalar]) -> Bool {
        // matched[p]: the tokens so far can match path[..<p].
        var matched = [Bool](repeating: false, count: path.count + 1)
        matched[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: path.count + 1)
            switch token {
            case .star:
                var reach = false
                for position in 0...path.count {
                    if matched[position] { reach = true }
                    if reach { next[position] = true }
                    if position < path.count, path[position] == "/" { reach = false }
                }
            case .anyDepth(let slash):
                var reach = false
                for position in 0...path.count {
                    if matched[position] { reach = true; if slash { next[position] = true } }
                    if reach && (!slash || (position > 0 && path[position - 1] == "/")) { next[position] = true }
                }
            default:
                for position in 0..<path.count where matched[position] && matchesOne(token, path[position]) {
                    next[position + 1] = true
                }
            }
            matched = next
        }
        return matched[path.count]
    }

    private static func matchesOne(_ token: Token, _ scalar: Unicode.Scalar) -> Bool {
        switch token {
        case .literal(let literal): return literal == scalar
        case .any: return scalar != "/"
        case .set(let ranges, let negated): return scalar != "/" && ranges.contains { $0.contains(scalar) } != negated
        case .star, .anyDepth: return false
        }
    }
}
