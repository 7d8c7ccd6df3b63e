/// Evicts the first unvisited entry at or after the hand, which sweeps from the oldest entry
/// towards the newest (wrapping around), clearing the visited bits it passes; the hand then rests
/// on the entry after the victim.
///
/// SIEVE (Zhang, Yang, Yue, Vigfusson and Rashmi, "SIEVE is Simpler than LRU: an Efficient
/// Turn-Key Eviction Algorithm for Web Caches", NSDI 2024): a hit only sets the entry's visited
/// bit, new entries go to the newest end, and survivors stay where they are. Matches
/// libCacheSim's `Sieve` exactly.
///
/// - Complexity: O(1) access and insert; evict O(1) amortized (each bit it clears was set by a hit).
/// - Invariant: `order` holds exactly the live slots, oldest first; `hand` is nil (start at the
///   oldest) or one of them.
public struct SIEVEPolicy: PrefetchingPolicy {
    public static let libCacheSimName: String? = "Sieve"
    public static let summary = "a hand sweeping old to new evicts the first unhit entry (libCacheSim Sieve)"

    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var order = SlotList()
    @usableFromInline package let visited = SlotArray<Bool>(count: 0, filling: false)
    /// The slot the next eviction looks at first; nil: the oldest.
    @usableFromInline package var hand: Int32?

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        visited.grow(to: slotCount, filling: false)
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        visited[slot] = false
        order.append(slot, in: links)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) { visited[slot] = true }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) {
        if slot == hand { hand = links.next(slot) }
        order.remove(slot, in: links)
    }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        var slot = hand ?? order.head
        while visited[slot] {
            visited[slot] = false
            slot = links.next(slot) ?? order.head
        }
        // The hand keeps its place: the entry after the victim (newer), or nil past the newest.
        hand = links.next(slot)
        order.remove(slot, in: links)
        return slot
    }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { hand ?? order.first }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
    }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        if !settled { visited.prefetch(Int(slot)) }
    }

    @inlinable public mutating func removeAll() {
        order.removeAll()
        hand = nil
    }

    @inlinable public func checkedSlots() -> [Int32] {
        order.checkInvariants(in: links, name: "SIEVE")
        let slots = order.slots(in: links)
        if let hand { precondition(slots.contains(hand), "SIEVE: the hand \(hand) is not a live slot") }
        return slots
    }

    /// Where the hand rests: the slot it looks at first, or nil for the oldest (for tests).
    @inlinable package var handSlot: Int32? { hand }

    /// Whether `slot` was visited since the hand last passed it (for tests).
    @inlinable package func isVisited(_ slot: Int32) -> Bool { visited[slot] }
}
