/// Evicts the entry inserted first; hits change nothing.
///
/// Matches libCacheSim's `FIFO` exactly.
///
/// - Complexity: O(1) access (nothing to do), insert and evict.
/// - Invariant: `order` holds exactly the live slots, oldest insertion first.
public struct FIFOPolicy: PrefetchingPolicy {
    public static let libCacheSimName: String? = "FIFO"
    public static let summary = "first inserted first; hits change nothing (libCacheSim FIFO)"

    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var order = SlotList()

    // A hit touches nothing of the policy's: nothing to load ahead of it.
    @inlinable public static var prefetchesHits: Bool { false }

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func grow(to slotCount: Int) { links.grow(to: slotCount) }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) { order.append(slot, in: links) }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {}

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { order.remove(slot, in: links) }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? { order.removeHead(in: links) }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { order.first }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
    }

    @inlinable public mutating func removeAll() { order.removeAll() }

    @inlinable public func checkedSlots() -> [Int32] {
        order.checkInvariants(in: links, name: "FIFO")
        return order.slots(in: links)
    }
}
