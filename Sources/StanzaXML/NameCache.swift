import CLibXML2


/// The strings of the names a parser's dictionary holds, by the pointer
/// libxml2 hands over: made once each, not at every element.
///
/// The slot is taken from the top bits of the pointer times a large odd
/// constant (Fibonacci hashing): the dictionary packs short names a few bytes
/// apart, so the pointer's low bits alone sent neighbours to one slot, and
/// many lookups missed.
///
/// The slots are memory of its own, not two arrays: a reader that reads a few
/// stanzas (one of a window of a log) paid dearly to destroy an array of
/// 1024 strings, most of them never set.
final class NameCache {
    private static let slots = 1024
    private static let slotShift = UInt(UInt.bitWidth - 10)   // log2(slots) top bits
    private let keys: UnsafeMutablePointer<UnsafeRawPointer?>
    /// Initialised where the key is not nil.
    private let values: UnsafeMutablePointer<String>

    init() {
        keys = .allocate(capacity: Self.slots)
        keys.initialize(repeating: nil, count: Self.slots)
        values = .allocate(capacity: Self.slots)
    }

    deinit {
        clear()
        keys.deallocate()
        values.deallocate()
    }

    @inline(__always)
    func name(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        let key = UnsafeRawPointer(pointer)
        let slot = Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> Self.slotShift)
        if keys[slot] == key { return values[slot] }
        let string = String(cString: pointer)
        if keys[slot] == nil {
            (values + slot).initialize(to: string)
        } else {
            values[slot] = string
        }
        keys[slot] = key
        return string
    }

    /// Forgets every name: a new parser has a new dictionary, whose pointers may
    /// be reused for other names.
    func clear() {
        for slot in 0..<Self.slots where keys[slot] != nil {
            (values + slot).deinitialize(count: 1)
            keys[slot] = nil
        }
    }
}
