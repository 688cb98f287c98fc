/// Tests strings for equality with a fixed string, case included: the `=`
/// filters of a query compiled with ``QueryOptions/caseSensitive``.
///
/// Unicode scalars are compared one by one, as ICU compares a literal
/// pattern, not by canonical equivalence (Swift's `==`): "é" written as one
/// scalar is not "e" followed by a combining accent.
struct ExactMatcher {
    let value: String

    init(_ value: String) {
        self.value = value
    }

    func matches(_ candidate: String) -> Bool {
        candidate.unicodeScalars.elementsEqual(value.unicodeScalars)
    }
}
