/// Evicts an entry chosen at random.
///
/// The victim is one sample of libCacheSim's hash table (2^16 buckets as libCacheSim's `Random`
/// sizes it: its default hash power 24, less 8): a random non-empty bucket, then a random entry
/// of its chain, drawn from the cache's `LehmerRandom`. With the table laid out as libCacheSim's
/// (`BlockedChainTable`: its chains, four entries to a cache line) and the same draws, miss
/// counts match libCacheSim's `Random` exactly. With the simulator's keys the table is the
/// cache's index too (`indexesKeys`), as libCacheSim's one table is: a lookup reads its key's
/// bucket, and a miss updates one table, not two.
///
/// - Complexity: O(1) access and insert; evict O(1) expected (draws until a bucket is not empty,
///   then takes an entry of its chain).
/// - Invariant: the table holds exactly the live slots.
public struct RandomPolicy: KeyIndexingPolicy, RandomizedPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "Random"
    public static let drawsRandomly = true
    public static let summary = "a random entry (libCacheSim Random)"
    public static let relativeCost = 1.3
    /// Two, as paired runs on the current host chose (the earlier host had chosen three: the
    /// Speed article has both).
    @inlinable public static var victimLookahead: Int { 2 }

    /// libCacheSim's hash power for Random and Hyperbolic: max(12, 24 − 8).
    @usableFromInline package static let hashPower = 16

    @usableFromInline package var table = BlockedChainTable(hashPower: hashPower)
    @usableFromInline package var random = LehmerRandom()
    /// The next three victims as `prefetch` works them out from the generator's state after
    /// `hintedDraws` draws. Hints only: an insertion or removal since may have changed a chain
    /// they read.
    @usableFromInline package var hints = InlineArray<3, Hint>(repeating: Hint())
    @usableFromInline package var hintedDraws: UInt64 = .max

    /// One coming sample: its slot (-1: not worked out) and the draws it takes.
    @usableFromInline package struct Hint {
        @usableFromInline package var slot: Int32 = -1
        @usableFromInline package var draws: Int32 = 0

        @inlinable package init(slot: Int32 = -1, draws: Int32 = 0) {
            self.slot = slot
            self.draws = draws
        }
    }

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func share(_ random: LehmerRandom) { self.random = random }

    /// Keeps nothing per slot: its table holds each entry's key and slot in the entry's bucket.
    @inlinable public mutating func grow(to slotCount: Int) {}

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) { table.insert(slot, key: key) }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {}

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { table.remove(slot, key: key) }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        let victim = table.takeSample(random)
        // The next victims stay known when this sample was the one foreseen (so a miss that
        // evicts several finds the second already loading); else `prefetch` starts again.
        if victim == hints[0].slot, random.draws == hintedDraws &+ UInt64(hints[0].draws) {
            hintedDraws = random.draws
            hints = [hints[1], hints[2], Hint()]
        }
        return victim
    }

    /// Works out whichever of the next three victims are not known (after an eviction, the
    /// third; on a hit, none), and loads ahead what the sample after them will read.
    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) { foreseeVictims() }

    /// In a burst of evictions, the third victim is worked out as soon as the first is taken
    /// (its buckets were requested when the one before it was), not on the next request.
    @inline(__always)
    @inlinable public mutating func foreseeVictims() {
        if hintedDraws != random.draws {
            hints = InlineArray(repeating: Hint())
            hintedDraws = random.draws
        }
        var skipping = 0
        for depth in 0..<hints.count {
            if hints[depth].slot < 0 {
                guard let (slot, draws) = table.peekSample(random, skipping: skipping) else { return }
                hints[depth].slot = slot
                hints[depth].draws = Int32(draws)
                if depth == hints.count - 1 {
                    // The sample after the last: its buckets now, so that they are in cache when
                    // an eviction makes it the last.
                    table.prefetchBuckets(random, skipping: skipping + draws)
                    return
                }
            }
            skipping += Int(hints[depth].draws)
        }
    }

    @inline(__always)
    @inlinable public func indexedSlot(for key: UInt64) -> Int32? { table.slot(forKey: key) }

    @inline(__always)
    @inlinable public func prefetchLookup(_ key: UInt64, settled: Bool) {
        table.prefetchLookup(of: key, settled: settled)
    }

    /// The entry the next eviction will pick if no draw or change comes first (as `prefetch`
    /// last worked it out).
    @inline(__always)
    @inlinable public func victimHint() -> Int32? { hints[0].slot >= 0 ? hints[0].slot : nil }

    /// The entry the eviction after `slot`'s will pick, when `slot` is the next victim or the
    /// one after it.
    @inline(__always)
    @inlinable public func victimHint(after slot: Int32) -> Int32? {
        for depth in 0..<hints.count - 1 where hints[depth].slot == slot {
            return hints[depth + 1].slot >= 0 ? hints[depth + 1].slot : nil
        }
        return nil
    }

    @inlinable public mutating func removeAll() {
        table.removeAll()
        hintedDraws = .max
    }

    @inlinable public func checkedSlots() -> [Int32] { table.checkedSlots(name: "Random") }
}
