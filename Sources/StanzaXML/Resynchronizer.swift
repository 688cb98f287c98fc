import CByteSearch

/// Finds where reading can go on after damage: the end of the damaged stanza,
/// or the next place where a stanza (or a stream) can start.
///
/// It rescans the raw bytes from the last place the reader knew to be between
/// stanzas, with a tolerant tokenizer of its own (libxml2 has given up on
/// these bytes), and keeps a stack of the element names it has seen open.
///
/// Why this design, and not another:
/// - libxml2's own recovery (`XML_PARSE_RECOVER`, `xmllint --recover`) keeps
///   going inside the damaged document and repairs the tree as it goes: a
///   mismatched end tag closes whatever is open, a stray `<` drops the rest of
///   a start tag. It never tells which stanza was damaged, and after a cut-off
///   stanza it nests every following stanza inside it — the opposite of what a
///   capture with one cut needs. Its push parser also stops for good after
///   some errors (`xmlHaltParser`).
/// - Prosody's `util.xmppstream` does not recover at all: any parse error is a
///   stream error and the session is closed, which is right for a server and
///   wrong for a tool that reads what was captured.
/// - Resuming at the next `<` that starts a tag would read the children of a
///   damaged stanza (`<body>`, `<x xmlns=…>`) as stanzas of their own.
///
/// So the damaged stanza is skipped as a whole: the tokenizer follows quotes,
/// comments and CDATA sections, pushes start tags and pops end tags (an end tag
/// closes the innermost open element of its name; an unknown one is ignored,
/// but where only the root is open and it ends its line it closes the root: it
/// is the stanza's own end tag, misspelt),
/// and reading resumes when the stanza's root is closed. Three signs end a
/// stanza that is never closed (cut off, as logcat cuts at 4 KB): a stream
/// header (`<?xml` or `<stream:stream xmlns:stream='http://etherx.jabber.org/streams'>`);
/// a start tag that begins a line, is not indented more than the stanza's own
/// start tag, and either has the stanza's own name or `message`, `presence` or
/// `iq`, or follows a line that does not end with a tag (cut in the middle):
/// children are on the same line, or indented deeper, or have other names
/// after whole lines (XEP examples do not indent every child), while in logs
/// and captures each stanza starts a line; and a start tag interrupted by a
/// `<` (cut inside the tag), or a quoted value that runs over a line end into
/// a start tag. While parsing undamaged input the reader is more careful (see
/// `StanzaReader.startsNewStanza`): there a nested start tag is a new stanza
/// only when both are stanzas (`message`, `presence`, `iq`) in the same XMPP
/// namespace with nothing but that namespace in between — RFC 6120 stanzas
/// never contain stanzas but inside a payload of another namespace, such as
/// `<forwarded xmlns='urn:xmpp:forward:0'>` — and the line rule holds too (XEP
/// examples without `xmlns` nest a `<message>` in a `<message>`, indented).
struct Resynchronizer {
    /// Where to go on, and whether the stream the damage was in goes on too.
    enum Outcome: Equatable {
        /// More bytes are needed; the bytes from ``keepFrom`` must stay.
        case needMore
        /// Read on at `offset`; `inStream` is false when a new stream starts
        /// there or the old one ended before it.
        case resume(offset: Int, inStream: Bool)
    }

    /// The next byte to look at (the start of an unfinished token when more is needed).
    private(set) var keepFrom: Int
    /// Start tags before this offset belong to the damage; the first one is its root.
    private let damageOffset: Int
    /// Where the scan started: reading never resumes there (that is where the damage was read from).
    private let origin: Int
    /// Whether the damaged stanza is a child of a stream (it then goes on after it).
    private var inStream: Bool
    /// The local name of the BOSH or WebSocket frame the damaged stanza is a
    /// child of, if any: the frame's end tag ends the skip, outside the frame.
    private let frameName: [UInt8]?
    /// Reading resumed after the end tag of the frame (``frameName``) the damage was in.
    private(set) var leftFrame = false
    /// The names of the elements open in the damaged stanza, outermost first, and
    /// whether each is in a namespace other than the root's (a prefix or an `xmlns=`).
    private var open: [(name: [UInt8], foreign: Bool)] = []
    /// Elements open beyond the 256 levels ``open`` keeps (deeper input is
    /// damaged anyway): each end tag closes one of them first.
    private var overflow = 0
    /// How many of ``open`` are foreign (kept as a count: a deep stack is not scanned per tag).
    private var foreignCount = 0
    /// Whether reading resumed inside the damaged stanza (it was cut off there).
    var resumedInsideRoot: Bool { !open.isEmpty || overflow > 0 }
    /// Where the damaged stanza's root starts, once seen, and its column (in bytes).
    private(set) var rootOffset: Int?
    private var rootColumn = 0
    /// The root's name, kept because its bytes are forgotten once skipped.
    private(set) var rootName: [UInt8] = []
    /// Where the root starts in lines and columns: the reader notes it when the
    /// root is first seen, while its bytes are still held.
    var rootPosition: InputPosition?
    /// What a new stanza starts with (besides the damaged stanza's own name).
    static let stanzaNames: [[UInt8]] = [Array("message".utf8), Array("presence".utf8), Array("iq".utf8)]

    /// - Parameters:
    ///   - offset: a place known to be between stanzas, at or before the damage.
    ///   - damageOffset: where the damage was seen; a start tag there or after it
    ///     at the stanza level is where reading resumes (never at `offset` itself).
    ///     `offset` skips only text and stray end tags (input that starts in the
    ///     middle of a stanza).
    init(from offset: Int, damageOffset: Int, inStream: Bool, frameName: [UInt8]? = nil) {
        keepFrom = offset
        origin = offset
        self.damageOffset = max(damageOffset, offset)
        self.inStream = inStream
        self.frameName = frameName
    }

    /// A token whose end had not arrived: where to go on looking for it.
    private var searchHint: (token: Int, needle: String, from: Int)?
    private var tagInProgress: TagScan?

    /// Scans `bytes` (whose first byte is at absolute offset `base`) from ``keepFrom``.
    /// `atEnd`: no more input will come, so an unfinished token is text.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, before: BytesBefore, atEnd: Bool) -> Outcome {
        let window = Window(bytes: bytes, base: base, atEnd: atEnd)
        var p = keepFrom
        while true {
            // Text (and whatever is not a tag) up to the next '<'.
            while p < window.end && window[p] != UInt8(ascii: "<") { p += 1 }
            keepFrom = p
            if p + 1 >= window.end { return needMore(at: p, window) }
            let next = window[p + 1]
            let step: Step
            if next == UInt8(ascii: "!") {
                step = skipMarkupDeclaration(at: p, window)
            } else if next == UInt8(ascii: "?") {
                step = processingInstruction(at: p, window)
            } else if next == UInt8(ascii: "/") {
                step = endTag(at: p, window)
            } else if isNameStartByte(next) {
                step = startTag(at: p, window, before: before)
            } else {
                step = .next(p + 1)   // a '<' in text
            }
            switch step {
            case .next(let after): p = after
            case .done(let outcome): return outcome
            }
        }
    }

    /// The bytes being scanned, read at absolute offsets.
    private struct Window {
        let bytes: UnsafeBufferPointer<UInt8>
        let base: Int
        let atEnd: Bool
        var end: Int { base + bytes.count }

        @inline(__always) subscript(_ offset: Int) -> UInt8 { bytes[offset - base] }

        /// Whether `prefix` is at `offset`; `nil`: cannot tell yet.
        func hasPrefix(_ prefix: StaticString, at offset: Int) -> Bool? {
            let count = prefix.utf8CodeUnitCount
            let have = min(count, end - offset)
            let matches = prefix.withUTF8Buffer { n in (0..<have).allSatisfy { self[offset + $0] == n[$0] } }
            if !matches { return false }
            return have == count ? true : nil
        }
    }

    /// What one token of the scan leads to: the scan goes on after it, or ends.
    private enum Step {
        case next(Int)
        case done(Outcome)
    }

    /// Finds `needle` from `start` (or from where the last call stopped looking for it in `token`).
    private mutating func find(_ needle: StaticString, from start: Int, token: Int, _ window: Window) -> Int? {
        let count = needle.utf8CodeUnitCount
        var index = start
        if let hint = searchHint, hint.token == token, hint.needle == needle.description { index = max(index, hint.from) }
        let found: Int? = needle.withUTF8Buffer { n in
            while index + count <= window.end {
                var matches = true
                for k in 0..<count where window[index + k] != n[k] { matches = false; break }
                if matches { return index }
                index += 1
            }
            return nil
        }
        searchHint = found == nil ? (token, needle.description, index) : nil
        return found
    }

    private mutating func needMore(at token: Int, _ window: Window) -> Outcome {
        keepFrom = window.atEnd ? window.end : token
        return .needMore
    }

    /// `<!--…-->`, `<![CDATA[…]]>`, `<!DOCTYPE…>` at `p`: skipped.
    private mutating func skipMarkupDeclaration(at p: Int, _ window: Window) -> Step {
        let isComment = window.hasPrefix("<!--", at: p), isCDATA = window.hasPrefix("<![CDATA[", at: p)
        if isComment == nil || isCDATA == nil { return .done(needMore(at: p, window)) }
        let close: Int?
        if isComment == true {
            close = find("-->", from: p + 4, token: p, window).map { $0 + 3 }
        } else if isCDATA == true {
            close = find("]]>", from: p + 9, token: p, window).map { $0 + 3 }
        } else if window.hasPrefix("<!DOCTYPE", at: p) == true, let bracket = find("[", from: p + 2, token: p, window),
                  find(">", from: p + 2, token: p, window).map({ bracket < $0 }) ?? true {
            close = find("]>", from: bracket, token: p, window).map { $0 + 2 }   // an internal subset
        } else {
            close = find(">", from: p + 2, token: p, window).map { $0 + 1 }
        }
        guard let close else { return .done(needMore(at: p, window)) }
        return .next(close)
    }

    /// `<?…?>` at `p`: an XML declaration starts a new document, where reading may resume.
    private mutating func processingInstruction(at p: Int, _ window: Window) -> Step {
        guard let isDeclaration = window.hasPrefix("<?xml", at: p), p + 5 < window.end || window.atEnd else {
            return .done(needMore(at: p, window))
        }
        if isDeclaration && p + 5 < window.end && (isXMLSpace(window[p + 5]) || window[p + 5] == UInt8(ascii: "?")) {
            if p >= damageOffset && p > origin { return .done(.resume(offset: p, inStream: false)) }
        }
        guard let close = find("?>", from: p + 2, token: p, window) else { return .done(needMore(at: p, window)) }
        return .next(close + 2)
    }

    /// An end tag at `p`: it closes what is open of the damaged stanza, the stanza itself
    /// (reading resumes after it), or the stream; or it is stray.
    private mutating func endTag(at p: Int, _ window: Window) -> Step {
        guard var close = find(">", from: p + 2, token: p, window) else { return .done(needMore(at: p, window)) }
        // An end tag cut off before its '>' ends at the next '<'.
        var after = close + 1
        if let cut = (p + 2..<close).first(where: { window[$0] == UInt8(ascii: "<") }) { close = cut; after = cut }
        var nameEnd = p + 2
        while nameEnd < close && isNameByte(window[nameEnd]) { nameEnd += 1 }
        let name = Array(window.bytes[(p + 2 - window.base)..<(nameEnd - window.base)])
        if let frameName, localName(name) == frameName, !open.contains(where: { $0.name == name }) {
            // The frame's own end (not a `<body>` of the damaged stanza's): what follows is outside it.
            leftFrame = true
            return .done(.resume(offset: after, inStream: inStream))
        }
        if open.isEmpty {
            // </stream:stream>: what follows is outside the stream.
            if localName(name) == Array("stream".utf8) { return .done(.resume(offset: after, inStream: false)) }
            return .next(after)   // a stray end tag
        }
        if overflow > 0 {
            overflow -= 1
        } else if let index = open.lastIndex(where: { $0.name == name }) {
            foreignCount -= open[index...].filter(\.foreign).count
            open.removeSubrange(index...)
            if open.isEmpty { return .done(.resume(offset: after, inStream: inStream)) }
        } else if open.count == 1 {
            // An end tag of another name where only the root is open, last on its
            // line: the stanza's own end, misspelt (a mismatched end tag). Read as
            // a stray tag instead, it would leave the stanza open and make the
            // following stanzas its children.
            var look = after
            while look < window.end && (window[look] == 0x20 || window[look] == 0x09 || window[look] == 0x0D) { look += 1 }
            if look == window.end && !window.atEnd { return .done(needMore(at: keepFrom, window)) }   // read the tag again with more
            if look == window.end || window[look] == 0x0A {
                open.removeAll()
                foreignCount = 0
                return .done(.resume(offset: after, inStream: inStream))
            }
        }
        return .next(after)
    }

    /// A start tag at `p`: the damaged stanza's root, an element inside it, or a
    /// stanza that starts after it (reading resumes there).
    private mutating func startTag(at p: Int, _ window: Window, before: BytesBefore) -> Step {
        let bytes = window.bytes, base = window.base
        var scan = tagInProgress?.start == p ? tagInProgress! : TagScan(start: p)
        guard let tag = scan.read(bytes, base: base, atEnd: window.atEnd) else {
            tagInProgress = scan
            return .done(needMore(at: p, window))
        }
        tagInProgress = nil
        if tag.isStreamHeader {
            if p >= damageOffset && p > origin { return .done(.resume(offset: p, inStream: false)) }
            // The damaged element is itself a stream header: what follows are top-level elements.
            inStream = false
            return .next(tag.end)
        }
        if open.isEmpty {
            if (p >= damageOffset && p > origin) || rootOffset != nil { return .done(.resume(offset: p, inStream: inStream)) }
            rootOffset = p
            rootColumn = column(of: p, in: bytes, base: base, before: before)
            rootName = tag.name
            if tag.isEmpty || tag.isCut { return .done(.resume(offset: tag.end, inStream: inStream)) }
            open.append((tag.name, false))
            return .next(tag.end)
        }
        if let indent = indentation(of: p, in: bytes, base: base, before: before), indent <= rootColumn,
           tag.name == rootName || Self.stanzaNames.contains(localName(tag.name))
            || !lineBeforeEndsWithTag(p - indent, in: bytes, base: base, before: before) {
            return .done(.resume(offset: p, inStream: inStream))   // the damaged stanza was cut off
        }
        if !tag.isEmpty && !tag.isCut && open.count >= StanzaReader.maximumDepth {
            overflow += 1
        } else if !tag.isEmpty && !tag.isCut {
            open.append((tag.name, tag.isForeign))
            if tag.isForeign { foreignCount += 1 }
        }
        return .next(tag.end)
    }

    private struct StartTag {
        var name: [UInt8]
        var end: Int          // just after '>', or at the '<' that cut the tag
        var isEmpty: Bool     // <a/>
        var isCut: Bool       // interrupted by a '<' outside quotes
        var isForeign: Bool   // a prefix or an xmlns= declaration
        var isStreamHeader: Bool
    }

    /// A start tag being read, which may arrive in several pieces (a value of
    /// megabytes is read once, not again with each piece).
    private struct TagScan {
        let start: Int
        var index: Int
        var nameEnd: Int?
        var name: [UInt8] = []
        var quote: UInt8 = 0
        var declaresDefault = false
        var mentionsStreams = false
        var previous: UInt8 = 0

        init(start: Int) {
            self.start = start
            index = start + 1
        }

        /// The tag, or `nil` when its end has not arrived yet.
        mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, atEnd: Bool) -> StartTag? {
            let end = base + bytes.count
            @inline(__always) func at(_ offset: Int) -> UInt8 { bytes[offset - base] }
            func matches(_ needle: [UInt8], at offset: Int) -> Bool {
                guard offset + needle.count <= end else { return false }
                for k in 0..<needle.count where at(offset + k) != needle[k] { return false }
                return true
            }
            if nameEnd == nil {
                while index < end && isNameByte(at(index)) { index += 1 }
                if index == end && !atEnd { return nil }
                nameEnd = index
                name = Array(bytes[(start + 1 - base)..<(index - base)])
            }
            func cut(at offset: Int) -> StartTag {
                StartTag(name: name, end: offset, isEmpty: false, isCut: true, isForeign: false, isStreamHeader: false)
            }
            while index < end {
                let byte = at(index)
                if quote != 0 {
                    if byte == quote { quote = 0 }
                    else if byte == 0x0A {
                        // A value that runs over a line end into a start tag: the tag was cut.
                        var look = index + 1
                        while look < end && isXMLSpace(at(look)) { look += 1 }
                        if look + 1 >= end && !atEnd { return nil }   // cannot tell yet: look again with more
                        if look + 1 < end && at(look) == UInt8(ascii: "<") && isNameStartByte(at(look + 1)) {
                            return cut(at: look)
                        }
                    } else if byte == UInt8(ascii: "<") {
                        // No value holds a `<`: the quote was never closed (libxml2 stops here).
                        // The tag ends where its value broke; a new stanza (a start tag of
                        // this name or a stanza's) cut it off, anything else is inside it.
                        var nameEnd = index + 1
                        while nameEnd < end && isNameByte(at(nameEnd)) { nameEnd += 1 }
                        if nameEnd == end && !atEnd { return nil }
                        let next = Array(bytes[(index + 1 - base)..<(nameEnd - base)])
                        if !next.isEmpty && (next == name || Resynchronizer.stanzaNames.contains(localName(next))) { return cut(at: index) }
                        // A `<` in a value the quote does close (before any `>`) is a stray character.
                        var look = index + 1
                        while look < end && at(look) != quote && at(look) != UInt8(ascii: ">") { look += 1 }
                        if look == end && !atEnd { return nil }
                        if look == end || at(look) == quote || (next.isEmpty && at(index + 1) != UInt8(ascii: "/")) {
                            previous = byte
                            index += 1
                            continue
                        }
                        return StartTag(name: name, end: index, isEmpty: false, isCut: false,
                                        isForeign: declaresDefault || name.contains(UInt8(ascii: ":")), isStreamHeader: false)
                    } else if byte == UInt8(ascii: "h") && matches(Resynchronizer.streamsNamespace, at: index) {
                        mentionsStreams = true
                    }
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    let isStream = localName(name) == Array("stream".utf8) && mentionsStreams
                    return StartTag(name: name, end: index + 1, isEmpty: previous == UInt8(ascii: "/"), isCut: false,
                                    isForeign: declaresDefault || name.contains(UInt8(ascii: ":")), isStreamHeader: isStream)
                } else if byte == UInt8(ascii: "<") {
                    return cut(at: index)
                } else if byte == UInt8(ascii: "x") && matches(Resynchronizer.xmlnsAttribute, at: index)
                            && index + 5 < end && (at(index + 5) == UInt8(ascii: "=") || isXMLSpace(at(index + 5))) {
                    declaresDefault = true
                }
                previous = byte
                index += 1
            }
            return atEnd ? cut(at: end) : nil
        }
    }

    static let streamsNamespace = Array("http://etherx.jabber.org/streams".utf8)
    static let xmlnsAttribute = Array("xmlns".utf8)
}
