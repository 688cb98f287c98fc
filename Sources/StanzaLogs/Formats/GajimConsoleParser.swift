#if canImport(StanzaXML)
import StanzaXML
#endif

/// A copy of Gajim's XML console. gajim/gtk/debug_console.py's `_print_stanza`
/// writes each stanza as `<!-- {Incoming|Outgoing} {time} ({account}) -->`,
/// a newline, the stanza (pretty-printed by nbxmpp, or the raw string for a
/// stream's header), and a blank line; the time is `time.strftime("%c")`.
final class GajimConsoleParser: LogLineParser {
    /// It keeps nothing from one line to the next.
    var isAtRest: Bool { true }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.has("<!-- Incoming ") || line.has("<!-- Outgoing ")
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        guard Self.recognises(line), let close = line.firstRange(of: " -->") else {
            return ParsedLine(kind: .maybeMore, payload: 0..<end)
        }
        var header = RecordHeader()
        header.direction = line.has("<!-- Incoming ") ? .incoming : .outgoing
        // (`<!-- Incoming -->` has no description: its ` -->` starts before 14, the
        // log fuzzer found.)
        var description = 14..<max(14, close.lowerBound)
        // "(account)" at the end.
        if description.count > 1, line[description.upperBound - 1] == 0x29 {
            var open = description.upperBound - 2
            while open > description.lowerBound, line[open] != 0x28 { open -= 1 }
            if line[open] == 0x28 {
                header.session = line.string((open + 1)..<(description.upperBound - 1))
                description = description.lowerBound..<open
            }
        }
        let time = line.trimmed(description)
        if !time.isEmpty { header.setTime(line, time) }
        return ParsedLine(record: header, payload: close.upperBound..<end)
    }
}

// MARK: - The format

extension LogFormat {
    public static let gajim = LogFormat(GajimConsoleParser.self)
}

extension GajimConsoleParser: CuttableLogFormat {
    static let name = "gajim"
    static let detectionRank: Int? = 5
    static func makeParser() -> any LogLineParser { GajimConsoleParser() }
    static let streamNamespace: StaticString? = "jabber:client"
}
