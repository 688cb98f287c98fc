extension Query {
    /// Evaluates the query on `context`, handing each result to `emit` in
    /// document order until it returns `false`.
    func evaluate(on context: Element, strict: Bool, limits: EvaluationLimits,
                  emit: (QueryValue) -> Bool) throws(EvaluationError) {
        if !hasParentStep {
            // Depth first, with no list of nodes per step: for a path that only
            // descends, this visits matches in the same (document) order.
            _ = try walk(context, step: 0, context: context, strict: strict, limits: limits, emit: emit)
            return
        }
        for node in try select(from: context, limits: limits) {
            if !(try extract(from: node, strict: strict, emit: emit)) { return }
        }
    }

    /// Matches step `index` at `node` and goes on below it; returns whether to go on.
    private func walk(_ node: Element, step index: Int, context: Element, strict: Bool, limits: EvaluationLimits,
                      emit: (QueryValue) -> Bool) throws(EvaluationError) -> Bool {
        if index == steps.count { return try extract(from: node, strict: strict, emit: emit) }
        guard case .select(let selector) = steps[index] else { return true }
        if syntax.rooted && index == 0 {
            guard try selector.matches(node, inherited: contextNamespace(selector, context), limits: limits) else { return true }
            return try walk(node, step: 1, context: context, strict: strict, limits: limits, emit: emit)
        }
        for case .element(let child) in node.children where try selector.matches(child, inherited: node.namespace, limits: limits) {
            if !(try walk(child, step: index + 1, context: context, strict: strict, limits: limits, emit: emit)) { return false }
        }
        return true
    }

    /// The namespace a rooted first segment, matched against the context node
    /// itself, defaults to: its parent's, or any if it has none (or if the
    /// segment is empty, as in Monal's "/@attr").
    private func contextNamespace(_ selector: CompiledSelector, _ context: Element) -> String? {
        selector.syntax.isEmpty ? nil : context.parent?.namespace
    }

    /// The elements the path reaches (SPEC 3.2).
    func select(from context: Element, limits: EvaluationLimits) throws(EvaluationError) -> [Element] {
        var nodes = [context]
        for (index, step) in steps.enumerated() {
            if nodes.isEmpty { break }
            let onContext = syntax.rooted && index == 0
            switch step {
            case .parent(let column):
                var parents: [Element] = []
                parents.reserveCapacity(nodes.count)
                for node in nodes {
                    guard let parent = node.parent else {
                        throw EvaluationError("'..' at column \(column) climbs above <\(node.qualifiedName)>, the root of the stanza")
                    }
                    parents.append(parent)
                }
                nodes = parents
            case .select(let selector) where onContext:
                let inherited = contextNamespace(selector, context)
                var matching: [Element] = []
                for node in nodes where try selector.matches(node, inherited: inherited, limits: limits) { matching.append(node) }
                nodes = matching
            case .select(let selector):
                var next: [Element] = []
                for node in nodes {
                    for case .element(let child) in node.children
                    where try selector.matches(child, inherited: node.namespace, limits: limits) {
                        next.append(child)
                    }
                    // Duplicates are kept, so each `*/..` multiplies the nodes by the
                    // number of children: bound them before they take all memory.
                    if next.count > limits.elementsReached {
                        throw EvaluationError("the path reaches more than \(limits.elementsReached) elements at column "
                                              + "\(selector.syntax.column), counting duplicates (evaluation abandoned)")
                    }
                }
                nodes = next
            }
        }
        return nodes
    }

    /// Emits what the extraction and conversion make of `node`; returns whether to go on.
    private func extract(from node: Element, strict: Bool, emit: (QueryValue) -> Bool) throws(EvaluationError) -> Bool {
        let string: String?
        switch syntax.extraction {
        case nil:
            return emit(.element(node))
        case .allAttributes?:
            return emit(.attributes([KeyValue("xmlns", node.namespace)] + node.attributes.map { KeyValue($0.qualifiedName, $0.value) }))
        case .attribute(let attribute)?:
            string = node.value(of: attribute)
        case .text?:
            string = node.text
        case .name?:
            string = node.name
        case .dataForm(let form)?:
            guard let result = try evaluateDataForm(form, on: node) else { return true }
            switch result {
            case .string(let value): string = value
            default: return emit(result)
            }
        }
        guard let string else { return true }
        guard let conversion = syntax.conversion?.conversion else { return emit(.string(string)) }
        guard let converted = try conversion.apply(to: string, strict: strict) else { return true }
        return emit(converted)
    }
}

extension Element {
    /// `prefix:name` as written, or `name`.
    public var qualifiedName: String {
        prefix.map { $0 + ":" + name } ?? name
    }
}
