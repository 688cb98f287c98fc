extension Query {
    /// Evaluates a data-form subquery (SPEC 3.6) on one `{jabber:x:data}x`
    /// element; `nil` when the form does not qualify or has no such field.
    /// A field's value comes back as `.string` so that conversions apply.
    func evaluateDataForm(_ query: QuerySyntax.DataFormSyntax, on form: Element) throws(EvaluationError) -> QueryValue? {
        guard form.name == "x" && form.namespace == dataFormsNamespace else {
            throw EvaluationError(
                "the data-form subquery at column \(query.column) met <\(form.qualifiedName)> in namespace '\(form.namespace)', which is not a {jabber:x:data}x form")
        }
        if let formType = query.formType {
            // FORM_TYPE is a field of the form itself, never one inside an <item/>.
            guard let field = form.formChildren("field").first(where: { $0.attribute("var") == "FORM_TYPE" }),
                  field.formChildren("value").first?.text == formType else { return nil }
        }
        if let typeMatcher {
            guard let type = form.attribute("type"), typeMatcher.matches(type) else { return nil }
        }
        let items = form.formChildren("item")
        let container: Element
        if let index = query.index {
            guard index < items.count else { return nil }
            container = items[index]
        } else {
            container = items.first ?? form
        }
        guard let fieldPart = query.field, let fieldMatcher else { return .element(form) }
        guard let field = container.formChildren("field").first(where: { $0.attribute("var").map(fieldMatcher.matches) ?? false })
        else { return nil }
        let firstValue = field.formChildren("value").first?.text
        switch fieldPart {
        case .value:
            return firstValue.map(QueryValue.string)
        case .description:
            var type = field.attribute("type")
            if container !== form, let name = field.attribute("var") {
                // In an item, the field's type is declared in <reported/>.
                let reported = form.formChildren("reported").first?.formChildren("field")
                    .first { $0.attribute("var") == name }
                type = reported?.attribute("type") ?? type
            }
            return .field(FieldDescription(
                name: field.attribute("var") ?? "",
                type: type,
                value: firstValue,
                values: field.formChildren("value").map { $0.text ?? "" },
                options: field.formChildren("option").map { option in
                    let value = option.formChildren("value").first?.text ?? ""
                    return KeyValue(value, option.attribute("label") ?? value)
                },
                desc: field.formChildren("desc").first?.text,
                required: !field.formChildren("required").isEmpty))
        }
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
}
