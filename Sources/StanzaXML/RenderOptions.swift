/// How results are written (stanzaq(1), OUTPUT): the one set of options for
/// values, elements (``XMLSerializer``) and the command line's records.
public struct RenderOptions: Sendable {
    /// Datetimes as seconds since 1970 instead of ISO 8601.
    public var epoch: Bool
    /// Elements indented by two spaces per level of element-only content.
    public var pretty: Bool
    /// Colours to wrap tags and attributes of elements in, or `nil` (never in JSON).
    public var highlight: XMLHighlight?
    /// Elements on one line: the whitespace between child elements dropped
    /// (where ``pretty`` would indent), newlines in text written `&#10;`.
    public var compact: Bool

    public init(epoch: Bool = false, pretty: Bool = false, highlight: XMLHighlight? = nil, compact: Bool = false) {
        self.epoch = epoch
        self.pretty = pretty
        self.highlight = highlight
        self.compact = compact
    }
}
