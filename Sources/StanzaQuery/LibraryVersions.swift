import CICU
import CLibXML2
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// The versions of the libraries whose behaviour shows in results and messages,
/// for bug reports (`stanzaq --version`): libxml2 writes the texts of XML errors,
/// the system's ICU runs regular expressions and case folding.
public enum LibraryVersions {
    /// libxml2's version in use, from the library itself (`xmlParserVersion`,
    /// e.g. `20914` for 2.9.14), with the version of the headers stanzaq was built
    /// with when they differ.
    public static var libxml2: String {
        let running = __xmlParserVersion()?.pointee.map { dotted(String(cString: $0)) } ?? "unknown"
        let built = LIBXML_DOTTED_VERSION
        return running == built ? running : "\(running) (built with \(built))"
    }

    /// The version of the system's ICU in use (its `u_getVersion`), e.g. `72.1`,
    /// with the version of the headers stanzaq was built with when they differ.
    public static var icu: String {
        var version: [UInt8] = [0, 0, 0, 0]
        stanzaq_icu_version(&version)
        // ICU prints its versions without trailing zero parts, at least major.minor.
        var parts = version
        while parts.count > 2, parts.last == 0 { parts.removeLast() }
        let running = parts.map(String.init).joined(separator: ".")
        let built = String(cString: stanzaq_icu_built_version())
        return running == built ? running : "\(running) (built with \(built))"
    }

    /// libxml2's numeric version (`MMmmpp`) as `M.m.p`.
    private static func dotted(_ number: String) -> String {
        guard let value = Int(number) else { return number }
        return "\(value / 10000).\(value / 100 % 100).\(value % 100)"
    }
}
