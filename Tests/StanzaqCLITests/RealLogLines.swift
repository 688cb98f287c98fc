import Foundation
import StanzaqTestSupport

/// The real-software logs of Tests/Fixtures/real-logs as the envelope tests
/// wrap them: their names, their lines, two of them interleaved, a line as a
/// JSON string.
enum RealLogLines {
    static let folder = PackagePaths.file("Tests/Fixtures/real-logs/logs")

    /// The logs' names, in order.
    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".log") }.sorted()
    }

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// What makes stanzaq read a log as a log: go-xmpp's debug output starts
    /// with the server's stream header, `<`, which is XML unless `--log` says otherwise.
    static func reading(_ name: String) throws -> [String] {
        try startsWithTag(name) ? ["--log"] : []
    }

    /// Whether the log's first byte is `<` (go-xmpp's).
    static func startsWithTag(_ name: String) throws -> Bool {
        try Data(contentsOf: folder.appendingPathComponent(name)).first == 0x3C
    }

    /// The lines of a log, without their line feeds.
    static func lines(of name: String) throws -> [String] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Two programs' lines as one stream shows them: `take.0` of the first's, each
    /// after `prefix.0`, then `take.1` of the second's, after `prefix.1`, and so on.
    static func interleaved(_ first: [String], _ second: [String], take: (Int, Int), prefix: (String, String)) -> String {
        var mixed = "", firstIndex = 0, secondIndex = 0
        while firstIndex < first.count || secondIndex < second.count {
            for _ in 0..<take.0 where firstIndex < first.count {
                mixed += prefix.0 + first[firstIndex] + "\n"
                firstIndex += 1
            }
            for _ in 0..<take.1 where secondIndex < second.count {
                mixed += prefix.1 + second[secondIndex] + "\n"
                secondIndex += 1
            }
        }
        return mixed
    }

    /// `text` as a JSON string: `/` as `\/` where Apple's and PHP's writers put
    /// it so (`escapingSlash`), `<`, `>`, `&` as Go's encoding/json writes them
    /// (`goEscapes`).
    static func jsonString(_ text: String, escapingSlash: Bool = false, goEscapes: Bool = false) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escapingSlash: out += "\\/"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "<" where goEscapes: out += "\\u003c"
            case ">" where goEscapes: out += "\\u003e"
            case "&" where goEscapes: out += "\\u0026"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
