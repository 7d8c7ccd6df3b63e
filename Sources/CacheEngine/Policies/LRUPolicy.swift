/// Evicts the least recently used entry first.
///
/// A hit moves the entry to the most-recent end; the victim is the other end. Matches
/// libCacheSim's `LRU` exactly.
///
/// - Complexity: O(1) access, insert and evict (intrusive list over slot arrays).
/// - Invariant: `order` holds exactly the live slots, least recent first.
public struct LRUPolicy: PrefetchingPolicy {
    public static let libCacheSimName: String? = "LRU"
    public static let summary = "least recently used first (libCacheSim LRU)"
    public static let ordersByRecency = true

    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var order = SlotList()

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func grow(to slotCount: Int) { links.grow(to: slotCount) }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) { order.append(slot, in: links) }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) { order.moveToTail(slot, in: links) }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { order.remove(slot, in: links) }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? { order.removeHead(in: links) }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { order.first }

    @inline(__always)
    @inlinable public func victimHint(after slot: Int32) -> Int32? { links.next(slot) }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
    }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        links.prefetchMove(slot, settled: settled)
    }

    @inlinable public mutating func removeAll() { order.removeAll() }

    @inlinable public func checkedSlots() -> [Int32] {
        order.checkInvariants(in: links, name: "LRU")
        return order.slots(in: links)
    }
}
