#if canImport(StanzaXML)
import StanzaXML
#endif

/// What turns an input's bytes into stanzas, fed as they come: the XML reader
/// (``StanzaReader``: single stanzas, sequences, XMPP streams) and the log reader
/// (``LogReader``: the logs of servers, clients and libraries). A searcher reads
/// every input through one, whichever it is; each hands its stanzas, with their
/// fields, to the handler it was made with, and reports ``InputDamage``.
public protocol StanzaStream: AnyObject {
    /// Reads more of the input. Stanzas completed by it are handed over before this returns.
    func feed(_ bytes: UnsafeRawBufferPointer) throws
    /// The input has ended: what is left open is damage, and what is complete is handed over.
    func finish() throws
    /// Whether the handler asked to stop reading.
    var isStopped: Bool { get }
    /// How many levels below a stanza's root are built (`nil`: all): elements
    /// deeper than the queries reach are skipped.
    var depthLimit: Int? { get set }
    /// Which children of a stanza's root are built (`nil`: all).
    var childSelection: ChildSelection? { get set }
}

extension StanzaReader: StanzaStream {}
extension LogReader: StanzaStream {}
