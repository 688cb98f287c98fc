import Foundation
import StanzaqTestSupport
import XCTest

/// ejabberd's log, skipped in (stanzaq(1), "Skipping what cannot match"): its
/// records are reads of a socket, whose binaries `~p` writes escaped, or as
/// numbers wrapped onto lines; a needle may be cut between two reads, and a
/// stanza opened in one read goes on in later ones. Each case is a log as
/// ejabberd 23.01 writes it (Tests/Fixtures/real-logs/logs/ejabberd.log), with
/// two sessions' stanzas and debugging messages around the one that matters,
/// and is searched as a full read searches it.
extension PrefilterTests {
    /// The windows of a real ejabberd log: its records written by `~p`, its
    /// debugging messages between (whose terms name the stanzas too, not read),
    /// its binaries written as numbers (checked, not read), its reads of a
    /// socket that end inside a stanza (read), and its stream headers (noted).
    func testEjabberdWindowsSkip() throws {
        try assertWindowsSkip("logs/ejabberd.log", repeated: 6, partSize: 65536, count: 24, windows: 39, read: "130261 of 2567574")
    }

    /// What a log holds around the case's records (`around`, after the
    /// 1500th stanza of session 524): over the 512 kB a log is skipped from.
    static func ejabberdLog(around records: [String], lineEnd: String = "\n") -> String {
        var lines: [String] = []
        for process in [524, 600] {
            lines += ejabberdRecord(process, "Received", Array(streamHeader.utf8))
            lines += ejabberdRecord(process, "Send", Array(("<?xml version='1.0'?>" + streamHeader.replacingOccurrences(of: "to=", with: "from=")).utf8))
        }
        for index in 0..<2600 {
            lines += ejabberdRecord(524, "Received",
                                    Array("<message type=\"chat\" to=\"frank@localhost\" id=\"m\(index)\"><body>hello \(index)</body></message>".utf8))
            if index % 10 == 0 {
                lines.append("2026-11-25 19:05:23.197273+00:00 [debug] <0.524.0>@ejabberd_hooks:safe_apply/4:315 Running hook c2s_handle_info: ejabberd_c2s:process_info/2")
                lines += ["2026-11-25 19:05:23.200726+00:00 [debug] <0.524.0>@ejabberd_router:do_route/1:384 Route:",
                          "#message{id = <<\"m\(index)\">>,type = chat,lang = <<\"en\">>,",
                          "         body = [#text{lang = <<>>,data = <<\"hello \(index)\">>}],"]
            }
            if index == 1500 { lines += records }
        }
        return lines.joined(separator: lineEnd) + lineEnd
    }

    static let streamHeader = "<stream:stream to='localhost' xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client' version='1.0'>"

    /// The line of a read (or a send) of `data` by process `process`, as
    /// `?dbg("(~s) Received XML on stream = ~p", …)` writes it: a binary of
    /// printable Latin-1 as a string (`\"`, `\\`, `\n` escaped, a byte past
    /// ASCII as its Latin-1 character), any other as numbers, on lines of 80
    /// at most indented under the binary (io_lib_pretty's `pp_binary/7`).
    static func ejabberdRecord(_ process: Int, _ direction: String, _ data: [UInt8]) -> [String] {
        let prefix = "2026-11-25 19:05:23.210674+00:00 [notice] <0.\(process).0> "
        let message = "(tcp|<0.\(process).0>) \(direction) XML on stream = "
        let escapes: [UInt8: String] = [0x22: "\\\"", 0x5C: "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"]
        if data.allSatisfy({ (0x20...0x7E).contains($0) || $0 >= 0xA0 || escapes[$0] != nil }) {
            let text = data.map { escapes[$0] ?? String(Character(Unicode.Scalar($0))) }.joined()
            return [prefix + message + "<<\"" + text + "\">>"]
        }
        var lines: [String] = []
        var line = message + "<<"
        for (index, byte) in data.enumerated() {
            let number = String(byte) + (index == data.count - 1 ? ">>" : ",")
            if line.count + number.count > 79 {
                lines.append(line)
                line = String(repeating: " ", count: message.count + 2)
            }
            line += number
        }
        lines.append(line)
        lines[0] = prefix + lines[0]
        return lines
    }

    func assertEjabberdCase(_ records: [String], _ arguments: [String], expected: String, lineEnd: String = "\n",
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("ejabberd.log", Self.ejabberdLog(around: records, lineEnd: lineEnd)).path
        let all = try Runner.stanzaq(["--read-all", "--threads", "1"] + arguments + [path])
        XCTAssertEqual(all.output, expected, file: file, line: line)
        try assertSameAsReadingAll(arguments + [path], file: file, line: line)
    }

    /// A needle cut between two reads of a socket, the second records later.
    func testEjabberdNeedleCutBetweenReads() throws {
        let first = Self.ejabberdRecord(600, "Received", Array("<message to='x' type='chat' id='z1'><subject xml:lang='qq".utf8))
        let second = Self.ejabberdRecord(600, "Received", Array("zz'>hi</subject></message>".utf8))
        let other = Self.ejabberdRecord(524, "Received", Array("<presence/>".utf8))
        try assertEjabberdCase(first + second, ["-c", "/message/subject<xml:lang=qqzz>#"], expected: "1\n")
        try assertEjabberdCase(first + other + second, ["-c", "/message/subject<xml:lang=qqzz>#"], expected: "1\n")
        // (A log whose lines end in CR LF: the records' ends are found all the same.)
        try assertEjabberdCase(first + other + second, ["-c", "/message/subject<xml:lang=qqzz>#"], expected: "1\n", lineEnd: "\r\n")
    }

    /// A stanza opened in one read, whose needle is in a later read that is
    /// whole elements itself.
    func testEjabberdStanzaGoesOnInALaterRead() throws {
        let opened = Self.ejabberdRecord(600, "Received", Array("<message to='x' type='chat' id='z2'>".utf8))
        let inner = Self.ejabberdRecord(600, "Received", Array("<subject xml:lang='qqzz'>hi</subject>".utf8))
        let other = Self.ejabberdRecord(524, "Received", Array("<presence/>".utf8))
        let closed = Self.ejabberdRecord(600, "Received", Array("</message>".utf8))
        try assertEjabberdCase(opened + other + inner + other + closed, ["-c", "/message/subject<xml:lang=qqzz>#"], expected: "1\n")
    }

    /// A binary written as numbers (a character whose UTF-8 holds a byte
    /// 0x80–0x9F), and one written as a string whose needle is escaped
    /// (`\\`) or spelled with a character past ASCII (`ſ`, which ICU folds to `s`,
    /// written as the Latin-1 characters of its two bytes).
    func testEjabberdNeedlesAsWritten() throws {
        let numbers = Self.ejabberdRecord(600, "Send", Array("<iq type='error' id='e1'><error type='cancel'><text>日本</text></error></iq>".utf8))
        XCTAssertGreaterThan(numbers.count, 2)
        try assertEjabberdCase(numbers, ["/iq<type=error>@id"], expected: "e1\n")
        let escaped = Self.ejabberdRecord(600, "Received", Array("<iq type=\"get\" id=\"a\\b\"/>".utf8))
        XCTAssertTrue(escaped[0].hasSuffix("<<\"<iq type=\\\"get\\\" id=\\\"a\\\\b\\\"/>\">>"), escaped[0])
        try assertEjabberdCase(escaped, ["/iq<id=a\\b>@type"], expected: "get\n")
        let folded = Self.ejabberdRecord(600, "Send", Array("<iq type='reſult' id='r1'/>".utf8))
        XCTAssertTrue(folded[0].contains("re\u{C5}\u{BF}ult"), folded[0])
        try assertEjabberdCase(folded, ["/iq<type=result>@id"], expected: "r1\n")
    }
}
