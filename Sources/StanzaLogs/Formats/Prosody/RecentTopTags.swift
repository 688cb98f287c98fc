#if canImport(StanzaXML)
import StanzaXML
#endif

/// The top tags of the whole stanzas a channel logged lately: the last 8, the
/// oldest forgotten first. Their buffers are reused, as a tag is remembered for
/// nearly every record of a Prosody log.
struct RecentTopTags: Equatable, Sendable {
    private var tags: [[UInt8]] = []
    /// When each tag was remembered; 0: the slot is free.
    private var ages: [Int] = []
    private var clock = 0
    private static let limit = 8

    mutating func remember(_ tag: UnsafeBufferPointer<UInt8>) {
        clock += 1
        var slot = ages.firstIndex(of: 0)
        if slot == nil {
            if tags.count < Self.limit {
                tags.append([])
                ages.append(0)
                slot = tags.count - 1
            } else {
                slot = ages.indices.min { ages[$0] < ages[$1] }
            }
        }
        let index = slot!
        tags[index].removeAll(keepingCapacity: true)
        tags[index].append(contentsOf: tag)
        ages[index] = clock
    }

    /// Forgets the oldest tag equal to `tag`: whether there was one.
    mutating func forget(_ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        var found: Int?
        for index in tags.indices where ages[index] != 0 && tags[index].count == tag.count {
            guard found == nil || ages[index] < ages[found!] else { continue }
            if tags[index].withUnsafeBufferPointer({ sameStartTag($0, tag) }) {
                found = index
            }
        }
        guard let found else { return false }
        ages[found] = 0
        return true
    }
}
