/// libxml2's limits without XML_PARSE_HUGE, which its push parser does not
/// apply to SAX2 callers: the reader applies them (deeper trees would also
/// overflow the stack when they are freed). Exceeding one is damage, reported
/// like malformed XML.
extension StanzaReader {
    /// Elements may be nested this deep at most (the depth counts from the document's root).
    public static let maximumDepth = 256
    /// A text node may be this many bytes long at most, whether the query reads it or not.
    public static let maximumTextLength = 10_000_000
}
