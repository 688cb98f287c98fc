/// Literal searches in strings, Unicode scalar by scalar: what stanzaq needs of
/// Foundation's `range(of:)` and `replacingOccurrences(of:with:)`, without
/// Foundation. (The standard library's `firstRange(of:)` and `replacing(_:with:)`
/// compare characters, so `&` would not be found in `&` followed by a combining
/// mark; markup and messages want every occurrence of the scalars.)
extension StringProtocol {
    /// The first range of `needle`'s scalars in the string, or `nil`.
    package func literalRange(of needle: String) -> Range<String.Index>? {
        let scalars = Array(needle.unicodeScalars)
        guard let first = scalars.first else { return nil }
        let haystack = unicodeScalars
        var index = haystack.startIndex
        while index < haystack.endIndex {
            if haystack[index] == first {
                var probe = index
                var matched = 0
                while matched < scalars.count, probe < haystack.endIndex, haystack[probe] == scalars[matched] {
                    matched += 1
                    probe = haystack.index(after: probe)
                }
                if matched == scalars.count { return index..<probe }
            }
            index = haystack.index(after: index)
        }
        return nil
    }

    /// The string with every occurrence of `target`'s scalars (left to right,
    /// not overlapping) replaced by `replacement`.
    package func replacingLiterally(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.literalRange(of: target) {
            result += rest[rest.startIndex..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
