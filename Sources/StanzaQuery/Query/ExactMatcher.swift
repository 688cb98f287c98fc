#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// Tests strings for equality with a fixed string, case included: the `=`
/// filters of a query compiled with ``QueryOptions/caseSensitive``. Like
/// ``CaselessMatcher``, a value that ends in one line terminator more equals.
///
/// Unicode scalars are compared one by one, as ICU compares a literal
/// pattern, not by canonical equivalence (Swift's `==`): "é" written as one
/// scalar is not "e" followed by a combining accent.
struct ExactMatcher {
    let value: String

    init(_ value: String) {
        self.value = value
    }

    /// Equal, or equal but for one line terminator that ends the candidate:
    /// the answers of Monal's `^value$` compiled with case (ICU's `$` also
    /// matches before a line terminator that ends the input).
    func matches(_ candidate: String) -> Bool {
        let scalars = candidate.unicodeScalars
        guard scalars.starts(with: value.unicodeScalars) else { return false }
        return isAtMostOneLineTerminator(scalars.dropFirst(value.unicodeScalars.count))
    }
}

/// Whether `rest` is empty or one ICU line terminator: LF, VT, FF, CR, NEL,
/// LS, PS, or CR LF.
func isAtMostOneLineTerminator<Rest: Collection<Unicode.Scalar>>(_ rest: Rest) -> Bool {
    var iterator = rest.makeIterator()
    guard let first = iterator.next() else { return true }
    let second = iterator.next()
    if let second {
        return first == "\r" && second == "\n" && iterator.next() == nil
    }
    switch first.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
}
