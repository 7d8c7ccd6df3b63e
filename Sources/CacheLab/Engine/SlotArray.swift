import CPrefetch

/// Fixed-capacity storage indexed by slot number, for the engine's and the policies' per-entry
/// fields. Unlike `Array` it is a reference with no copy-on-write, so a write is one store: no
/// uniqueness check, no reallocation. It grows only when asked to (`grow(to:filling:)`).
///
/// Its owner (a `Cache` or one of its policies) is the only user; it is never shared.
/// Indices are checked in debug builds only.
///
/// Its allocations are charged to `StorageLedger.current`, if any, so a replay can report what
/// its cache's bookkeeping costs.
final class SlotArray<Element> {
    private(set) var count: Int
    private var base: UnsafeMutablePointer<Element>
    private let ledger = StorageLedger.current

    init(count: Int, filling value: Element) {
        self.count = count
        base = .allocate(capacity: Swift.max(count, 1))
        base.initialize(repeating: value, count: count)
        ledger?.record(Self.bytes(Swift.max(count, 1)))
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
        ledger?.record(-Self.bytes(Swift.max(count, 1)))
    }

    private static func bytes(_ count: Int) -> Int { count * MemoryLayout<Element>.stride }

    // Addressors rather than get/set, so `array[i].field = x` is one store in place.
    subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress {
            assert(index >= 0 && index < count, "SlotArray index \(index) out of 0..<\(count)")
            return UnsafePointer(base + index)
        }
        @inline(__always) unsafeMutableAddress {
            assert(index >= 0 && index < count, "SlotArray index \(index) out of 0..<\(count)")
            return base + index
        }
    }

    subscript(slot: Int32) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(base + Int(slot)) }
        @inline(__always) unsafeMutableAddress { base + Int(slot) }
    }

    /// Starts loading element `index`'s cache line (a hint; out-of-range indices are not read).
    @inline(__always)
    func prefetch(_ index: Int) {
        cachelab_prefetch(UnsafeRawPointer(base + index))
    }

    /// Grows to `newCount` elements, the new ones set to `value`. Never shrinks.
    func grow(to newCount: Int, filling value: Element) {
        guard newCount > count else { return }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCount)
        grown.moveInitialize(from: base, count: count)
        (grown + count).initialize(repeating: value, count: newCount - count)
        base.deallocate()
        base = grown
        // One entry for the swap, so the ledger's peak is the new size, not old plus new.
        ledger?.record(Self.bytes(newCount) - Self.bytes(Swift.max(count, 1)))
        count = newCount
    }

    /// Sets every element to `value`.
    func fill(with value: Element) {
        for index in 0..<count { base[index] = value }
    }
}
