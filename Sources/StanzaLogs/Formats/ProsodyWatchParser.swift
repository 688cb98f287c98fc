#if canImport(StanzaXML)
import StanzaXML
#endif

/// What Prosody's admin shell prints for `watch:stanzas(JID)` (Prosody 13;
/// read in bjc/prosody, a mirror of Prosody's repository, at 76f00fc2e3ef:
/// plugins/mod_admin_shell.lua, `def_env.watch:stanzas()`, fed by
/// plugins/mod_debug_stanzas/watcher.lib.lua's `stanzas/in` and `stanzas/out`
/// filters of the sessions watched). For each stanza it prints a comment after
/// a newline, `<!-- received from ID -->` (in) or `<!-- sent to ID -->` (out),
/// the session's id (`c2s…`, `s2sin…`, `s2sout…`), then the stanza as
/// util/stanza.lua's `tostring` writes it: on one line, unless its text has
/// newlines, and without the `xmlns` its stream declares. Sessions that start
/// or stop being watched get `<!-- session ID opened -->` (and `attached`,
/// `closed`, `detached`): text. No time. A comment announces a stanza only
/// after a blank line, as Prosody prints one before each.
///
/// util/prosodyctl/shell.lua prints each piece of output as it comes:
/// `prosodyctl shell watch stanzas JID` as it is, the interactive shell after
/// `| ` (so a comment's line is `| ` alone, then the comment), which the first
/// line of a stanza loses here.
final class ProsodyWatchParser: LogLineParser {
    /// The line before announced a stanza: its first line may have the shell's `| `.
    private var announced = false
    /// The line before was blank (or the shell's `| ` alone), as before every
    /// comment of Prosody's: a comment after any other line is a stanza's text.
    private var afterBlank = true

    var isAtRest: Bool { !announced && afterBlank }

    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        announcement(line) != nil
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let end = line.contentEnd
        let blankBefore = afterBlank
        afterBlank = line[0..<end].allSatisfy { $0 == 0x20 || $0 == 0x7C }
        if blankBefore, let found = Self.announcement(line) {
            announced = true
            var header = RecordHeader()
            header.direction = found.direction
            header.setSession(line, found.session)
            // Prosody leaves out the namespace its streams declare (util/xmppstream.lua).
            header.streamNamespace = line.has("s2s", at: found.session.lowerBound) ? "jabber:server" : "jabber:client"
            return ParsedLine(record: header, payload: end..<end)
        }
        let first = announced
        announced = false
        if blankBefore && line.has("<!-- ") { return .text }
        let start = first && line.has("| ") ? 2 : 0
        return ParsedLine(kind: .maybeMore, payload: start..<max(start, end))
    }

    /// A comment that announces a stanza: its direction and the session's id.
    static func announcement(_ line: UnsafeBufferPointer<UInt8>) -> (direction: LogDirection, session: Range<Int>)? {
        let end = line.contentEnd
        guard end >= 4, line.has(" -->", at: end - 4) else { return nil }
        let direction: LogDirection, start: Int
        if line.has("<!-- sent to ") { (direction, start) = (.outgoing, 13) }
        else if line.has("<!-- received from ") { (direction, start) = (.incoming, 19) }
        else { return nil }
        guard end - 4 > start, line[start..<(end - 4)].allSatisfy({ $0 > 0x20 }) else { return nil }
        return (direction, start..<(end - 4))
    }
}

// MARK: - The format

extension LogFormat {
    public static let prosodyWatch = LogFormat(ProsodyWatchParser.self)
}

extension ProsodyWatchParser: CuttableLogFormat {
    static let name = "prosody-watch"
    /// Its comments are no other format's (Gajim's say `Incoming`, `Outgoing`).
    static let detectionRank: Int? = 5
    static func makeParser() -> any LogLineParser { ProsodyWatchParser() }
    static let streamNamespace: StaticString? = "jabber:client"
}
