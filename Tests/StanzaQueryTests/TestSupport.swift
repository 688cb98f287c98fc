import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// Parses `xml` and returns its only stanza (fails the test if there is not exactly one).
func stanza(_ xml: String, defaultNamespace: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> Element {
    do {
        let stanzas = try StanzaReader.stanzas(in: xml, defaultNamespace: defaultNamespace)
        XCTAssertEqual(stanzas.count, 1, "expected exactly one stanza", file: file, line: line)
        return stanzas.first ?? Element(name: "missing")
    } catch {
        XCTFail("cannot parse \(xml): \(error)", file: file, line: line)
        return Element(name: "missing")
    }
}

/// What the XML reader reads from `bytes` fed in chunks of `chunk` bytes: each
/// stanza as XML, and the error that ended the reading, if any.
func readInChunks(_ bytes: [UInt8], chunk: Int) -> (stanzas: [String], error: String?) {
    var stanzas: [String] = []
    let reader = StanzaReader { stanzas.append($0.xmlString()); return true }
    do {
        try reader.feed(bytes, inChunksOf: chunk)
        try reader.finish()
        return (stanzas, nil)
    } catch {
        return (stanzas, "\(error)")
    }
}

extension StanzaReader {
    /// Feeds `bytes` in chunks of `chunk` bytes (the last one shorter), as a
    /// file or a pipe may hand them over.
    func feed(_ bytes: [UInt8], inChunksOf chunk: Int) throws {
        var start = 0
        while start < bytes.count {
            try feed(Array(bytes[start..<min(bytes.count, start + chunk)]))
            start += chunk
        }
    }
}

/// The text renderings of every result of `query` on `element`.
func texts(_ query: String, _ arguments: [String] = [], in element: Element, strict: Bool = false,
           file: StaticString = #filePath, line: UInt = #line) -> [String] {
    do {
        return try Query(query, arguments: arguments).find(in: element, strict: strict).map(\.text)
    } catch {
        XCTFail("query \(query) failed: \(error)", file: file, line: line)
        return ["<error>"]
    }
}

/// The JSON renderings of every result of `query` on `element`.
func jsons(_ query: String, _ arguments: [String] = [], in element: Element, strict: Bool = false,
           file: StaticString = #filePath, line: UInt = #line) -> [String] {
    do {
        return try Query(query, arguments: arguments).find(in: element, strict: strict).map(\.json)
    } catch {
        XCTFail("query \(query) failed: \(error)", file: file, line: line)
        return ["<error>"]
    }
}

/// The `description` of the QueryError that compiling `query` throws.
func syntaxError(_ query: String, _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> String {
    do {
        _ = try Query(query, arguments: arguments)
        XCTFail("query \(query) compiled, expected an error", file: file, line: line)
        return "<no error>"
    } catch {
        return error.description
    }
}

/// The message of the EvaluationError that evaluating `query` on `element` throws.
func evaluationError(_ query: String, _ arguments: [String] = [], in element: Element, strict: Bool = false,
                     limits: EvaluationLimits = .default, file: StaticString = #filePath, line: UInt = #line) -> String {
    let compiled: Query
    do {
        compiled = try Query(query, arguments: arguments)
    } catch {
        XCTFail("query \(query) does not compile: \(error)", file: file, line: line)
        return "<syntax error>"
    }
    do {
        let results = try compiled.find(in: element, strict: strict, limits: limits)
        XCTFail("query \(query) gave \(results.map(\.text)), expected an evaluation error", file: file, line: line)
        return "<no error>"
    } catch {
        return error.message
    }
}

/// The error `StanzaReader` throws for `xml`, and the names of the stanzas delivered before it.
func readerFailure(_ xml: String, file: StaticString = #filePath, line: UInt = #line) -> (delivered: [String], error: String) {
    var names: [String] = []
    let reader = StanzaReader { names.append($0.name); return true }
    do {
        try reader.feed(Array(xml.utf8))
        try reader.finish()
        XCTFail("no error reading \(xml)", file: file, line: line)
        return (names, "<no error>")
    } catch {
        return (names, "\(error)")
    }
}

/// A clock for ``EvaluationLimits/clock`` that moves only when read, by
/// `step` seconds each time, and counts the reads: time limits met after an
/// exact amount of work, whatever the machine and its load.
final class SteppingClock: @unchecked Sendable {
    private(set) var reads = 0
    let step: Double

    init(step: Double) { self.step = step }

    func read() -> Double {
        reads += 1
        return Double(reads) * step
    }
}

extension EvaluationLimits {
    /// The limits with a clock that never moves: only the step limits apply.
    static func withoutTimeLimit(elementsReached: Int = EvaluationLimits.default.elementsReached,
                                 regularExpressionSteps: Int = EvaluationLimits.default.regularExpressionSteps)
        -> EvaluationLimits {
        EvaluationLimits(elementsReached: elementsReached, regularExpressionSteps: regularExpressionSteps, clock: { 0 })
    }
}
