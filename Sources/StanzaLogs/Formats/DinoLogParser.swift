#if canImport(StanzaXML)
import StanzaXML
#endif

/// Dino's `--print-xmpp=DESC` output on stderr. xmpp-vala's
/// src/core/xmpp_log.vala writes `XMPP {IN|OUT|IN ROOT|OUT ROOT} [ident
/// stream:0x… thread:0x… TIME]` (white on a terminal) and then the node as
/// src/core/stanza_node.vala's `to_string`/`to_ansi_string` prints it: one
/// element or text per line, indented by two spaces a level, names in Clark
/// notation (`<{jabber:client}:message {jabber:client}:to='…'>`, or plain names
/// with `hide-ns`), attribute values escaped but text not, a root printed as its
/// start tag alone, text over 1000 characters as `[... retracted for brevity ...]`.
/// Each line is turned back into XML: elements get an `xmlns`, attributes in
/// other namespaces a prefix, text its escapes, indentation is removed.
final class DinoLogParser: LogLineParser {
    /// The previous line was text (a text of several lines goes on).
    private var previousWasText = false
    /// Inside a node printed after a header.
    private var inNode = false

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        header(line) != nil
    }

    var handover: LogParserState? { LogParserState(values: [[inNode ? 1 : 0, previousWasText ? 1 : 0]]) }

    func resume(from state: LogParserState) {
        guard let values = state.values.first, values.count == 2 else { return }
        inNode = values[0] == 1
        previousWasText = values[1] == 1
    }

    /// Whether the node's line from `start` to `end` is a tag (else text).
    private static func isTag(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        line.has("<", at: start) && (line.has("</", at: start) || start + 1 < end && (line[start + 1] == 0x7B || isASCIILetter(line[start + 1]) || line[start + 1] == 0x5F))
    }

    private static func header(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, root: Bool, details: Range<Int>?)? {
        guard line.has("XMPP ") else { return nil }
        let direction: LogDirection, rest: Int
        if line.has("XMPP IN", at: 0) { direction = .incoming; rest = 7 }
        else if line.has("XMPP OUT", at: 0) { direction = .outgoing; rest = 8 }
        else { return nil }
        let root = line.has(" ROOT", at: rest)
        let open = line.firstIndex(of: 0x5B, from: rest)
        let close = open.flatMap { line.firstIndex(of: 0x5D, from: $0) }
        guard let open, let close else { return nil }
        return (direction, root, (open + 1)..<close)
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        if let found = Self.header(line) {
            var header = RecordHeader()
            header.direction = found.direction
            if let details = found.details {
                // "ident stream:0x… thread:0x… 2024-05-01T12:00:00.123+02:00"
                let words = line.string(details).split(separator: " ")
                if let ident = words.first, !ident.hasPrefix("stream:") { header.session = String(ident) }
                else if let stream = words.first(where: { $0.hasPrefix("stream:") }) { header.session = String(stream.dropFirst(7)) }
                if let time = words.last, time.contains("T") { header.time = String(time) }
            }
            previousWasText = false
            inNode = true
            return ParsedLine(record: header, payload: end..<end)
        }
        guard inNode else { return .text }
        let start = line.skippingBlanks(from: 0)
        guard start < end else { return .text }
        if Self.isTag(line, start, end) {
            previousWasText = false
            return ParsedLine(kind: .maybeMore, payload: start..<end, decoded: Self.tag(line, start..<end))
        }
        // Text: escaped again; a further line of the same text keeps its line break.
        var out: [UInt8] = previousWasText ? [0x0A] : []
        if line.has("[... retracted for brevity ...]", at: start) {
            out.append(contentsOf: "[… retracted by Dino …]".utf8)
        } else {
            for byte in line[start..<end] {
                switch byte {
                case 0x26: out.append(contentsOf: "&amp;".utf8)
                case 0x3C: out.append(contentsOf: "&lt;".utf8)
                case 0x3E: out.append(contentsOf: "&gt;".utf8)
                default: out.append(byte)
                }
            }
        }
        previousWasText = true
        return ParsedLine(kind: .maybeMore, payload: start..<end, decoded: out)
    }

    /// A start or end tag in Dino's notation, as XML.
    private static func tag(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [UInt8] {
        let text = line.string(range)
        if text.hasPrefix("</") {
            // "</{ns}:name>" or "</name>"
            var name = Substring(text.dropFirst(2).dropLast())
            if name.hasPrefix("{"), let close = name.firstIndex(of: "}") { name = name[Self.after(close, by: 2, in: name)...] }
            return Array("</\(name)>".utf8)
        }
        guard text.hasPrefix("<{"), let close = text.firstIndex(of: "}") else { return Array(text.utf8) }
        let namespace = text[text.index(text.startIndex, offsetBy: 2)..<close]
        var rest = text[Self.after(close, by: 2, in: text)...]   // after "}:"
        let nameEnd = rest.firstIndex { $0 == " " || $0 == ">" || $0 == "/" } ?? rest.endIndex
        let name = rest[..<nameEnd]
        rest = rest[nameEnd...]
        var out = "<\(name) xmlns='\(namespace)'"
        var declared: [Substring: String] = [:]
        var streamDefault = ""
        // Attributes: " {ns}:name='value'" (the value is already escaped and has no quote).
        while let brace = rest.firstIndex(of: "{"), let closeBrace = rest[brace...].firstIndex(of: "}"),
              let equals = rest[closeBrace...].firstIndex(of: "="), let quote = rest[equals...].firstIndex(of: "'"),
              let endQuote = rest[rest.index(after: quote)...].firstIndex(of: "'") {
            let attributeNamespace = rest[rest.index(after: brace)..<closeBrace]
            let attributeName = rest[min(Self.after(closeBrace, by: 2, in: rest), equals)..<equals]
            let value = rest[rest.index(after: quote)..<endQuote]
            rest = rest[rest.index(after: endQuote)...]
            switch attributeNamespace {
            case "http://www.w3.org/2000/xmlns/":
                // Declarations: every element says its namespace here.
                if attributeName == "xmlns" { streamDefault = String(value) }
                continue
            case "http://www.w3.org/XML/1998/namespace":
                out += " xml:\(attributeName)='\(value)'"
            case namespace, "":
                out += " \(attributeName)='\(value)'"
            default:
                let prefix = declared[attributeNamespace] ?? "ns\(declared.count + 1)"
                if declared[attributeNamespace] == nil {
                    declared[attributeNamespace] = prefix
                    out += " xmlns:\(prefix)='\(attributeNamespace)'"
                }
                out += " \(prefix):\(attributeName)='\(value)'"
            }
        }
        if namespace == "http://etherx.jabber.org/streams" && name == "stream" {
            // The stream's root, as a stream header: its default namespace is the stanzas'.
            return Array("<stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns='\(streamDefault)'>".utf8)
        }
        out += rest.hasSuffix("/>") ? "/>" : ">"
        return Array(out.utf8)
    }

    /// The index `distance` characters after `index`, or the end: a damaged line
    /// may end just after the `}` that `}:` was expected at (found by the log fuzzer).
    private static func after<Text: StringProtocol>(_ index: Text.Index, by distance: Int, in text: Text) -> Text.Index {
        text.index(index, offsetBy: distance, limitedBy: text.endIndex) ?? text.endIndex
    }
}

// MARK: - The format

extension LogFormat {
    public static let dino = LogFormat(DinoLogParser.self)
}

extension DinoLogParser: CuttableLogFormat {
    static let name = "dino"
    static let detectionRank: Int? = 6
    static func makeParser() -> any LogLineParser { DinoLogParser() }
    static let streamNamespace: StaticString? = "jabber:client"

    /// A part starts at a header, inside the nodes (a header was read before),
    /// after text or not as the line before says; not after a blank line (which
    /// leaves that as the lines before it do).
    static func partState(at line: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>,
                          carried: LogParserState) -> LogParserState? {
        guard header(line) != nil else { return nil }
        if header(previous) != nil { return LogParserState(values: [[1, 0]]) }
        let start = previous.skippingBlanks(from: 0), end = previous.contentEnd
        guard start < end else { return nil }
        return LogParserState(values: [[1, isTag(previous, start, end) ? 0 : 1]])
    }
}
