#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``StanzaReader`` stopped before the end of its input.
public enum StanzaReaderError: Error, Equatable, CustomStringConvertible {
    /// The input is not well-formed XML (or holds a DTD, which XMPP forbids).
    /// `line` and `column` are 1-based and count from the start of the input.
    case malformed(line: Int, column: Int, message: String)
    /// Reading the input failed with this `errno`.
    case io(errno: Int32)

    public var description: String {
        switch self {
        case .malformed(let line, let column, let message):
            return "\(line):\(column): \(message)"
        case .io(let code):
            return String(cString: strerror(code))
        }
    }
}

/// A place in the input: a byte offset, and the 1-based line and column
/// (in characters) it is at.
public struct InputPosition: Equatable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int

    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// Damaged input that a reader with ``StanzaReader/Recovery/skipDamage`` skipped:
/// a malformed or cut-off stanza, text or an end tag outside any stanza, or an
/// input that is not XML at all.
public struct StanzaDamage: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the damage was seen; for an element that is never closed, where
    /// it was opened. 1-based, counted from the start of the input.
    public var line: Int
    public var column: Int
    /// One line that says what is wrong (long values are shortened).
    public var message: String
    /// The first byte skipped: the start of the damaged stanza, or of the stray text.
    public var skippedFrom: InputPosition
    /// Where reading resumed; `nil` when the rest of the input was skipped.
    public var resumedAt: InputPosition?

    public init(line: Int, column: Int, message: String, skippedFrom: InputPosition, resumedAt: InputPosition?) {
        self.line = line
        self.column = column
        self.message = message
        self.skippedFrom = skippedFrom
        self.resumedAt = resumedAt
    }

    /// `LINE:COLUMN: message`, as a reader without recovery throws it.
    public var description: String { "\(line):\(column): \(message)" }

    /// The same damage as the error a reader without recovery throws.
    public var error: StanzaReaderError { .malformed(line: line, column: column, message: message) }
}
