/// Evicts the entry with the lowest priority, where an entry's priority is the cache's inflation
/// value `L` when it was last used plus its hit count divided by its size: small, often used
/// entries stay, big or cold ones go, and `L` (the priority of the last entry evicted) ages
/// everything that has not been used since it rose.
///
/// GreedyDual-Size with Frequency (L. Cherkasova, "Improving WWW proxies performance with
/// Greedy-Dual-Size-Frequency caching policy", HP Labs HPL-98-69R1, 1998), with libCacheSim's
/// rules: priority `L + frequency × 10⁶ / size` in double precision, frequency 1 on insertion and
/// one more per hit, ties evicted oldest request first. libCacheSim stores a missed entry first
/// and then evicts the lowest priority until the total fits, so the new entry itself may be the
/// one to go: `evict()` answers nil then, the engine stores nothing, and `L` rises to its priority.
/// Every step is deterministic, so miss counts match libCacheSim's `GDSF` exactly in both size
/// modes.
///
/// Entries sit in an `IndexedHeap` of (priority, request stamp) over slot arrays, so a hit can
/// move its entry; libCacheSim uses a balanced tree and a hash map beside it, allocating per
/// entry.
///
/// - Complexity: O(log n) access, insert and evict, for n entries; no allocation once grown.
/// - Invariant: the heap holds exactly the live slots, and no entry ranks below its parent.
public struct GDSFPolicy: AdmittingPolicy {
    public static let libCacheSimName: String? = "GDSF"
    public static let summary =
        "lowest of inflation + hits / size first: small, often used images stay (libCacheSim GDSF)"
    public static let mayDeclineNewEntries = true
    public static let relativeCost = 2.5

    @usableFromInline package let capacity: Int
    @usableFromInline package var heap = IndexedHeap(filler: Rank(priority: 0, stamp: 0))
    @usableFromInline package let frequency = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    /// `L`: the priority of the last entry evicted.
    @usableFromInline package var inflation = 0.0
    /// One per request seen, ordering entries of equal priority.
    @usableFromInline package var clock: Int64 = 0
    /// The entry `admit` was asked about, ranked as if already stored, until it is stored or
    /// evicted first.
    @usableFromInline package var incoming: Rank?

    /// Priority, then the request that filed it: lower goes first.
    @usableFromInline package struct Rank: Comparable {
        @usableFromInline package var priority: Double
        @usableFromInline package var stamp: Int64

        @inlinable package static func < (a: Rank, b: Rank) -> Bool {
            a.priority == b.priority ? a.stamp < b.stamp : a.priority < b.priority
        }

        @inlinable package init(priority: Double, stamp: Int64) {
            self.priority = priority
            self.stamp = stamp
        }
    }

    @inlinable public init(configuration: CacheConfiguration) {
        capacity = configuration.capacity
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        heap.grow(to: slotCount)
        frequency.grow(to: slotCount, filling: 0)
        costs.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        clock += 1
        guard cost <= capacity else {
            incoming = nil
            return .reject
        }
        incoming = Rank(priority: Self.rank(inflation, frequency: 1, cost: cost), stamp: clock)
        return .store
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        let ranked = incoming ?? Rank(priority: Self.rank(inflation, frequency: 1, cost: cost), stamp: clock)
        incoming = nil
        costs[slot] = cost
        frequency[slot] = 1
        heap.insert(slot, rank: ranked)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        clock += 1
        frequency[slot] += 1
        // L never falls and the count only grows, so the entry only ranks higher than before.
        heap.update(
            slot,
            rank: Rank(priority: Self.rank(inflation, frequency: frequency[slot], cost: costs[slot]), stamp: clock))
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { heap.remove(slot) }

    @inlinable public mutating func notStored() { incoming = nil }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        if let pending = incoming, heap.isEmpty || pending < heap.rank(of: heap.top) {
            incoming = nil
            inflation = pending.priority
            return nil
        }
        let victim = heap.pop()
        inflation = heap.rank(of: victim).priority
        return victim
    }

    @inlinable public mutating func removeAll() {
        heap.removeAll()
        incoming = nil
    }

    @inlinable public func checkedSlots() -> [Int32] { heap.checkedSlots(name: "GDSF") }

    /// The inflation value `L` (for tests).
    @inlinable package var inflationValue: Double { inflation }

    /// The priority filed for `slot` (for tests).
    @inlinable package func priority(of slot: Int32) -> Double { heap.rank(of: slot).priority }

    /// libCacheSim's priority, computed in the same order so the doubles are the same.
    @inline(__always)
    @inlinable package static func rank(_ inflation: Double, frequency: Int, cost: Int) -> Double {
        inflation + Double(frequency) * 1.0e6 / Double(cost)
    }
}
