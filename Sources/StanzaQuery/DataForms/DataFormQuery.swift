#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

extension CompiledDataForm {
    /// Evaluates the subquery on one element, which must be a
    /// `{jabber:x:data}x` form; `nil` when the form does not qualify or has no
    /// such field. A field's value comes back as `.string` so that conversions
    /// apply.
    func evaluate(on form: Element) throws(EvaluationError) -> QueryValue? {
        guard form.name == "x" && form.namespace == dataFormsNamespace else {
            throw EvaluationError(
                "the data-form subquery at column \(syntax.column) met <\(form.qualifiedName)> in namespace '\(form.namespace)', which is not a {jabber:x:data}x form")
        }
        if let formType = syntax.formType {
            // FORM_TYPE is a field of the form itself, never one inside an <item/>.
            guard let field = form.formChildren("field").first(where: { $0.attribute("var") == "FORM_TYPE" }),
                  field.formChildren("value").first?.text == formType else { return nil }
        }
        guard acceptsType(of: form) else { return nil }
        let items = form.formChildren("item")
        let container: Element
        if let index = syntax.index {
            guard index < items.count else { return nil }
            container = items[index]
        } else {
            container = items.first ?? form
        }
        guard let fieldPart = syntax.field, let fieldMatcher else { return .element(form) }
        // Monal reads a field as findFirst:@"field<var=%@>/value#": every field
        // with that name, in order, and the first of their values that has text.
        let fields = container.formChildren("field").filter { $0.attribute("var").map(fieldMatcher.matches) ?? false }
        guard let field = fields.first else { return nil }
        switch fieldPart {
        case .value:
            for field in fields {
                if let value = field.values.first { return .string(value) }
            }
            return nil
        case .description:
            return .field(describe(field, in: form, indexed: syntax.index != nil))
        }
    }

    /// `%field`: the field as Monal's `getField:` describes it.
    private func describe(_ field: Element, in form: Element, indexed: Bool) -> FieldDescription {
        // The type of a field of an indexed item is the one <reported/> declares
        // for it, if <reported/> has the field (even without a type); otherwise,
        // and without an index, the field's own.
        var typeSource = field
        if indexed, let fieldMatcher, let reported = form.formChildren("reported").first?.formChildren("field")
            .first(where: { $0.attribute("var").map(fieldMatcher.matches) ?? false }) {
            typeSource = reported
        }
        var options: [KeyValue] = []
        for option in field.formChildren("option") {
            let value = option.formChildren("value").first?.text ?? ""
            let label = option.attribute("label") ?? value
            // One key per value, as in Monal's dictionary: a later label replaces the earlier.
            if let index = options.firstIndex(where: { $0.key == value }) {
                options[index].value = label
            } else {
                options.append(KeyValue(value, label))
            }
        }
        let values = field.values
        return FieldDescription(
            name: field.attribute("var") ?? "",
            type: typeSource.attribute("type"),
            value: values.first,
            values: values,
            options: options,
            desc: field.formChildren("desc").first?.text,
            required: !field.formChildren("required").isEmpty)
    }
}

extension Element {
    /// Child elements with this name in the data-forms namespace.
    fileprivate func formChildren(_ name: String) -> [Element] {
        var result: [Element] = []
        for case .element(let child) in children where child.name == name && child.namespace == dataFormsNamespace {
            result.append(child)
        }
        return result
    }

    /// The texts of a field's `<value/>`s that have text: an empty `<value/>`
    /// is no value, as `#` of an empty element is no text.
    fileprivate var values: [String] {
        formChildren("value").compactMap(\.text)
    }
}
