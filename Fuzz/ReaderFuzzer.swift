// libFuzzer target: arbitrary bytes as input to the stanza reader, with a
// fixed set of queries evaluated on every stanza, as the command line does.
// Built by `make fuzz`, linked to the library compiled once for the fuzzers.
//
// Beyond "no crash, no hang", it checks what the reader promises:
// - feeding the input at once or in small pieces gives the same stanzas, and
//   an error in both cases or in neither (a push parser must not depend on
//   where chunks end);
// - every stanza handed over serialises to XML that reads back as one stanza
//   that serialises the same (what `-s` prints can be read again);
// - building stanzas only a few levels deep (`depthLimit`, what -c and -q ask
//   for) reads the same stanzas and the same error: whether input is
//   well-formed, and within the reader's limits, does not depend on the query.

import Foundation
@testable import StanzaFuzz

private let queries: [Query] = [
    "",                                        // every stanza itself
    "/@@",
    "*",
    "{*}*@{http://www.w3.org/XML/1998/namespace}lang",
    "{*}*#",
    "{*}*/{*}*$",
    "/{jabber:client}message<type~^(chat|groupchat)$>/body#",
    "/<id=%@>@to",
    "{*}!body/..@@",
    "{urn:xmpp:delay}delay@stamp|datetime",
    "{*}*@a|int",
    "{*}*@a|uint",
    "{*}*#|double",
    "{*}*#|bool",
    "{*}*#|base64",
    "{*}*@id|uuid",
    "{*}*@id|uuidcast",
    "{*}*/{*}*<xml:lang~.>@p:a",
    #"{*}*/\@FORM_TYPE\"#,
    #"{*}*/\{*}*[1]%field\"#,
    #"{*}*/\result@x\|int"#,
    #"{*}*/\form\"#,
].map { try! Query($0, arguments: $0.contains("%@") ? ["1"] : []) }

/// The documented limits, but a clock that never moves: results are compared
/// between readings, so they must not depend on how long a match took (the
/// expressions above are linear, and the input is short).
private let limits = EvaluationLimits(clock: { 0 })

private let pretty = XMLSerializer(options: .init(pretty: true, highlight: .ansi))

/// What reading `bytes` gives: each stanza serialised, with its query
/// results rendered, then the error if any. `chunk` 0 feeds all at once.
private func read(_ bytes: UnsafeRawBufferPointer, chunk: Int, namespace: String?, depthLimit: Int? = nil)
    -> (stanzas: [String], serialised: [String], error: String?) {
    var stanzas: [String] = []
    var serialised: [String] = []
    let reader = StanzaReader(defaultNamespace: namespace) { stanza in
        let xml = stanza.xmlString()
        serialised.append(xml)
        var record = xml
        var out: [UInt8] = []
        for query in queries {
            for strict in [false, true] {
                do {
                    for value in try query.find(in: stanza, strict: strict, limits: limits) {
                        value.writeText(into: &out)
                        value.writeJSON(into: &out, options: RenderOptions(epoch: true))
                    }
                } catch {
                    out += Array("\(error)".utf8)
                }
            }
        }
        record += String(decoding: out, as: UTF8.self)
        _ = pretty.string(for: stanza)
        stanzas.append(record)
        return true
    }
    reader.depthLimit = depthLimit
    do {
        if chunk == 0 {
            try reader.feed(bytes)
        } else {
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + chunk, bytes.count)
                try reader.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
            }
        }
        try reader.finish()
        return (stanzas, serialised, nil)
    } catch {
        return (stanzas, serialised, "\(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func readerFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let namespace: String? = size % 2 == 0 ? nil : "jabber:client"
    let whole = read(bytes, chunk: 0, namespace: namespace)
    // Small chunks, their size taken from the input so that every boundary is tried.
    let chunk = size == 0 ? 1 : Int(data[size - 1] % 7) + 1
    let pieces = read(bytes, chunk: chunk, namespace: namespace)
    // The same stanzas, and an error or none. (Not necessarily the same message
    // or place: libxml2's push parser puts off some errors until it has seen
    // more input, and then reports them elsewhere, or differently.)
    if whole.stanzas != pieces.stanzas || (whole.error == nil) != (pieces.error == nil) {
        fatalError("""
            feeding in chunks of \(chunk) differs from feeding at once:
            at once: \(whole.stanzas.count) stanzas, error \(whole.error ?? "none")
            chunked: \(pieces.stanzas.count) stanzas, error \(pieces.error ?? "none")
            first difference: \(zip(whole.stanzas, pieces.stanzas).first { $0 != $1 }.map { "\($0)\n  vs\n\($1)" } ?? "-")
            """)
    }
    // Built shallower, the same stanzas (by their roots) and the same error.
    let depthLimit = size == 0 ? 0 : Int(data[0] % 3)
    let shallow = read(bytes, chunk: 0, namespace: namespace, depthLimit: depthLimit)
    if shallow.stanzas.count != whole.stanzas.count || shallow.error != whole.error {
        fatalError("""
            building \(depthLimit) levels deep reads differently:
            whole: \(whole.stanzas.count) stanzas, error \(whole.error ?? "none")
            \(depthLimit) deep: \(shallow.stanzas.count) stanzas, error \(shallow.error ?? "none")
            """)
    }
    // What -s prints reads back as the same stanza, read as a document of its
    // own: the serialiser declares the namespace a stanza inherited, so no
    // default namespace is given (with one, a root in no namespace, written
    // without `xmlns=''` as a document needs none, would be read into it).
    for record in whole.serialised {
        let again: [Element]?
        do {
            again = try StanzaReader.stanzas(in: record)
        } catch let error as StanzaReaderError where "\(error)".hasSuffix("attributes and namespace declarations (stanzaq's limit)") {
            // Known: an element at the limit of 1,024 that is written with the
            // namespace it inherited (from a stream, or -N) declared has one more.
            continue
        } catch {
            again = nil
        }
        // Known (stanzaq(1), INPUT): frames do not nest, so a BOSH body or a
        // WebSocket open or close inside a frame is a stanza there, and read
        // alone it is a frame again, which holds no stanza of its own.
        if again?.isEmpty == true, let tag = record.split(separator: ">", maxSplits: 1).first,
           tag.contains("'http://jabber.org/protocol/httpbind'") || tag.contains("'urn:ietf:params:xml:ns:xmpp-framing'") {
            continue
        }
        guard let again, again.count == 1, again[0].xmlString() == record else {
            fatalError("""
                a serialised stanza does not read back the same:
                \(record)
                reads back as \(again.map { $0.map { $0.xmlString() } }.map { "\($0)" } ?? "an error")
                """)
        }
    }
    return 0
}
