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

