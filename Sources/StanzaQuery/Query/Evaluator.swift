#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

extension Query {
    /// Evaluates the query on `context`, handing each result to `emit` in
    /// document order until it returns `false`.
    func evaluate(on context: Element, strict: Bool, limits: EvaluationLimits,
                  emit: (QueryValue) -> Bool) throws(EvaluationError) {
        // Every result is charged to the budget of the evaluation's results
        // (which counts duplicates: each is printed), before it is handed on.
        var bytes = 0
        var overBudget = false
        // The sizes of the elements given so far, where one may be given again
        // (a path with `..`); elsewhere each element is given once.
        var elementBytes: [ObjectIdentifier: Int] = [:]
        let repeats = hasParentStep
        // (Passed inline, so the closure does not escape and the variables it
        // changes need no run-time exclusivity checks, one per stanza.)
        try evaluatePath(on: context, strict: strict, limits: limits) { (value: QueryValue) -> Bool in
            if repeats, case .element(let element) = value {
                let id = ObjectIdentifier(element)
                if let known = elementBytes[id] {
                    bytes += known
                } else {
                    let size = element.contentBytes
                    elementBytes[id] = size
                    bytes += size
                }
            } else {
                bytes += value.budgetBytes
            }
            if bytes > limits.resultBytes {
                overBudget = true
                return false
            }
            return emit(value)
        }
        if overBudget {
            throw budgetExceeded(limits)
        }
    }

    private func evaluatePath(on context: Element, strict: Bool, limits: EvaluationLimits,
                              emit: (QueryValue) -> Bool) throws(EvaluationError) {
        if hasAnyDepthStep && !hasParentStep {
            try traverse(context, strict: strict, limits: limits, emit: emit)
            return
        }
        if !hasParentStep {
            // Depth first, with no list of nodes per step: for a path that only
            // descends, this visits matches in the same (document) order.
            _ = try walk(context, step: 0, context: context, strict: strict, limits: limits, emit: emit)
            return
        }
        // A path that climbs with `..` is evaluated breadth first, one list of nodes
        // per step: a depth-first walk would have to merge the results of climbing
        // branches back into document order, and that merge, tried, recursed once
        // per step and overflowed the stack on queries of 10,000 steps (issue 11).
        //
        // `..` keeps duplicates: an element reached a thousand times is a result
        // a thousand times. Its result is made once and shared (a string or a
        // map built per duplicate multiplied memory: `{*}*/..#` on an element
        // with much text and many children held that text once per child).
        var made: [ObjectIdentifier: QueryValue?] = [:]
        for node in try select(from: context, limits: limits) {
            let value: QueryValue?
            if let known = made[ObjectIdentifier(node)] {
                value = known
            } else {
                value = try extractValue(from: node, strict: strict)
                made[ObjectIdentifier(node)] = value
            }
            if let value, !emit(value) { return }
        }
    }

    /// The first result of a path that only descends (no `..`, no `**`), as
    /// ``evaluate(on:strict:limits:emit:)`` stopped at its first result gives
    /// it, with the same charge to the budget of results.
    func firstResult(on context: Element, strict: Bool, limits: EvaluationLimits) throws(EvaluationError) -> QueryValue? {
        guard let value = try first(below: context, step: 0, context: context, strict: strict, limits: limits) else { return nil }
        if value.budgetBytes > limits.resultBytes {
            throw budgetExceeded(limits)
        }
        return value
    }

    /// The first result of steps `index…` at `node`, depth first, as ``walk(_:step:context:strict:limits:emit:)``
    /// meets it.
    private func first(below node: Element, step index: Int, context: Element, strict: Bool,
                       limits: EvaluationLimits) throws(EvaluationError) -> QueryValue? {
        if index == steps.count { return try extractValue(from: node, strict: strict) }
        switch steps[index] {
        case .context(let selector):
            guard try selector.matches(node, inherited: contextNamespace(selector, context), limits: limits) else { return nil }
            return try first(below: node, step: index + 1, context: context, strict: strict, limits: limits)
        case .select(let selector):
            for case .element(let child) in node.children where try selector.matches(child, inherited: node.namespace, limits: limits) {
                if let value = try first(below: child, step: index + 1, context: context, strict: strict, limits: limits) {
                    return value
                }
            }
            return nil
        case .parent, .anyDepth, .keep:
            preconditionFailure("a path with '..' or '**' is evaluated by evaluate(on:strict:limits:emit:)")
        }
    }

    /// Appends every result of steps `index…` at `node` to `results`, depth first,
    /// as ``walk(_:step:context:strict:limits:emit:)`` gives them, charging each to
    /// `bytes` as ``evaluate(on:strict:limits:emit:)`` does (and throwing as it
    /// does when they add up to more than the budget).
    func collectResults(below node: Element, step index: Int, context: Element, strict: Bool, limits: EvaluationLimits,
                        into results: inout [QueryValue], bytes: inout Int) throws(EvaluationError) {
        if index == steps.count {
            guard let value = try extractValue(from: node, strict: strict) else { return }
            bytes += value.budgetBytes
            if bytes > limits.resultBytes {
                throw budgetExceeded(limits)
            }
            results.append(value)
            return
        }
        switch steps[index] {
        case .context(let selector):
            guard try selector.matches(node, inherited: contextNamespace(selector, context), limits: limits) else { return }
            try collectResults(below: node, step: index + 1, context: context, strict: strict, limits: limits,
                               into: &results, bytes: &bytes)
        case .select(let selector):
            for case .element(let child) in node.children where try selector.matches(child, inherited: node.namespace, limits: limits) {
                try collectResults(below: child, step: index + 1, context: context, strict: strict, limits: limits,
                                   into: &results, bytes: &bytes)
            }
        case .parent, .anyDepth, .keep:
            preconditionFailure("a path with '..' or '**' is evaluated by evaluate(on:strict:limits:emit:)")
        }
    }

    /// Matches step `index` at `node` and goes on below it; returns whether to go on.
    private func walk(_ node: Element, step index: Int, context: Element, strict: Bool, limits: EvaluationLimits,
                      emit: (QueryValue) -> Bool) throws(EvaluationError) -> Bool {
        if index == steps.count { return try extract(from: node, strict: strict, emit: emit) }
        if case .context(let selector) = steps[index] {
            guard try selector.matches(node, inherited: contextNamespace(selector, context), limits: limits) else { return true }
            return try walk(node, step: index + 1, context: context, strict: strict, limits: limits, emit: emit)
        }
        guard case .select(let selector) = steps[index] else { return true }
        for case .element(let child) in node.children where try selector.matches(child, inherited: node.namespace, limits: limits) {
            if !(try walk(child, step: index + 1, context: context, strict: strict, limits: limits, emit: emit)) { return false }
        }
        return true
    }

    /// The namespace a rooted first segment, matched against the context node
    /// itself, defaults to: its parent's, or any if it has none (or if the
    /// segment is empty, as in Monal's "/@attr").
    func contextNamespace(_ selector: CompiledSelector, _ context: Element) -> String? {
        selector.syntax.isEmpty ? nil : context.parent?.namespace
    }

    /// The elements the path reaches (stanzaq-query(7), PATH SEGMENTS).
    func select(from context: Element, limits: EvaluationLimits) throws(EvaluationError) -> [Element] {
        var nodes = [context]
        for (index, step) in steps.enumerated() {
            if nodes.isEmpty { break }
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
            case .anyDepth(let column):
                nodes = try selfAndDescendants(of: nodes, column: column, limits: limits)
            case .keep(let selector):
                var kept: [Element] = []
                for node in nodes where try selector.matches(node, inherited: nil, limits: limits) { kept.append(node) }
                nodes = kept
            case .context(let selector):
                let inherited = contextNamespace(selector, context)
                var matching: [Element] = []
                for node in nodes where try selector.matches(node, inherited: inherited, limits: limits) { matching.append(node) }
                nodes = matching
            case .select(let selector) where index > 0 && isAnyDepth(steps[index - 1]):
                // Right after `**`, whose nodes come in document order and include
                // all their descendants, the children of those nodes are the nodes
                // whose parent is one of them: taken in that order, they come in
                // document order too (and each once).
                let reached = Set(nodes.lazy.map(ObjectIdentifier.init))
                var next: [Element] = []
                for node in nodes {
                    guard let parent = node.parent, reached.contains(ObjectIdentifier(parent)),
                          try selector.matches(node, inherited: parent.namespace, limits: limits) else { continue }
                    next.append(node)
                }
                nodes = next
            case .select(let selector):
                var next: [Element] = []
                for node in nodes {
                    for case .element(let child) in node.children
                    where try selector.matches(child, inherited: node.namespace, limits: limits) {
                        next.append(child)
                    }
                    // Duplicates are kept, so each `*/..` multiplies the nodes by the
                    // number of children: bound them before they take all memory.
                    if next.count > limits.elementsReached { throw tooManyNodes(column: selector.syntax.column, limits: limits) }
                }
                nodes = next
            }
        }
        return nodes
    }

    private func budgetExceeded(_ limits: EvaluationLimits) -> EvaluationError {
        EvaluationError("the results add up to more than \(limits.resultBytes) bytes, counting duplicates "
                        + "(evaluation abandoned)")
    }

    private func isAnyDepth(_ step: Step) -> Bool {
        if case .anyDepth = step { return true } else { return false }
    }

    func tooManyNodes(column: Int, limits: EvaluationLimits) -> EvaluationError {
        EvaluationError("the path reaches more than \(limits.elementsReached) elements at column \(column), "
                        + "counting duplicates (evaluation abandoned)")
    }

    /// Emits what the extraction and conversion make of `node`; returns whether to go on.
    func extract(from node: Element, strict: Bool, emit: (QueryValue) -> Bool) throws(EvaluationError) -> Bool {
        guard let value = try extractValue(from: node, strict: strict) else { return true }
        return emit(value)
    }

    /// What the extraction and conversion make of `node`, `nil` for nothing.
    private func extractValue(from node: Element, strict: Bool) throws(EvaluationError) -> QueryValue? {
        let string: String?
        switch syntax.extraction {
        case nil:
            return .element(node)
        case .allAttributes?:
            // The namespace is the attribute xmlns, as in Monal's and Prosody's models.
            let xmlns = node.namespace.isEmpty ? [] : [KeyValue("xmlns", node.namespace)]
            return .attributes(xmlns + node.attributes.map { KeyValue($0.qualifiedName, $0.value) })
        case .attribute?:
            string = extractedAttribute.flatMap(node.value(of:))
        case .text?:
            string = node.text
        case .name?:
            string = node.name
        case .dataForm?:
            guard let result = try dataForm?.evaluate(on: node) else { return nil }
            switch result {
            case .string(let value): string = value
            default: return result
            }
        }
        guard let string else { return nil }
        guard let conversion = syntax.conversion?.conversion else { return .string(string) }
        return try conversion.apply(to: string, strict: strict)
    }
}

extension QueryValue {
    /// What a result counts toward ``EvaluationLimits/resultBytes``: the
    /// UTF-8 bytes of its text, 8 for a number or the like; for an element,
    /// ``Element/contentBytes``.
    var budgetBytes: Int {
        switch self {
        case .element(let element): return element.contentBytes
        case .string(let string): return string.utf8.count
        case .bool, .int, .uint, .double, .dateTime, .uuid: return 8
        case .data(let bytes): return bytes.count
        case .attributes(let map): return map.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        case .field(let field):
            return field.name.utf8.count + (field.desc?.utf8.count ?? 0)
                + field.values.reduce(0) { $0 + $1.utf8.count }
                + field.options.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }
    }
}

extension Query.Step {
    /// Where the segment starts in the query.
    var column: Int {
        switch self {
        case .parent(let column), .anyDepth(let column): return column
        case .keep(let selector): return selector.syntax.column
        case .select(let selector), .context(let selector): return selector.syntax.column
        }
    }
}

extension Element {
    /// What an element result counts toward ``EvaluationLimits/resultBytes``:
    /// the UTF-8 bytes of the names, attribute names and values and text of
    /// the element and all it contains — about what printing it writes.
    var contentBytes: Int {
        var total = 0
        var pending: [Element] = [self]
        while let element = pending.popLast() {
            total += element.name.utf8.count
            for attribute in element.attributes { total += attribute.name.utf8.count + attribute.value.utf8.count }
            for child in element.children {
                switch child {
                case .text(let text): total += text.utf8.count
                case .element(let child): pending.append(child)
                }
            }
        }
        return total
    }
}
