#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// What the whole-stanza test found at each stanza's start tag (whether a
/// query had a result), kept until the searcher takes the stanza up, in
/// input order. A class with unchecked storage: as variables captured by the
/// reader's callback and the searcher's handler, each access was checked for
/// exclusivity at run time, and removing the first entry moved all the others.
final class StartTagDecisions {
    @exclusivity(unchecked) private var entries: [(stanza: Element?, hasResult: Bool)] = []
    /// Entries before this one are done with.
    @exclusivity(unchecked) private var head = 0

    var isEmpty: Bool { head == entries.count }

    func record(_ stanza: Element, hasResult: Bool) {
        entries.append((stanza, hasResult))
    }

    /// The answer for `stanza`, if one was recorded; those before it were for
    /// stanzas never handed over (damaged) and are dropped with it.
    func take(_ stanza: Element) -> Bool? {
        var index = head
        while index < entries.count {
            if entries[index].stanza === stanza {
                let hasResult = entries[index].hasResult
                for done in head...index { entries[done].stanza = nil }
                head = index + 1
                if head == entries.count {
                    entries.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 64 {
                    entries.removeFirst(head)
                    head = 0
                }
                return hasResult
            }
            index += 1
        }
        return nil
    }
}
