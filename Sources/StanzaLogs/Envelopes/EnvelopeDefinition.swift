#if canImport(StanzaXML)
import StanzaXML
#endif

/// One entry of an envelope: the text a program wrote, and what the envelope
/// says of it (stanzaq(1), ENVELOPES).
struct EnvelopeEntry {
    /// The source the entry is from (a container's stream, a process and
    /// connection): each source's text is read as a log of its own. `nil`: the
    /// envelope names none.
    var source: String?
    /// The time the envelope gives the entry, as written.
    var time: String?
    /// The session or connection the envelope names (Monal's queue of a
    /// connection), for the stanzas whose own line names none.
    var session: String?
    /// Other facts the envelope names (Monal's process, level, file, function).
    var fields: [LogField] = []
    /// The program's text: one line or several, without the last line feed.
    var text: [UInt8]
    /// Where the entry starts in the input: its line (Monal's rawlog: its number).
    var line: Int
    /// Whether the program's line goes on in the source's next entry (CRI's `P`,
    /// Docker's lines of over 16 KiB).
    var partial = false
}

/// Takes an envelope apart: fed the input's bytes as they come, hands out each
/// entry once it is complete, and reports an entry it cannot take apart (that
/// entry is lost, not the rest of the input).
protocol EnvelopeDecoder: AnyObject {
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void)
    /// The input has ended.
    func finish(_ emit: (EnvelopeEntry) -> Void, damage: (InputDamage) -> Void)
    /// The input goes on in another file (a followed log was rotated or
    /// truncated) after `linesBefore` lines that are not read: what was held
    /// of an entry is dropped, and entries are numbered on from there.
    func continueInNewFile(linesBefore: Int)
}

/// Everything stanzaq knows of one envelope, written in the envelope's own file
/// under Envelopes/: adding one is that file and a line in ``Envelope/registry``.
protocol EnvelopeDefinition {
    /// The envelope's name, as `--envelope=NAME` and messages give it.
    static var name: String { get }
    /// Whether the input's first bytes (up to 4 KiB, or all of a shorter input)
    /// are this envelope's; `nil`: they do not tell yet.
    static func recognises(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Bool?
    static func makeDecoder() -> any EnvelopeDecoder
    /// The log format of the text inside, where the envelope decides it (Monal's
    /// rawlog holds Monal's messages); `nil`: detected, or given with `--log`.
    static var innerFormat: LogFormat? { get }
}

extension EnvelopeDefinition {
    static var innerFormat: LogFormat? { nil }
}
