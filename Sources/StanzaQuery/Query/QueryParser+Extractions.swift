#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// Extractions (`@`, `@@`, `#`, `$`, data forms) and conversions (`|int`…).
extension QueryParser {
    // MARK: Extraction and conversion

    mutating func parseExtraction() throws(QueryError) -> QuerySyntax.Extraction? {
        if scanner.eat("@") {
            if scanner.eat("@") { return .allAttributes }
            return .attribute(try parseAttributeName(after: "'@'"))
        }
        if scanner.eat("#") { return .text }
        if scanner.eat("$") { return .name }
        if scanner.peek == "\\" { return .dataForm(try parseDataForm()) }
        return nil
    }

    /// `\{FORM_TYPE}type[index]@field\`. Queries copied from Objective-C
    /// source double the backslashes (`\\…\\`); that spelling is accepted too.
    mutating func parseDataForm() throws(QueryError) -> QuerySyntax.DataFormSyntax {
        let column = scanner.column
        _ = scanner.eat("\\")
        let doubled = scanner.peek == "\\" && scanner.peek(1) != nil && scanner.peek(1) != "|"
        if doubled { scanner.advance() }
        var form = QuerySyntax.DataFormSyntax(formType: nil, type: nil, index: nil, field: nil, column: column)
        if scanner.peek == "{" {
            form.formType = try parseBraced(what: "FORM_TYPE", allowStar: true)
        }
        if scanner.eat("*") {
            form.type = nil
        } else {
            let type = scanner.name()
            if !type.isEmpty { form.type = type }
        }
        if scanner.peek == "[" {
            let open = scanner.column
            scanner.advance()
            let digits = scanner.read { ("0"..."9").contains($0) }
            guard !digits.isEmpty else {
                throw scanner.error("expected an item index (0, 1, …) after '['", at: open + 1)
            }
            // An index beyond Int is beyond every form's items: no result, not an error.
            let index = Int(digits) ?? Int.max
            guard scanner.eat("]") else { throw scanner.error("expected ']' to close the item index") }
            form.index = index
        }
        if let sigil = scanner.peek, sigil == "@" || sigil == "%" || sigil == "&" {
            scanner.advance()
            let field = scanner.read(while: isFieldNameScalar)
            if field.isEmpty {
                throw scanner.error("expected a field name after '\(Character(sigil))'")
            }
            form.field = sigil == "@" ? .value(field) : .description(field)
        }
        let closing = doubled ? "\\\\" : "\\"
        guard scanner.eat(closing) else {
            throw scanner.error("expected '\(closing)' to close the data-form subquery opened at column \(column), found \(scanner.describeNext)")
        }
        return form
    }

    /// A data-form subquery in a segment that names neither element nor
    /// namespace reads `{jabber:x:data}x` there (stanzaq-query(7), DATA FORMS).
    func defaultToForm(_ syntax: inout QuerySyntax, column: Int) throws(QueryError) {
        guard case .select(var selector)? = syntax.steps.last else {
            if syntax.steps.isEmpty {
                // A bare `\…\`: the forms among the context node's children.
                syntax.steps = [.select(.init(namespace: .uri(dataFormsNamespace), name: .named("x"), filters: [], column: column))]
            }
            if case .anyDepth? = syntax.steps.last {
                // `**` reaches every element, and most are not forms.
                throw scanner.error("a data-form subquery after '**' would read every element as a form: write **/\\…\\ for the forms at any depth", at: column)
            }
            // After '..' the subquery reads the node reached, which must be a form
            // (checked on each stanza): it is an extraction like any other.
            return
        }
        if selector.isEmpty {
            selector.namespace = .uri(dataFormsNamespace)
            selector.name = .named("x")
            syntax.steps[syntax.steps.count - 1] = .select(selector)
            return
        }
        var names: String? = nil
        if case .uri(let uri) = selector.namespace, uri != dataFormsNamespace { names = "{\(uri)}" }
        if case .named(let name) = selector.name, name != "x" { names = (names ?? "") + name }
        if case .notNamed("x") = selector.name { names = "!x" }
        if let names {
            throw scanner.error("a data-form subquery reads {jabber:x:data}x forms, but this segment selects \(names)", at: selector.column)
        }
    }

    mutating func parseConversion(after extraction: QuerySyntax.Extraction?) throws(QueryError) -> QuerySyntax.ConversionSyntax {
        let column = scanner.column
        _ = scanner.eat("|")
        let name = scanner.read { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        guard !name.isEmpty else {
            throw scanner.error("expected a conversion after '|' (\(conversionList))")
        }
        guard let conversion = Conversion(rawValue: name) else {
            throw scanner.error("unknown conversion '\(name)' (conversions: \(conversionList))", at: column + 1)
        }
        switch extraction {
        case nil:
            throw scanner.error("a conversion needs an extraction before it (@attr, # or $), as in @h|int", at: column)
        case .allAttributes?:
            throw scanner.error("'@@' gives all attributes at once and cannot be converted", at: column)
        case .dataForm(let form)?:
            switch form.field {
            case .value?: break
            case .description?: throw scanner.error("a field description (%field, &field) cannot be converted", at: column)
            case nil: throw scanner.error("a data-form subquery without @field gives the form and cannot be converted", at: column)
            }
        default: break
        }
        return .init(conversion: conversion, column: column + 1)
    }
}
