/// Evicts the oldest entry used fewer than twice since it was stored; when every entry was used
/// twice, the one whose second-to-last use is the oldest.
///
/// LRU-K with K = 2 (O'Neil, O'Neil and Weikum, "The LRU-K page replacement algorithm for database
/// disk buffering", SIGMOD 1993) with libCacheSim's rules (`LRU_K`, its default `k=2`): time is the
/// request count, misses that are not stored included; an entry remembers the times of its last
/// two uses (its insertion counts as one) and nothing once evicted; entries used once wait in a
/// FIFO, which is evicted first, and the first hit moves an entry to a priority queue ranked by
/// its second-to-last use. Times are unique, so no two ranks tie. Matches libCacheSim's `LRUK`
/// exactly.
///
/// - Complexity: O(1) insert; O(log n) access and evict for n entries in the queue (an
///   `IndexedHeap`); no allocation once grown.
/// - Invariant: `once` and `twice` hold exactly the live slots, each tagged with where it is; an
///   entry in `twice` is ranked by its second-to-last use.
public struct LRUKPolicy: AdmittingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "LRUK"
    public static let summary =
        "used once first (FIFO), then the oldest second-to-last use (libCacheSim LRUK, k = 2)"
    public static let relativeCost = 1.8

    @usableFromInline package let links = SlotLinks()
    /// Entries used once since they were stored, oldest first.
    @usableFromInline package var once = SlotList()
    /// Entries used at least twice, by their second-to-last use.
    @usableFromInline package var twice = IndexedHeap(filler: Rank(use: 0, key: 0))
    @usableFromInline package let inOnce = SlotArray<Bool>(count: 0, filling: false)
    @usableFromInline package let lastUse = SlotArray<Int64>(count: 0, filling: 0)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    /// libCacheSim's request counter: one per request, hit or miss.
    @usableFromInline package var clock: Int64 = 0

    /// The second-to-last use, then the key (libCacheSim's order; uses never tie).
    @usableFromInline package struct Rank: Comparable {
        @usableFromInline package var use: Int64
        @usableFromInline package var key: UInt64

        @inlinable package static func < (a: Rank, b: Rank) -> Bool { a.use == b.use ? a.key < b.key : a.use < b.use }

        @inlinable package init(use: Int64, key: UInt64) {
            self.use = use
            self.key = key
        }
    }

    // It hints nothing for a hit or a miss: the replay need not find a coming request's slot.
    @inlinable public static var prefetchesHits: Bool { false }

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        twice.grow(to: slotCount)
        inOnce.grow(to: slotCount, filling: false)
        lastUse.grow(to: slotCount, filling: 0)
        keys.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        clock += 1
        return .store
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        keys[slot] = key
        lastUse[slot] = clock
        inOnce[slot] = true
        once.append(slot, in: links)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        clock += 1
        let previous = lastUse[slot]
        lastUse[slot] = clock
        let rank = Rank(use: previous, key: keys[slot])
        if inOnce[slot] {
            once.remove(slot, in: links)
            inOnce[slot] = false
            twice.insert(slot, rank: rank)
        } else {
            twice.update(slot, rank: rank)
        }
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) {
        if inOnce[slot] {
            once.remove(slot, in: links)
            inOnce[slot] = false
        } else {
            twice.remove(slot)
        }
    }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        guard once.isEmpty else {
            let victim = once.removeHead(in: links)
            inOnce[victim] = false
            return victim
        }
        return twice.pop()
    }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { once.isEmpty ? twice.first : once.first }

    @inlinable public mutating func removeAll() {
        for slot in once.slots(in: links) { inOnce[slot] = false }
        once.removeAll()
        twice.removeAll()
    }

    @inlinable public func checkedSlots() -> [Int32] {
        once.checkInvariants(in: links, name: "LRU-K.once")
        let used = once.slots(in: links)
        precondition(used.allSatisfy { inOnce[$0] }, "LRU-K: a slot in the FIFO is not tagged so")
        let reused = twice.checkedSlots(name: "LRU-K.twice")
        precondition(reused.allSatisfy { !inOnce[$0] }, "LRU-K: a slot in the queue is tagged as in the FIFO")
        return used + reused
    }

    /// The keys used once, oldest first, and the keys used twice with their second-to-last use,
    /// lowest first (for tests).
    @inlinable package var queueKeys: (once: [UInt64], twice: [(key: UInt64, use: Int64)]) {
        let ranked = twice.checkedSlots(name: "LRU-K.twice").map { twice.rank(of: $0) }.sorted(by: <)
        return (once.slots(in: links).map { keys[$0] }, ranked.map { ($0.key, $0.use) })
    }
}
