/// Evicts the oldest entry whose reference bit is clear; a set bit buys the entry a second
/// pass instead (cleared, moved to the newest end).
///
/// Corbató's clock ("A Paging Experiment with the Multics System", 1968) with one reference bit,
/// as libCacheSim's `Clock` runs it by default (`init-freq=0`, `n-bit-counter=1`): an entry
/// enters with its bit clear, a hit sets it, and the hand is the oldest end of one FIFO queue.
/// Matches libCacheSim's `Clock` exactly.
///
/// - Complexity: O(1) access and insert; evict O(1) amortized (every entry it passes over had its
///   bit set by a hit since it was last passed).
/// - Invariant: `order` holds exactly the live slots, the next one the hand looks at first.
public struct CLOCKPolicy: PrefetchingPolicy {
    public static let libCacheSimName: String? = "Clock"
    public static let summary = "FIFO giving hit entries a second chance (libCacheSim Clock)"

    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var order = SlotList()
    @usableFromInline package let referenced = SlotArray<Bool>(count: 0, filling: false)

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        referenced.grow(to: slotCount, filling: false)
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        referenced[slot] = false
        order.append(slot, in: links)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) { referenced[slot] = true }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { order.remove(slot, in: links) }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        while referenced[order.head] {
            let second = order.head
            referenced[second] = false
            order.moveToTail(second, in: links)
        }
        return order.removeHead(in: links)
    }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { order.first }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
    }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        if !settled { referenced.prefetch(Int(slot)) }
    }

    @inlinable public mutating func removeAll() { order.removeAll() }

    @inlinable public func checkedSlots() -> [Int32] {
        order.checkInvariants(in: links, name: "CLOCK")
        return order.slots(in: links)
    }

    /// Whether `slot`'s reference bit is set (for tests).
    @inlinable package func isReferenced(_ slot: Int32) -> Bool { referenced[slot] }
}
