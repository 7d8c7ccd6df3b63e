/// Evicts the least recent entry of the lowest segment that holds any: four LRU segments, a hit
/// moving its entry one segment up, and a segment over its share cooling its least recent entries
/// one segment down (from the lowest, out of the cache).
///
/// Segmented LRU (Karedla, Love and Wherry, "Caching strategies to improve disk system
/// performance", IEEE Computer 27(3), 1994) in libCacheSim's four-segment form ("S4LRU"), with its
/// rules: every segment gets a quarter of the capacity (truncated); a new entry goes to the lowest
/// segment with room for it, so segments 1 to 3 fill directly while the cache warms up (and, in
/// byte mode, whenever segment 0 lacks room but a higher one has it), and to segment 0 when none
/// has; a hit in the top segment makes it the most recent there. A hit lower down moves the entry
/// to the most recent end of the next segment; while that segment is over its share, its least
/// recent entry moves to the most recent end of the one below, and so on down, so that a hit can
/// evict (`pendingVictim`). An entry costing more than a quarter of the capacity is not stored.
/// Matches libCacheSim's `SLRU` exactly. (W-TinyLFU's main cache is libCacheSim's two-segment
/// SLRU, whose rules differ.)
///
/// - Complexity: O(1) access, insert and evict; a hit moves at most one entry per segment below it
///   per entry cooled, O(1) amortized.
/// - Invariant: the four segments hold exactly the live slots, each tagged with its segment, and
///   each segment's cost is the sum of its entries'; segments 1 to 3 are within their share after
///   every call.
public struct SLRUPolicy: AdmittingPolicy, SelfEvictingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "SLRU"
    public static let summary =
        "four LRU segments, a hit promoting one segment up, overflow cooling down (libCacheSim SLRU, S4LRU)"
    public static let storedShare: Double? = 0.25
    public static let relativeCost = 1.3

    @usableFromInline package static let segmentCount = 4
    /// Each segment's share of the capacity: a quarter, truncated.
    @usableFromInline package let segmentLimit: Int
    @usableFromInline package let capacity: Int
    @usableFromInline package let links = SlotLinks()
    /// Segment 0 (probation) to 3, each least recent first.
    @usableFromInline package let segments = SlotArray<CostedList>(count: segmentCount, filling: CostedList())
    /// Each slot's segment; -1 (a byte, where an `Int8?` would take two) while it is in none.
    @usableFromInline package let segment = SlotArray<Int8>(count: 0, filling: -1)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    /// Entries a hit evicted, not yet handed to the engine.
    @usableFromInline package var pending = SlotStack()

    @inlinable public init(configuration: CacheConfiguration) {
        capacity = configuration.capacity
        segmentLimit = configuration.capacity / Self.segmentCount
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        segment.grow(to: slotCount, filling: -1)
        costs.grow(to: slotCount, filling: 0)
        pending.reserve(slotCount)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        cost <= capacity && cost <= segmentLimit ? .store : .reject
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        costs[slot] = cost
        // The lowest segment with room; segment 0 when none has (the engine made room in the cache).
        var target = 0
        for candidate in 0..<Self.segmentCount where segments[candidate].cost + cost <= segmentLimit {
            target = candidate
            break
        }
        join(slot, target)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        let from = Int(segment[slot])
        guard from < Self.segmentCount - 1 else {
            segments[from].moveToTail(slot, in: links)
            return
        }
        leave(slot)
        join(slot, from + 1)
        while segments[from + 1].cost > segmentLimit { cool(from + 1) }
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { leave(slot) }

    @inline(__always)
    @inlinable public mutating func pendingVictim() -> Int32? { pending.isEmpty ? nil : pending.pop() }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        if !pending.isEmpty { return pending.pop() }
        let victim = nextVictim()!
        leave(victim)
        return victim
    }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { pending.isEmpty ? nextVictim() : nil }

    /// The next in `slot`'s segment.
    @inline(__always)
    @inlinable public func victimHint(after slot: Int32) -> Int32? { links.next(slot) }

    /// The victim's links, then its neighbours'; its segment tag and cost, which leaving reads.
    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
        if !settled { prefetchTagAndCost(slot) }
    }

    /// What a hit moves: the slot's links, then its neighbours'; its segment tag and cost.
    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        links.prefetchMove(slot, settled: settled)
        if !settled { prefetchTagAndCost(slot) }
    }

    @inlinable public mutating func removeAll() {
        for index in 0..<Self.segmentCount { segments[index].removeAll() }
        pending.removeAll()
    }

    @inlinable public func checkedSlots() -> [Int32] {
        precondition(pending.isEmpty, "SLRU: victims of a hit left undelivered")
        var result: [Int32] = []
        for index in 0..<Self.segmentCount {
            let slots = segments[index].checkedSlots(in: links, costs: costs, name: "SLRU.segment\(index)")
            precondition(
                slots.allSatisfy { segment[$0] == index }, "SLRU: a slot in segment \(index) is tagged otherwise")
            if index > 0 {
                precondition(segments[index].cost <= segmentLimit, "SLRU: segment \(index) over its share")
            }
            result += slots
        }
        return result
    }

    /// The slots of each segment, 0 to 3, least recent first (for tests; `Cache.keys(ofSlots:)`
    /// names their keys).
    @inlinable package var segmentSlots: [[Int32]] {
        (0..<Self.segmentCount).map { index in segments[index].slots(in: links) }
    }

    // Segment `index` is over its share: its least recent entry moves down one segment, whose own
    // overflow cools further down; from segment 0 the cache evicts.
    @inlinable package mutating func cool(_ index: Int) {
        guard index > 0 else {
            let victim = nextVictim()!
            leave(victim)
            pending.push(victim)
            return
        }
        let moving = segments[index].head
        leave(moving)
        join(moving, index - 1)
        while segments[index - 1].cost > segmentLimit { cool(index - 1) }
    }

    // The least recent entry of the lowest segment holding any bytes (then of the lowest holding
    // any entry, for entries of no cost, which libCacheSim never sees).
    @inline(__always)
    @inlinable package func nextVictim() -> Int32? {
        for index in 0..<Self.segmentCount where segments[index].cost > 0 { return segments[index].head }
        for index in 0..<Self.segmentCount where !segments[index].isEmpty { return segments[index].head }
        return nil
    }

    @inline(__always)
    @inlinable package func prefetchTagAndCost(_ slot: Int32) {
        segment.prefetch(Int(slot))
        costs.prefetch(Int(slot))
    }

    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ index: Int) {
        segment[slot] = Int8(index)
        segments[index].append(slot, cost: costs[slot], in: links)
    }

    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) {
        let index = Int(segment[slot])
        precondition(index >= 0, "SLRU: slot \(slot) is in no segment")
        segments[index].remove(slot, cost: costs[slot], in: links)
        segment[slot] = -1
    }
}
