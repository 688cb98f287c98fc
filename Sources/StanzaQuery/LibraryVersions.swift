import _FoundationICU
import CLibXML2
import Foundation
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// The versions of the libraries whose behaviour shows in results and messages,
/// for bug reports (`stanzaq --version`): libxml2 writes the texts of XML errors,
/// ICU (Foundation's) runs regular expressions and case folding.
public enum LibraryVersions {
    /// libxml2's version in use, from the library itself (`xmlParserVersion`,
    /// e.g. `20914` for 2.9.14), with the version of the headers stanzaq was built
    /// with when they differ.
    public static var libxml2: String {
        let running = __xmlParserVersion()?.pointee.map { dotted(String(cString: $0)) } ?? "unknown"
        let built = LIBXML_DOTTED_VERSION
        return running == built ? running : "\(running) (built with \(built))"
    }

    /// The version of the ICU that Foundation uses (its `u_getVersion`), e.g. `74.1`.
    public static var icu: String {
        var version: [UInt8] = [0, 0, 0, 0]
        swift_u_getVersion(&version)
        // ICU prints its versions without trailing zero parts, at least major.minor.
        var parts = version
        while parts.count > 2, parts.last == 0 { parts.removeLast() }
        return parts.map(String.init).joined(separator: ".")
    }

    /// libxml2's numeric version (`MMmmpp`) as `M.m.p`.
    private static func dotted(_ number: String) -> String {
        guard let value = Int(number) else { return number }
        return "\(value / 10000).\(value / 100 % 100).\(value % 100)"
    }
}
