import ArgumentParser
import StanzaQuery

/// Reads `--ns PREFIX=URI` options into the prefix → URI aliases a query is
/// compiled with (stanzaq(1), `--ns`).
func parseNamespaceAliases(_ options: [String]) throws -> [String: String] {
    var aliases: [String: String] = [:]
    for option in options {
        guard let equals = option.firstIndex(of: "=") else {
            throw ValidationError("--ns '\(option)': expected PREFIX=URI")
        }
        let prefix = String(option[..<equals]), uri = String(option[option.index(after: equals)...])
        guard isPrefix(prefix) else {
            throw ValidationError("--ns '\(option)': '\(prefix)' is not a namespace prefix (a name without ':')")
        }
        guard !uri.isEmpty else { throw ValidationError("--ns '\(option)': the URI is empty") }
        if prefix == "xml" && uri != xmlNamespaceURI {
            throw ValidationError("--ns '\(option)': the prefix xml is always bound to \(xmlNamespaceURI)")
        }
        if let earlier = aliases[prefix], earlier != uri {
            throw ValidationError("--ns '\(option)': the prefix \(prefix) is already bound to \(earlier)")
        }
        aliases[prefix] = uri
    }
    return aliases
}

/// An XML name without a colon (an NCName), as a prefix must be.
private func isPrefix(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, !text.contains(":") else { return false }
    if first == "-" || first == "." || ("0"..."9").contains(first) { return false }
    return text.unicodeScalars.allSatisfy {
        $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "." || $0 == "_" || $0.value >= 0x80
    }
}
