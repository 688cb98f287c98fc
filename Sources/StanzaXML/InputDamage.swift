/// Damaged input a reader skipped and reports, in XML or in a log (stanzaq(1),
/// DIAGNOSTICS): a malformed or cut-off stanza, text or an end tag outside any
/// stanza, bytes that are not UTF-8, an input that is not XML at all. What the
/// damage cost is the damaged stanza only: reading goes on after it.
public struct InputDamage: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the damage was seen; for an element that is never closed, where
    /// it was opened. 1-based, counted from the start of the input (of the log).
    public var line: Int
    public var column: Int
    /// One line that says what is wrong (long values are shortened).
    public var message: String
    /// In XML input, the first byte skipped: the start of the damaged stanza,
    /// or of the stray text.
    public var skippedFrom: InputPosition?
    /// In XML input, where reading resumed; `nil` when the rest of the input
    /// was skipped (and in a log, whose reader goes on at the next record).
    public var resumedAt: InputPosition?

    public init(line: Int, column: Int, message: String, skippedFrom: InputPosition? = nil, resumedAt: InputPosition? = nil) {
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
