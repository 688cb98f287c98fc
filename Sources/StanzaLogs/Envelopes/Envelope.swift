#if canImport(StanzaXML)
import StanzaXML
#endif

/// A wrapper around a program's log (stanzaq(1), ENVELOPES): Monal's rawlog, a
/// container runtime's or a log shipper's. Its name (`--envelope=NAME`) and
/// its ``EnvelopeDefinition``.
public struct Envelope: RawRepresentable, Hashable, CaseIterable, Sendable, CustomStringConvertible {
    let definition: any EnvelopeDefinition.Type

    init(_ definition: any EnvelopeDefinition.Type) {
        self.definition = definition
    }

    /// The envelopes, in the order `--help` lists them and recognition tries them.
    ///
    /// The journal and syslog files come before `docker`: rsyslog's RFC 3339
    /// lines start as `docker logs -t` lines do. The JSON envelopes come after
    /// Docker's json-file, whose `{"log":` is the most specific.
    static let registry: [Envelope] = [.monalRawlog, .dockerJSON, .journalJSON, .jsonLines, .cri, .journal, .syslog, .dockerTimestamps, .compose]

    public static var allCases: [Envelope] { registry }

    /// The envelope named `rawValue` (`--envelope=NAME`), if there is one.
    public init?(rawValue: String) {
        guard let found = Self.registry.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    public var rawValue: String { definition.name }
    public var description: String { rawValue }

    public static func == (first: Envelope, second: Envelope) -> Bool {
        ObjectIdentifier(first.definition) == ObjectIdentifier(second.definition)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(definition))
    }

    /// The envelope the input's first bytes are in: `.some(nil)` none,
    /// `nil` they do not tell yet (more bytes are needed).
    public static func recognised(_ head: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Envelope?? {
        var undecided = false
        for envelope in registry {
            switch envelope.definition.recognises(head, atEnd: atEnd) {
            // (An envelope earlier in the order that does not tell yet comes first.)
            case true?: return undecided && !atEnd ? nil : .some(envelope)
            case nil: undecided = true
            case false?: continue
            }
        }
        return undecided && !atEnd ? nil : .some(nil)
    }

    /// The log format of the text inside, where the envelope decides it.
    public var innerFormat: LogFormat? { definition.innerFormat }

    func makeDecoder() -> any EnvelopeDecoder { definition.makeDecoder() }
}
