/// Evicts the entry whose next use lies farthest in the future (never used again counts as
/// farthest): Belady's offline optimum, MIN (L. A. Belady, "A study of replacement algorithms for
/// a virtual-storage computer", IBM Systems Journal 5(2), 1966).
///
/// It needs the future: the replay tells it each request's next use (`upcoming(nextUse:)`) before
/// the lookup, and a hit or an insertion files the entry under that position. Only the
/// single-tier simulator can do that; a real client's tiers refuse it (`PolicyKind.needsFuture`).
///
/// Entries sit in a binary max-heap keyed by next use, stored in slot arrays with each slot's heap
/// position, so a hit can move its entry. The heap follows libCacheSim's `pqueue` move for move
/// (1-based array; a tie between children goes to the left one; a node moves only past a strictly
/// smaller key), so entries never used again, which all tie, are evicted in the same order as
/// libCacheSim's `Belady`, and miss counts match it in byte mode too.
///
/// - Complexity: O(log n) access, insert and evict, for n entries; no allocation once grown.
/// - Invariant: the heap (`IndexedHeap`) holds exactly the live slots, and no entry's next use is
///   later than its parent's.
public struct BeladyPolicy: FutureAwarePolicy {
    public static let libCacheSimName: String? = "Belady"
    public static let summary =
        "next used farthest in the future first: the offline optimum, simulator only (libCacheSim Belady)"
    public static let relativeCost = 3.0

    /// Entries by next use, the farthest on top; ties moved as libCacheSim's pqueue moves them.
    @usableFromInline package var heap = IndexedHeap(filler: NextUse(Int64.max))
    // The next use of the request being served, until a hit or an insertion files it.
    @usableFromInline package var pending = Int64.max

    /// A next use as a rank: the later, the lower (the sooner evicted).
    @usableFromInline package struct NextUse: Comparable {
        @usableFromInline package var position: Int64
        @inlinable package init(_ position: Int64) { self.position = position }
        @inlinable package static func < (a: NextUse, b: NextUse) -> Bool { a.position > b.position }
    }

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func grow(to slotCount: Int) { heap.grow(to: slotCount) }

    @inline(__always)
    @inlinable public mutating func upcoming(nextUse use: Int64) { pending = use }

    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        heap.insert(slot, rank: NextUse(pending))
    }

    @inlinable public mutating func accessed(_ slot: Int32) { heap.update(slot, rank: NextUse(pending)) }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { heap.remove(slot) }

    @inlinable public mutating func evict() -> Int32? { heap.pop() }

    @inlinable public mutating func removeAll() { heap.removeAll() }

    @inlinable public func checkedSlots() -> [Int32] { heap.checkedSlots(name: "Belady") }

    /// The next use the policy has filed for `slot` (for tests).
    @inlinable package func nextUse(of slot: Int32) -> Int64 { heap.rank(of: slot).position }
}
