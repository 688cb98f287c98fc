#if canImport(StanzaXML)
import StanzaXML
#endif

/// xmpp.js's debug output (`@xmpp/debug`, with `XMPP_DEBUG` set, on Node's
/// standard output). xmppjs/xmpp.js packages/debug/index.js, `debug()`, logs
/// every element received (`element`) as ``console.debug(`IN\n${format(data)}`)``
/// and every element sent (`send`) as ``console.debug(`OUT\n${format(data)}`)``,
/// and `status NAME VALUE` for the connection's states (text here); `format()`
/// is ltx's `stringify(element, 2)` (xmppjs/ltx src/stringify.js) of the element
/// with SASL's secrets replaced by `<hidden xmlns="xmpp.js"/>`: one child a
/// line, two spaces a level, attribute values escaped, text among elements
/// escaped, but an element whose only child is text written
/// `<name …>TEXT</name>` with the text as it is, `<` and `&` unescaped, over
/// as many lines as it has. The stream's header is not logged (a `status open`
/// line shows it), so its stanzas name no namespace and `jabber:client` is
/// theirs. There is no time and no session.
///
/// Each line of an element is read as XML again: indentation is dropped, and
/// the text of an element with only text is escaped up to the `</name>` that
/// ends a line (the line break, then the element's end, that stringify writes
/// after it); text among elements (XHTML-IM's) is read as it is, with the line
/// break before it. A format of xmpp.js's own, detected on `IN` or `OUT` alone
/// on a line; before xmpp.js 0.9 (`⮈`, `⮊`, and the data sent or read) it is
/// not read.
final class XmppjsLogParser: LogLineParser {
    /// The name of the element whose text goes on in the next line, if any.
    private var textOf: [UInt8]?

    /// Any line but `IN` and `OUT` may go on with an element (the reader takes
    /// it as text once the element has ended): only a text that goes on is kept.
    var isAtRest: Bool { textOf == nil }

    var handover: LogParserState? { LogParserState(values: textOf.map { [$0] } ?? []) }

    func resume(from state: LogParserState) {
        textOf = state.values.first
    }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        direction(line) != nil
    }

    /// `IN` or `OUT`, alone on its line: the direction of the element after it.
    static func direction(_ line: UnsafeBufferPointer<UInt8>) -> LogDirection? {
        let end = line.contentEnd
        if end == 2, line.has("IN") { return .incoming }
        if end == 3, line.has("OUT") { return .outgoing }
        return nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        if textOf == nil, let direction = Self.direction(line) {
            var header = RecordHeader()
            header.direction = direction
            return ParsedLine(record: header, payload: end..<end)
        }
        var out: [UInt8] = []
        var index = 0
        if let name = textOf {
            // The text goes on after its line break.
            out.append(0x0A)
            index = text(line, from: 0, of: name, into: &out)
        } else {
            index = line.skippingBlanks(from: 0)
            // A line of text among elements is escaped already.
            if !line.has("<", at: index) { return ParsedLine(kind: .maybeMore, payload: index..<end) }
        }
        while index < end {
            guard line[index] == 0x3C, let close = line.firstIndex(of: 0x3E, from: index) else {
                out.append(contentsOf: line[index..<end])
                break
            }
            let open = index
            out.append(contentsOf: line[open...close])
            index = close + 1
            // A start tag with more after it on its line: its only child is text.
            if !line.has("</", at: open), line[close - 1] != 0x2F, index < end {
                var nameEnd = open + 1
                while nameEnd < close, line[nameEnd] != 0x20, line[nameEnd] != 0x2F { nameEnd += 1 }
                index = text(line, from: index, of: Array(line[(open + 1)..<nameEnd]), into: &out)
            }
        }
        return ParsedLine(kind: .maybeMore, payload: line.skippingBlanks(from: 0)..<end, decoded: out)
    }

    /// Appends the text from `start`, escaped, up to `</name>` if the line ends
    /// with it (and that end tag); else all of it, and the text goes on in the
    /// next line. Returns the end of the line.
    private func text(_ line: UnsafeBufferPointer<UInt8>, from start: Int, of name: [UInt8],
                      into out: inout [UInt8]) -> Int {
        let end = line.contentEnd
        let closing = end - name.count - 3
        var textEnd = end
        if closing >= start, line[closing] == 0x3C, line[closing + 1] == 0x2F, line[end - 1] == 0x3E,
           line[(closing + 2)..<(end - 1)].elementsEqual(name) {
            textEnd = closing
            textOf = nil
        } else {
            textOf = name
        }
        for byte in line[start..<textEnd] {
            switch byte {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            default: out.append(byte)
            }
        }
        out.append(contentsOf: line[textEnd..<end])
        return end
    }
}

// MARK: - The format

extension LogFormat {
    public static let xmppjs = LogFormat(XmppjsLogParser.self)
}

extension XmppjsLogParser: CuttableLogFormat {
    static let name = "xmppjs"
    /// A line `IN` or `OUT` alone only suggests it: the lines after decide.
    static let detectionRank: Int? = 17
    static func makeParser() -> any LogLineParser { XmppjsLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"
    static let sharesItsMarker = true

    /// A part starts at `IN` or `OUT` after a line that ends an element at
    /// the left margin (`</message>`, `<presence/>`) or a `status` line: not
    /// inside a text that goes on over lines (where `IN` may be a line of it).
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard direction(line) != nil else { return nil }
        let end = previous.contentEnd
        let endsElement = previous.has("<") && end > 1 && previous[end - 1] == 0x3E
        guard endsElement || previous.has("status ") else { return nil }
        return LogParserState()
    }
}
