#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// One message for standard error, in one of the shapes stanzaq(1), DIAGNOSTICS
/// describes: where the trouble is, then what it is.
///
/// - `stanzaq: error: MESSAGE` — the command line, a query, or an input as a whole
///   (`stanzaq: error: FILE: MESSAGE`);
/// - `FILE:LINE:COL: MESSAGE` — a place in an input that is not well-formed;
/// - `FILE:stanza N: MESSAGE` — a query that failed on one stanza.
public struct Diagnostic: Error, Equatable, CustomStringConvertible {
    public enum Location: Equatable, Sendable {
        /// The program: the command line, a query, an interactive command.
        case program
        /// An input as a whole (it cannot be opened or read).
        case input(String)
        /// A position in an input (1-based line and column).
        case position(file: String, line: Int, column: Int)
        /// One stanza of an input (numbered from 1).
        case stanza(file: String, number: Int)
    }

    /// An error counts against the exit status; a warning only informs.
    public enum Severity: Equatable, Sendable { case error, warning }

    public var location: Location
    public var message: String
    public var severity: Severity = .error

    /// A diagnostic about the program as a whole (`stanzaq: error: MESSAGE`).
    public init(_ message: String) {
        self.init(.program, message)
    }

    public init(_ location: Location, _ message: String) {
        self.location = location
        self.message = message
    }

    /// The line as printed (without its newline). Whatever a file name or a quoted
    /// value holds, no message can forge another or drive the terminal: control
    /// characters are escaped (`escapingControlCharacters`), and a newline is kept
    /// only where a message goes on in an indented line (a query under its error,
    /// a hint), which cannot be mistaken for the start of a message.
    public var description: String {
        let shownMessage = message.split(separator: "\n  ", omittingEmptySubsequences: false)
            .map { String($0).escapingControlCharacters }.joined(separator: "\n  ")
        switch location {
        case .program: return "stanzaq: \(severity == .error ? "error" : "warning"): \(shownMessage)"
        case .input(let file): return "stanzaq: error: \(file.shownFileName.escapingControlCharacters): \(shownMessage)"
        case .position(let file, let line, let column):
            return "\(file.shownFileName.escapingControlCharacters):\(line):\(column): \(shownMessage)"
        case .stanza(let file, let number): return "\(file.shownFileName.escapingControlCharacters):stanza \(number): \(shownMessage)"
        }
    }

    /// What went wrong reading `file`: a position when the XML is malformed.
    public static func reading(_ file: String, _ error: any Error) -> Diagnostic {
        if case StanzaReaderError.malformed(let line, let column, let message) = error {
            return Diagnostic(.position(file: file, line: line, column: column), message)
        }
        if case StanzaReaderError.io(errno: EISDIR) = error {
            // A directory operand without -r (with it, directories are walked).
            return Diagnostic(.input(file), "\(error) (-r searches the files under it)")
        }
        return Diagnostic(.input(file), "\(error)")
    }

    /// A remark on the run that is no error (`stanzaq: warning: MESSAGE`).
    public static func warning(_ message: String) -> Diagnostic {
        var diagnostic = Diagnostic(message)
        diagnostic.severity = .warning
        return diagnostic
    }

    /// A file that cannot be opened.
    public static func opening(_ file: String, errno code: Int32) -> Diagnostic {
        Diagnostic(.input(file), errorMessage(code))
    }

    /// A query that failed on one stanza.
    /// An error of `query` on stanza `stanza` of `file`; on a stanza of no input
    /// (the REPL's current stanza: `file` empty, `stanza` 0), with no place.
    public static func evaluating(_ query: Query, file: String, stanza: Int, _ error: any Error) -> Diagnostic {
        let message = "query '\(query.text)': \(error)"
        if file.isEmpty && stanza == 0 { return Diagnostic(message) }
        return Diagnostic(.stanza(file: file, number: stanza), message)
    }
}

/// Where diagnostics go: standard error (each line written at once), or memory
/// for tests.
public final class Diagnostics {
    private let fileDescriptor: Int32?
    /// Where a piece of a parallel search keeps its lines.
    private let transcript: Transcript?
    /// Every line reported so far, when kept in memory.
    public private(set) var lines: [String] = []
    /// Diagnostics written to `fileDescriptor` (standard error by default).
    public init(fileDescriptor: Int32 = 2) {
        self.fileDescriptor = fileDescriptor
        transcript = nil
    }

    private init() {
        fileDescriptor = nil
        transcript = nil
    }

    /// Diagnostics kept in `transcript`, in order with the output there.
    init(transcript: Transcript) {
        fileDescriptor = nil
        self.transcript = transcript
    }

    /// Diagnostics kept in ``lines``.
    public static func inMemory() -> Diagnostics { Diagnostics() }

    /// The lines reported, each with its newline, as standard error would hold them.
    public var text: String { lines.map { $0 + "\n" }.joined() }

    public func report(_ diagnostic: Diagnostic) {
        write(diagnostic.description)
    }

    /// A warning said once per input whatever the threads: `key` names it (the
    /// input and what is said of it). The caller says it once; a parallel
    /// search's parts each may, and only the first part's is written.
    func report(_ diagnostic: Diagnostic, oncePer key: String) {
        if fileDescriptor == nil, let transcript {
            transcript.append(.diagnosticOnce(key: key, line: diagnostic.description))
        } else {
            report(diagnostic)
        }
    }

    /// A line that is not a diagnostic (a usage hint).
    public func write(_ line: String) {
        guard let fileDescriptor else {
            if let transcript { transcript.append(.diagnostic(line)) } else { lines.append(line) }
            return
        }
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        _ = bytes.withUnsafeBytes { writeAll(fileDescriptor, $0) }
    }
}
