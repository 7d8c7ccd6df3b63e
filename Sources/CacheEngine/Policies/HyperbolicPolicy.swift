/// Evicts, of 64 entries sampled at random, the one with the fewest hits per request since it
/// was stored.
///
/// Hyperbolic caching (A. Blankstein, S. Sen and M. J. Freedman, "Hyperbolic Caching: Flexible
/// Caching for Web Applications", USENIX ATC 2017) with libCacheSim's rules: an entry counts 1 on
/// insertion and one more per hit (libCacheSim's 24-bit field), its age is the requests since its
/// insertion, and its priority `1e8 × count / age` in double precision. Each eviction samples
/// libCacheSim's hash table 64 times, with replacement (`BlockedChainTable`, 2^16 buckets), and
/// evicts the first sample of the lowest priority. Miss counts match libCacheSim's `Hyperbolic`
/// exactly. With the simulator's keys the table is the cache's index too (`indexesKeys`).
///
/// - Complexity: O(1) access and insert; evict O(64) expected.
/// - Invariant: the table holds exactly the live slots.
public struct HyperbolicPolicy: AdmittingPolicy, KeyIndexingPolicy, RandomizedPolicy {
    public static let libCacheSimName: String? = "Hyperbolic"
    public static let drawsRandomly = true
    public static let summary =
        "fewest hits per request since stored, of 64 sampled (libCacheSim Hyperbolic)"
    public static let relativeCost = 3.0

    /// An eviction's samples: 64 per eviction, libCacheSim's default (which its Python class
    /// cannot change).
    @usableFromInline package typealias Samples = InlineArray<64, (slot: Int32, key: UInt64)>

    @usableFromInline package var table = BlockedChainTable(hashPower: RandomPolicy.hashPower)
    @usableFromInline package var random = LehmerRandom()
    @usableFromInline package let frequency = SlotArray<Int32>(count: 0, filling: 0)
    @usableFromInline package let storedAt = SlotArray<Int64>(count: 0, filling: 0)
    /// libCacheSim's `n_req`: requests seen, counting the one being served.
    @usableFromInline package var requests: Int64 = 0

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func share(_ random: LehmerRandom) { self.random = random }

    @inlinable public mutating func grow(to slotCount: Int) {
        frequency.grow(to: slotCount, filling: 0)
        storedAt.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        requests += 1
        return .store
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        table.insert(slot, key: key)
        frequency[slot] = 1
        storedAt[slot] = requests
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        requests += 1
        // libCacheSim counts in a signed 24-bit field.
        frequency[slot] = ((frequency[slot] &+ 1) << 8) >> 8
    }

    /// The table is the cache's index too: a lookup reads its key's bucket.
    @inline(__always)
    @inlinable public func indexedSlot(for key: UInt64) -> Int32? { table.slot(forKey: key) }

    @inline(__always)
    @inlinable public func prefetchLookup(_ key: UInt64, settled: Bool) {
        table.prefetchLookup(of: key, settled: settled)
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { table.remove(slot, key: key) }

    /// How many draws ahead of the sample being taken the buckets they would pick are loaded.
    @inlinable package static var drawsAhead: UInt64 { 16 }

    /// Takes the 64 samples first, then ranks them: nothing changes the table or the priorities
    /// between two samples, so this picks what sampling and ranking in turn would. Meanwhile the
    /// loads overlap: the buckets of the draws `drawsAhead` ahead are requested before their
    /// turn (a draw that picks a place in a chain, not a bucket, loads a line for nothing), and
    /// each sample's count and insertion time as soon as its slot is known.
    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        var sampled = Samples(repeating: (0, 0))
        var requested = random.draws
        for sample in sampled.indices {
            // A sample that drew many empty buckets (a sparse table) may have passed the requests.
            requested = max(requested, random.draws)
            while requested < random.draws &+ Self.drawsAhead {
                table.prefetchBuckets(random, skipping: Int(requested &- random.draws))
                requested &+= 2
            }
            let entry = table.sample(random)
            frequency.prefetch(Int(entry.slot))
            storedAt.prefetch(Int(entry.slot))
            sampled[sample] = entry
        }
        // Only an entry stored by the request being served has age 0 (priority +∞), and only a
        // trim between requests evicts then: with nothing else sampled, the first sample goes.
        var chosen = sampled[0]
        var lowest = 1.0e16
        for sample in sampled.indices {
            let score = priority(sampled[sample].slot)
            if lowest > score {
                chosen = sampled[sample]
                lowest = score
            }
        }
        table.remove(chosen.slot, key: chosen.key)
        return chosen.slot
    }

    @inlinable public mutating func removeAll() { table.removeAll() }

    @inlinable public func checkedSlots() -> [Int32] {
        let slots = table.checkedSlots(name: "Hyperbolic")
        precondition(slots.allSatisfy { storedAt[$0] <= requests }, "Hyperbolic: an entry stored in the future")
        return slots
    }

    /// The priority of `slot` now: hits per request since it was stored, times 10⁸ (for tests).
    @inlinable package func priority(_ slot: Int32) -> Double {
        1.0e8 * Double(frequency[slot]) / Double(requests - storedAt[slot])
    }

    /// The count the policy keeps for `slot` (for tests).
    @inlinable package func count(of slot: Int32) -> Int { Int(frequency[slot]) }
}
