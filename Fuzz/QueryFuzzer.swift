// libFuzzer target: arbitrary bytes as a query (and format arguments),
// compiled, explained and evaluated on a fixed stanza. Built by `make fuzz`
// linked to the library compiled once for the fuzzers (see the Makefile).
//
// Input: QUERY [NUL ARGUMENT]... — the bytes before the first NUL are the
// query, each further NUL-separated piece a format argument, so that the
// argument binder is fuzzed too. Invalid UTF-8 is replaced, as the command
// line would see it after the shell.

import Foundation
@testable import StanzaFuzz

/// A stanza with something for every construct: a stream's namespaces, a
/// prefixed attribute, text and CDATA, a multi-item data form, dates,
/// numbers, base64 and UUIDs.
private let stanzaXML = """
    <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>
    <message from='romeo@montague.lit/orchard' to='juliet@capulet.lit' type='chat' id='5a55dac8-d3a4-4d0c-8811-24bdae92b8cb' xml:lang='en'>
      <body>Lady, by yonder <![CDATA[blessed]]> moon I swear</body>
      <delay xmlns='urn:xmpp:delay' from='capulet.lit' stamp='2002-09-10T23:08:25.123Z'>Offline storage</delay>
      <x xmlns='urn:x' xmlns:p='urn:p' p:a='1' b=' -42 ' c='3.5e2' d='aGVsbG8=' e='true' u='hello'><y>7</y><y>8</y><z/></x>
      <x xmlns='jabber:x:data' type='result'>
        <field var='FORM_TYPE' type='hidden'><value>urn:xmpp:dataforms:softwareinfo</value></field>
        <field var='os' type='list-single' label='OS'><desc>The OS</desc><required/><option label='Linux'><value>linux</value></option><value>linux</value><value>bsd</value></field>
        <reported><field var='jid' type='jid-single'/></reported>
        <item><field var='jid'><value>a@b</value></field></item>
        <item><field var='jid'><value>c@d</value></field></item>
      </x>
      <pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='n'><item id='i'><entry xmlns='urn:e'>é&amp;K</entry></item></items></pubsub>
    </message>
    """

private let stanza: Element = {
    var found: Element?
    let reader = StanzaReader { found = $0; return true }
    try! reader.feed(Array(stanzaXML.utf8))
    try! reader.finish()
    return found!
}()

/// Renders values both ways, as the command line would print them (the first
/// few: `*/..` may give thousands of copies of the whole stanza).
private func render(_ values: [QueryValue]) -> Int {
    var out: [UInt8] = []
    for value in values.prefix(16) {
        value.writeText(into: &out)
        value.writeText(into: &out, options: RenderOptions(epoch: true, pretty: true, highlight: .ansi))
        value.writeJSON(into: &out)
    }
    return out.count
}

/// A query the fuzzer writes may backtrack, or multiply nodes with `*/..`, for
/// as long as the limits allow: lower limits keep the executions per second up
/// (and are met more often). Each input's query is evaluated three times, so a
/// filter is given up after two abandoned matches on the third.
private let limits = EvaluationLimits(elementsReached: 10_000, resultBytes: 100_000, regularExpressionSteps: 1_000_000,
                                      regularExpressionSeconds: 0.25, abandonedMatchesPerFilter: 2)

/// The stanza's text, for the literals a query's results need.
private let stanzaBytes = Array(stanzaXML.utf8)

/// Whether `needle` is in `haystack` (`caseless`: ASCII letters in either case;
/// `quoted`: a quote before it, and after it a quote or a byte outside ASCII,
/// as the prefilter takes a whole value: ``RequiredLiteral/isWholeValue``).
private func holds(_ haystack: [UInt8], _ needle: [UInt8], caseless: Bool, quoted: Bool = false) -> Bool {
    guard needle.count <= haystack.count else { return false }
    func fold(_ byte: UInt8) -> UInt8 { caseless && byte >= 65 && byte <= 90 ? byte + 32 : byte }
    func isQuote(_ byte: UInt8) -> Bool { byte == 0x27 || byte == 0x22 }
    let folded = needle.map(fold)
    for start in 0...(haystack.count - needle.count) where fold(haystack[start]) == folded[0] {
        let end = start + needle.count
        if quoted && (start == 0 || !isQuote(haystack[start - 1]) || end == haystack.count
                      || !(isQuote(haystack[end]) || haystack[end] >= 0x80)) { continue }
        if (0..<needle.count).allSatisfy({ fold(haystack[start + $0]) == folded[$0] }) { return true }
    }
    return false
}

/// A query with a result on the stanza: every literal it needs is in the
/// stanza's text (the prefilter skips what lacks one: stanzaq(1), "Skipping
/// what cannot match").
private func checkLiterals(_ query: Query, _ text: String) {
    guard let values = try? query.find(in: stanza, limits: limits), !values.isEmpty else { return }
    for literal in query.requiredLiterals
    where !holds(stanzaBytes, literal.bytes, caseless: literal.caseless, quoted: literal.isWholeValue)
        && !literal.standIns.contains(where: { holds(stanzaBytes, $0, caseless: false) }) {
        fatalError("\(text.debugDescription) has a result without its literal \(literal)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func queryFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let pieces = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
    let text = pieces.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
    let arguments = pieces.dropFirst().map { String(decoding: $0, as: UTF8.self) }

    // Parsing alone (as --explain without arguments does), then compiling.
    if let syntax = try? QuerySyntax(parsing: text) {
        _ = syntax.explanation
        _ = syntax.formatSpecifierCount
    }
    let query: Query
    do {
        query = try Query(text, arguments: arguments)
    } catch {
        _ = error.description    // the caret under the column must not trap
        return 0
    }
    _ = query.syntax.explanation
    // The compile options: case included, and extensions rejected (--monal).
    let options = QueryOptions(caseSensitive: true, extensions: false)
    _ = query.syntax.explanation(options: options)
    if let exact = try? Query(text, arguments: arguments, options: options) {
        _ = (try? exact.find(in: stanza, limits: limits)).map(render)
        checkLiterals(exact, text)
    }
    checkLiterals(query, text)
    var lenient: [QueryValue]?
    for strict in [false, true] {
        do {
            let values = try query.find(in: stanza, strict: strict, limits: limits)
            _ = render(values)
            let first = try query.findFirst(in: stanza, strict: strict, limits: limits)
            _ = try query.check(in: stanza, strict: strict, limits: limits)
            // --strict validates and never changes an answer (stanzaq-query(7), CONVERSIONS).
            if strict, let lenient, values != lenient { fatalError("--strict changed the answer of \(text.debugDescription)") }
            if first != values.first { fatalError("findFirst is not the first result of \(text.debugDescription)") }
            if !strict { lenient = values }
        } catch {
            _ = error.description
        }
    }
    // Every element of the stanza as a context node, as a relative query meets them.
    var pending = [stanza]
    while let element = pending.popLast() {
        pending.append(contentsOf: element.childElements)
        _ = (try? query.find(in: element, limits: limits)).map(render)
    }
    return 0
}
