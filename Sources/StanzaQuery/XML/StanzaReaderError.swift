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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
