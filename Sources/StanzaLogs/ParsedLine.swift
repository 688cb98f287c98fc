#if canImport(StanzaXML)
import StanzaXML
#endif

/// How the stanza data of a log record relates to the stream it was read from.
enum RecordShape: Equatable, Sendable {
    /// Bytes as they crossed a socket: a record may end inside a stanza, and the
    /// next record of the same direction continues it (Smack, ejabberd, tshark).
    case stream
    /// Whole stanzas, serialised by the program that logs them (Prosody's
    /// `SEND:`/`RECV:`, slixmpp, archive rows): a record that ends inside a
    /// stanza has been cut off.
    case wholeStanzas
    /// Only a stanza's start tag (Prosody's `Received[c2s]:`): a stanza with its
    /// attributes and no children, which never continues on a later line.
    case startTag
}

/// What a record says about the data it carries.
struct RecordHeader {
    /// The fields the record gives its stanzas (its line is set by the reader):
    /// built once per record, and handed on as it is.
    var source: StanzaSource
    var shape: RecordShape
    /// The default namespace of the stream the record's stanzas belong to, when
    /// the format knows it and its serialiser leaves it out (Prosody omits
    /// `xmlns='jabber:client'` on c2s stanzas, as the stream declared it).
    var streamNamespace: String?
    /// Records are lines of one text, not pieces of a byte stream: a line break
    /// separates one record's data from the previous one's.
    var separatedByLineBreaks: Bool

    @inline(__always)
    init(source: StanzaSource = StanzaSource(), shape: RecordShape = .stream, streamNamespace: String? = nil,
         separatedByLineBreaks: Bool = false) {
        self.source = source
        self.shape = shape
        self.streamNamespace = streamNamespace
        self.separatedByLineBreaks = separatedByLineBreaks
    }

    var direction: LogDirection? {
        get { source.direction }
        set { source.direction = newValue }
    }
    var session: String? {
        get { source.session }
        set { source.session = newValue }
    }
    var time: String? {
        get { source.time }
        set { source.time = newValue }
    }
    /// The session, as the bytes of `range` of `line`.
    mutating func setSession(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        source.sessionText = LogText(UnsafeBufferPointer(rebasing: line[range]))
    }
    /// The time, as the bytes of `range` of `line`.
    mutating func setTime(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        source.timeText = LogText(UnsafeBufferPointer(rebasing: line[range]))
    }
    var fields: [LogField] {
        get { source.fields }
        set { source.fields = newValue }
    }
}

/// A record's header as places in its line: nothing to copy or release. Prosody's
/// parser gives one for every record (a header with Strings in it was copied, and
/// released, several times for each line).
struct LineHeader {
    var direction: LogDirection?
    var shape: RecordShape
    /// Where the line names the session, and the time.
    var session: Range<Int>?
    var time: Range<Int>?
    /// As ``RecordHeader/streamNamespace``.
    var streamNamespace: StaticString?
}

/// What a format's parser makes of one line of a log.
///
/// The kind carries no payload: a record's header is a field of its own, read
/// in place (a header inside an enum case was copied, with its Strings, every
/// time the line was matched and handed on).
struct ParsedLine {
    enum Kind {
        /// No stanza data (and the end of any record in progress).
        case text
        /// A line of something else, between the lines of a record (another
        /// logcat tag's): neither data nor the record's end.
        case unrelated
        /// A record starts: `payload` is its first data, `header` says what it is.
        case record
        /// More data of the record in progress, certainly (Prosody's tab-indented lines).
        case more
        /// More data of the record in progress if its XML is still open (an
        /// unmarked line after a socket read that ended inside a stanza);
        /// otherwise text.
        case maybeMore
        /// More data of the record in progress if its XML is still open;
        /// otherwise a record (`header`) whose data is `recordData` (the generic
        /// format, where any line with a tag may start a record).
        case maybeMoreElseRecord
    }

    var kind: Kind
    /// The data, as byte offsets into the line.
    var payload: Range<Int>
    /// The data, when the format escapes it (ejabberd's Erlang binaries, JSON
    /// strings): replaces `payload`, which then only tells the column it starts at.
    /// Decoded data is fed as it is: no line break is put before it (the parser
    /// includes the line breaks that belong to it).
    var decoded: [UInt8]? { extra?.decoded }
    /// For `record` and `maybeMoreElseRecord`: what the record says (this, or `lineHeader`).
    var header: RecordHeader? { extra?.header }
    /// For `record`: what the record says, as places in the line.
    var lineHeader: LineHeader?
    /// For `maybeMoreElseRecord`: the record's data, if the line starts one.
    var recordData: Range<Int>

    /// What only some lines have, out of line: a line of a Prosody log (a header
    /// in place, no decoding) is then copied as plain bytes. Held inline, the
    /// decoded data and the header (a source with its texts) made every copy of a
    /// line a call that retained and released them, for every line of a log.
    private final class Extra {
        let decoded: [UInt8]?
        let header: RecordHeader?

        init(decoded: [UInt8]?, header: RecordHeader?) {
            self.decoded = decoded
            self.header = header
        }
    }
    private var extra: Extra?

    private static func extra(decoded: [UInt8]?, header: RecordHeader?) -> Extra? {
        decoded == nil && header == nil ? nil : Extra(decoded: decoded, header: header)
    }

    static var text: ParsedLine { ParsedLine(kind: .text, payload: 0..<0) }

    /// A line that starts no record.
    @inline(__always)
    init(kind: Kind, payload: Range<Int>, decoded: [UInt8]? = nil) {
        self.kind = kind
        self.payload = payload
        self.extra = Self.extra(decoded: decoded, header: nil)
        self.lineHeader = nil
        self.recordData = 0..<0
    }

    /// A line that starts a record.
    @inline(__always)
    init(record header: RecordHeader, payload: Range<Int>, decoded: [UInt8]? = nil) {
        self.kind = .record
        self.payload = payload
        self.extra = Extra(decoded: decoded, header: header)
        self.lineHeader = nil
        self.recordData = 0..<0
    }

    /// A line that starts a record, its header given as places in the line.
    @inline(__always)
    init(record header: LineHeader, payload: Range<Int>, decoded: [UInt8]? = nil) {
        self.kind = .record
        self.payload = payload
        self.extra = Self.extra(decoded: decoded, header: nil)
        self.lineHeader = header
        self.recordData = 0..<0
    }

    /// A line that continues a record left open, or else starts one with `data`.
    init(maybeMoreElseRecord header: RecordHeader, data: Range<Int>, payload: Range<Int>) {
        self.kind = .maybeMoreElseRecord
        self.payload = payload
        self.extra = Extra(decoded: nil, header: header)
        self.lineHeader = nil
        self.recordData = data
    }
}

/// One log format: turns lines into records and data.
protocol LogLineParser: AnyObject {
    /// Reads one line (without its line terminator).
    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine
    /// Whether the parser holds nothing from the lines it read: a new one reads
    /// the next line as it would (a part of a log may then be read on its own).
    var isAtRest: Bool { get }
    /// What a new parser must be given (``resume(from:)``) to read the next line
    /// as this one would: `nil` if this one holds what cannot be handed on (a
    /// term or a chunk partly read). A part of a log read on its own is kept only
    /// if the part before it ended handing on the state it was started with.
    var handover: LogParserState? { get }
    /// Takes up what another parser handed on (a new parser, before any line).
    func resume(from state: LogParserState)
}

extension LogLineParser {
    /// Parsers that keep state across lines say when it holds nothing; by default, never.
    var isAtRest: Bool { false }
    /// By default: nothing, when the parser is at rest.
    var handover: LogParserState? { isAtRest ? LogParserState() : nil }
    func resume(from state: LogParserState) {}
}

/// What a log's parser carries from one line to the next (a session named at
/// the top, a header row), as ``LogLineParser/handover`` gives it: compared
/// as it is, each format deciding what its values mean.
public struct LogParserState: Hashable, Sendable {
    var values: [[UInt8]] = []

    init(values: [[UInt8]] = []) {
        self.values = values
    }
}
