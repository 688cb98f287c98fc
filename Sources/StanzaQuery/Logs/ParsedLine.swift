/// How the stanza data of a log record relates to the stream it was read from.
enum RecordShape: Equatable {
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
    var direction: LogDirection?
    var session: String?
    var time: String?
    var fields: [LogField] = []
    var shape: RecordShape = .stream
    /// The default namespace of the stream the record's stanzas belong to, when
    /// the format knows it and its serialiser leaves it out (Prosody omits
    /// `xmlns='jabber:client'` on c2s stanzas, as the stream declared it).
    var streamNamespace: String?
    /// Records are lines of one text, not pieces of a byte stream: a line break
    /// separates one record's data from the previous one's.
    var separatedByLineBreaks = false
}

/// What a format's parser makes of one line of a log.
struct ParsedLine {
    enum Kind {
        /// No stanza data (and the end of any record in progress).
        case text
        /// A line of something else, between the lines of a record (another
        /// logcat tag's): neither data nor the record's end.
        case unrelated
        /// A record starts: `payload` is its first data.
        case record(RecordHeader)
        /// More data of the record in progress, certainly (Prosody's tab-indented lines).
        case more
        /// More data of the record in progress if its XML is still open (an
        /// unmarked line after a socket read that ended inside a stanza);
        /// otherwise text.
        case maybeMore
        /// More data of the record in progress if its XML is still open;
        /// otherwise a record whose data is `range` (the generic format, where
        /// any line with a tag may start a record).
        case maybeMoreElseRecord(RecordHeader, Range<Int>)
    }

    var kind: Kind
    /// The data, as byte offsets into the line.
    var payload: Range<Int>
    /// The data, when the format escapes it (ejabberd's Erlang binaries, JSON
    /// strings): replaces `payload`, which then only tells the column it starts at.
    /// Decoded data is fed as it is: no line break is put before it (the parser
    /// includes the line breaks that belong to the data).
    var decoded: [UInt8]?

    static let text = ParsedLine(kind: .text, payload: 0..<0)

    init(kind: Kind, payload: Range<Int>, decoded: [UInt8]? = nil) {
        self.kind = kind
        self.payload = payload
        self.decoded = decoded
    }
}

/// One log format: turns lines into records and data.
protocol LogLineParser: AnyObject {
    /// Reads one line (without its line terminator).
    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine
}
