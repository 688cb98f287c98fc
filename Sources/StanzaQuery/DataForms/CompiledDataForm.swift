#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// A data-form subquery (stanzaq-query(7), DATA FORMS) compiled once with
/// its query: the field name ready to compare as Monal's `field<var=%@>`
/// filter compares it.
struct CompiledDataForm {
    let syntax: QuerySyntax.DataFormSyntax
    /// Field names compare as an `=` filter does (ignoring case): Monal finds
    /// the field with `field<var=%@>`.
    let fieldMatcher: CaselessMatcher?

    /// How many levels below the form the subquery reads:
    /// `<x/>` → `<item/>` → `<field/>` → `<option/>` → `<value/>`.
    static let reach = 4

    init(_ syntax: QuerySyntax.DataFormSyntax) {
        self.syntax = syntax
        switch syntax.field {
        case .value(let name)?, .description(let name)?: fieldMatcher = CaselessMatcher(name)
        case nil: fieldMatcher = nil
        }
    }

    /// Whether the form's `type` attribute is the one asked for: exactly, as
    /// Monal compares it (`isEqualToString:`); any type when none is asked.
    func acceptsType(of form: Element) -> Bool {
        guard let type = syntax.type else { return true }
        return form.attribute("type") == type
    }
}
