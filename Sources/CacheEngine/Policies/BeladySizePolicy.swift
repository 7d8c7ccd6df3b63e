#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Evicts, of 128 entries sampled at random, the one with the largest size × distance to its next
/// use; stores nothing that is never used again.
///
/// libCacheSim's `BeladySize`: Belady's MIN (L. A. Belady, "A study of replacement algorithms for
/// a virtual-storage computer", IBM Systems Journal 5(2), 1966) weighted by size and sampled.
/// Each eviction samples libCacheSim's hash table 128 times, with replacement
/// (`ChainedHashTable` at its full 2^24 buckets, which the first evictions halve many times) and
/// evicts the first sample of the largest `log(size) + log(next use − now)` in double precision.
/// A request never made again is not stored (`Admission.evictOnly`: the room is made all the
/// same), and a hit by one removes its entry (handed to the engine through `pendingVictim`, so it
/// counts among the evictions). Miss counts match libCacheSim's exactly. Unlike Random's, its
/// table keeps no keys and is not the cache's index: its 128 samples per eviction walk chains of
/// eight-byte links; sixteen-byte links with keys made it slower, with the table as the index
/// or not (the Speed article has the paired runs).
///
/// It needs the future, like `BeladyPolicy`: the replay tells it each request's next use
/// (`upcoming(nextUse:)`), so only the single-tier simulator runs it.
///
/// - Complexity: O(1) access and insert; evict O(128) expected.
/// - Invariant: the table holds exactly the live slots, each filed with a next use.
public struct BeladySizePolicy: AdmittingPolicy, SelfEvictingPolicy, RandomizedPolicy, FutureAwarePolicy {
    public static let libCacheSimName: String? = "BeladySize"
    public static let drawsRandomly = true
    public static let summary =
        "largest size × distance to next use, of 128 sampled; simulator only (libCacheSim BeladySize)"
    public static let mayDeclineNewEntries = true
    public static let relativeCost = 5.0

    /// Samples per eviction (libcachesim's Python default `n_samples`).
    @usableFromInline package static let samples = 128
    /// libCacheSim's default hash power, which BeladySize keeps.
    @usableFromInline package static let hashPower = 24

    @usableFromInline package var table = ChainedHashTable(hashPower: hashPower)
    @usableFromInline package var random = LehmerRandom()
    @usableFromInline package let nextUse = SlotArray<Int64>(count: 0, filling: .max)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    /// The next use of the request being served.
    @usableFromInline package var pending = Int64.max
    /// libCacheSim's `n_req`: the 1-based position of the request being served.
    @usableFromInline package var requests: Int64 = 0
    /// An entry a hit removed (its key is never requested again), for the engine to take out.
    @usableFromInline package var dropped: Int32?

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func share(_ random: LehmerRandom) { self.random = random }

    @inlinable public mutating func grow(to slotCount: Int) {
        table.grow(to: slotCount)
        nextUse.grow(to: slotCount, filling: .max)
        costs.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func upcoming(nextUse use: Int64) {
        requests += 1
        pending = use
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        pending == .max ? .evictOnly : .store
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        table.insert(slot, key: key)
        nextUse[slot] = pending
        costs[slot] = cost
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        if pending == .max {
            table.remove(slot)
            dropped = slot
        } else {
            nextUse[slot] = pending
        }
    }

    @inline(__always)
    @inlinable public mutating func pendingVictim() -> Int32? {
        defer { dropped = nil }
        return dropped
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { table.remove(slot) }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        var rounds = 0
        // Every score beats the initial -1 unless an entry costs 0 (log 0 = -∞): libCacheSim then
        // samples again, and would forever if every entry did.
        while true {
            rounds += 1
            precondition(rounds <= 1_000, "BeladySize: no sampled entry scores above -1 (entries of cost 0?)")
            var victim: Int32?
            var largest = -1.0
            for _ in 0..<Self.samples {
                let slot = table.sample(random)
                let score = score(slot)
                if largest < score {
                    victim = slot
                    largest = score
                }
            }
            if let victim {
                table.remove(victim)
                return victim
            }
        }
    }

    @inlinable public mutating func removeAll() {
        table.removeAll()
        dropped = nil
    }

    @inlinable public func checkedSlots() -> [Int32] {
        let slots = table.checkedSlots(name: "BeladySize")
        precondition(slots.allSatisfy { nextUse[$0] != .max }, "BeladySize: an entry never used again is stored")
        return slots
    }

    /// What `evict` ranks `slot` by now: `log(size) + log(next use − now)` (for tests). A next use
    /// already past, which only made-up next uses give (a trace's are always ahead), counts as
    /// never: +∞.
    @inlinable package func score(_ slot: Int32) -> Double {
        let distance = nextUse[slot] - requests
        guard distance > 0 else { return .infinity }
        return log(Double(costs[slot])) + log(Double(distance))
    }

    /// The next use filed for `slot` (for tests).
    @inlinable package func nextUse(of slot: Int32) -> Int64 { nextUse[slot] }

    /// The table's hash power now (for tests: sampling a sparse table halves it).
    @inlinable package var hashPowerNow: Int { table.hashPower }
}
