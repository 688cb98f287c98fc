import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Transport framing at the stanza level: BOSH's `<body
/// xmlns='http://jabber.org/protocol/httpbind'>` (XEP-0124, XEP-0206) and the
/// WebSocket binding's `<open/>` and `<close/>` of
/// `urn:ietf:params:xml:ns:xmpp-framing` (RFC 7395).
///
/// They carry stanzas as `<stream:stream>` does, and are read as a stream's
/// start tag is: where a stanza could start, such an element is no stanza; its
/// children are the stanzas, inheriting the namespaces in scope there (the
/// stream's and those it declares), and it is not their parent. An empty body,
/// an `<open/>` and a `<close/>` yield nothing. It is decided here, in the
/// reader, where each stanza starts: a search that builds only part of each
/// stanza (``StanzaReader/depthLimit``) and a part of the input read on its
/// own (StanzaBoundaryScanner) see the same stanzas as everything else.
///
/// A parser that goes on inside a frame (after damage, or after
/// ``restartInterval`` stanzas) is fed the frame's start tag after the
/// stream's, so that its namespaces stay in scope (``TransportFrame/header``).
struct TransportFrame {
    /// A frame element is open at the stanza level: its children are the stanzas.
    var isOpen = false
    /// The namespaces its children inherit: the stream's, then its own.
    var scope: [NamespaceDeclaration] = []
    /// What a new parser is fed to go on inside it: the stream's start tag (if
    /// it is in one) and its own, as ``StanzaReader/writtenStartTag(prefix:localName:declarations:)`` writes them.
    var header: [UInt8] = []
    /// What a new parser is fed to go on after it: the stream's start tag, or nothing.
    var outerHeader: [UInt8]?
    /// Its local name, which ends it where damage is skipped (``Resynchronizer``).
    var localName: [UInt8] = []
    /// Where damage inside a frame is skipped: the header to go on with once
    /// the frame has ended there.
    var interruptedOuterHeader: [UInt8]?
}

extension StanzaReader {
    /// BOSH's namespace (XEP-0124), whose `body` frames stanzas.
    static let boshNamespace = "http://jabber.org/protocol/httpbind"
    /// The WebSocket binding's namespace (RFC 7395), whose `open` and `close` frame a stream.
    static let webSocketFramingNamespace = "urn:ietf:params:xml:ns:xmpp-framing"

    /// Whether a start tag where a stanza could start is a frame: BOSH's `body`,
    /// or RFC 7395's `open` or `close`. The namespace's first byte rules out
    /// a stanza's (`jabber:…`) before any string is compared.
    @inline(__always)
    func isFrame(_ localName: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) -> Bool {
        guard let uri, uri[0] == UInt8(ascii: "h") || uri[0] == UInt8(ascii: "u"), let localName else { return false }
        return isFrameName(localName, uri)
    }

    @inline(never)
    private func isFrameName(_ localName: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>) -> Bool {
        let name = UnsafeRawPointer(localName).assumingMemoryBound(to: CChar.self)
        let namespace = UnsafeRawPointer(uri).assumingMemoryBound(to: CChar.self)
        if strcmp(namespace, Self.boshNamespace) == 0 { return strcmp(name, "body") == 0 }
        if strcmp(namespace, Self.webSocketFramingNamespace) == 0 {
            return strcmp(name, "open") == 0 || strcmp(name, "close") == 0
        }
        return false
    }

    /// A frame starts where a stanza could (at `depth` in the document): its
    /// children are read as the stanzas, and it is written down for a parser
    /// that goes on inside it.
    func beginFrame(depth: Int, prefix: String?, localName: String, declarations: [NamespaceDeclaration]) {
        if depth == 0 || (inSequence && depth == 1) { rootStarted = true }
        leaveStartPhase()
        frame.isOpen = true
        frame.scope = inStream ? streamScope + declarations : declarations
        frame.outerHeader = inStream ? streamHeader : nil
        frame.header = (frame.outerHeader ?? []) + writtenStartTag(prefix: prefix, localName: localName, declarations: declarations)
        frame.localName = Array(localName.utf8)
        // Between stanzas from just after the start tag's '>' (libxml2 calls back before
        // reading it); nothing when the tag is a header a new parser was fed.
        var end = consumedOffset()
        if end >= retainedBase && end < inputLength && retained[end - retainedBase] == UInt8(ascii: ">") { end += 1 }
        if end > stanzaLevel.offset { stanzaLevel = position(of: end) }
    }

    /// The frame's end tag: what follows is between stanzas outside it.
    func endFrame() {
        frame.isOpen = false
        markStanzaLevel()
    }

    /// Whether the reader is inside a frame between two of its stanzas, no
    /// stanza partly read (``isBetweenStanzas`` is false there: the frame is open).
    package var isInsideFrameBetweenStanzas: Bool {
        guard let context, frame.isOpen, open.isEmpty, skipped == 0 else { return false }
        return restIsBetweenStanzas(context)
    }

    /// What a new parser is fed to go on where the reader is between stanzas:
    /// the start tags of the stream and the frame it is in, if any.
    var continuationHeader: [UInt8]? {
        frame.isOpen ? frame.header : inStream ? streamHeader : nil
    }

    /// The namespaces a stanza inherits where it starts: the stream's and the frame's.
    var inheritedScope: [NamespaceDeclaration]? {
        frame.isOpen ? frame.scope : inStream ? streamScope : nil
    }

    /// A start tag that declares the namespaces, and nothing else, written again
    /// for a new parser (a stream's, a frame's).
    func writtenStartTag(prefix: String?, localName: String, declarations: [NamespaceDeclaration]) -> [UInt8] {
        var tag = "<" + (prefix.map { $0 + ":" } ?? "") + localName
        for declaration in declarations {
            tag += " xmlns" + (declaration.prefix.map { ":" + $0 } ?? "") + "='" + escapedAttribute(declaration.uri) + "'"
        }
        tag += ">"
        return Array(tag.utf8)
    }
}

private func escapedAttribute(_ value: String) -> String {
    // (Walking the characters is slow, and a stream header is made for every channel.)
    guard value.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x27 || $0 == 0x22 }) else { return value }
    var result = ""
    for character in value {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case "'": result += "&apos;"
        case "\"": result += "&quot;"
        default: result.append(character)
        }
    }
    return result
}
