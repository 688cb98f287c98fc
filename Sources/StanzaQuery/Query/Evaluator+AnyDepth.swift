#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// Paths with `**` (stanzaq-query(7), EXTENSIONS): the nodes reached and all
/// their descendants, each once, in document order.
extension Query {
    /// `**` in a path with `..`: the nodes reached and all their descendants,
    /// each once, in document order, however often and in whatever order the
    /// nodes were reached.
    func selfAndDescendants(of nodes: [Element], column: Int, limits: EvaluationLimits) throws(EvaluationError) -> [Element] {
        guard let first = nodes.first else { return [] }
        let reached = Set(nodes.lazy.map(ObjectIdentifier.init))
        // Mark the ancestors of the reached nodes, then walk down from the root
        // of their tree (they all share it) into marked subtrees only.
        var onTheWay = Set<ObjectIdentifier>()
        for node in nodes {
            var ancestor = node.parent
            while let current = ancestor, onTheWay.insert(ObjectIdentifier(current)).inserted {
                ancestor = current.parent
            }
        }
        var root = first
        while let parent = root.parent { root = parent }
        var result: [Element] = []
        var stack: [(element: Element, inside: Bool)] = [(root, false)]
        while let (element, parentInside) = stack.popLast() {
            let inside = parentInside || reached.contains(ObjectIdentifier(element))
            if inside {
                result.append(element)
                if result.count > limits.elementsReached { throw tooManyNodes(column: column, limits: limits) }
            }
            for case .element(let child) in element.children.reversed()
            where inside || onTheWay.contains(ObjectIdentifier(child)) || reached.contains(ObjectIdentifier(child)) {
                stack.append((child, inside))
            }
        }
        return result
    }

    /// Evaluates a path with `**` and no `..` in one depth-first walk over the
    /// context node's subtree, so that results come in document order, each
    /// element once.
    ///
    /// Such a path reaches, at each step, a set of elements that can be told
    /// from an element and its parent alone: the element is reached at step k
    /// when k selects children and its parent was reached at step k-1 and it
    /// matches, or k is `**` and it was reached at step k-1 or its parent at
    /// step k. So the walk keeps one row of flags (one per step) for each
    /// element on the path from the context node, and emits the elements
    /// reached at the last step as it meets them.
    func traverse(_ context: Element, strict: Bool, limits: EvaluationLimits, emit: (QueryValue) -> Bool) throws(EvaluationError) {
        let width = steps.count + 1
        var rows: [Bool] = []           // the rows of the elements on the current path, one after another
        var counts = [Int](repeating: 0, count: width)
        var stack: [(element: Element, next: Int)] = []

        // Fills the row of `element` (child of the element whose row starts at
        // `parentRow`, if any); returns whether anything below it can be reached.
        func enter(_ element: Element, parentRow: Int?) throws(EvaluationError) -> Bool {
            let row = rows.count
            rows.append(parentRow == nil)    // step 0: the context node
            var descend = parentRow == nil   // (the first step looks below it)
            for (index, step) in steps.enumerated() {
                let k = index + 1
                let reached: Bool
                switch step {
                case .parent:
                    preconditionFailure("a path with '..' is evaluated step by step")
                case .anyDepth:
                    reached = rows[row + k - 1] || (parentRow.map { rows[$0 + k] } ?? false)
                    if reached { descend = true }
                case .keep(let selector):
                    // The element itself, reached by the `**` before.
                    if rows[row + k - 1] {
                        reached = try selector.matches(element, inherited: nil, limits: limits)
                    } else {
                        reached = false
                    }
                case .context(let selector):
                    if parentRow == nil {
                        reached = try selector.matches(element, inherited: contextNamespace(selector, context), limits: limits)
                    } else {
                        reached = false
                    }
                case .select(let selector):
                    if let parentRow, rows[parentRow + k - 1], let parent = element.parent {
                        reached = try selector.matches(element, inherited: parent.namespace, limits: limits)
                    } else {
                        reached = false
                    }
                }
                rows.append(reached)
                if reached {
                    counts[k] += 1
                    if counts[k] > limits.elementsReached { throw tooManyNodes(column: step.column, limits: limits) }
                    if k < width - 1 { descend = true }
                }
            }
            return descend
        }

        if try enter(context, parentRow: nil) { stack.append((context, 0)) }
        if rows[width - 1], !(try extract(from: context, strict: strict, emit: emit)) { return }
        while let (element, next) = stack.last {
            // The next child element of the element on top, if any.
            var index = next
            while index < element.children.count, case .text = element.children[index] { index += 1 }
            guard index < element.children.count, case .element(let child) = element.children[index] else {
                stack.removeLast()
                rows.removeLast(width)
                continue
            }
            stack[stack.count - 1].next = index + 1
            let parentRow = (stack.count - 1) * width
            let descend = try enter(child, parentRow: parentRow)
            if rows[rows.count - 1], !(try extract(from: child, strict: strict, emit: emit)) { return }
            if descend {
                stack.append((child, 0))
            } else {
                rows.removeLast(width)
            }
        }
    }
}
