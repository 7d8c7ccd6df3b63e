#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Evicts LRU's victim or LFU's, chosen at random by two weights that learn from ghost hits:
/// a miss on a key one expert evicted lowers that expert's weight.
///
/// LeCaR (G. Vietri, L. V. Rodriguez, W. A. Martinez, S. Lyons, J. Liu, R. Rangaswami, M. Zhao and
/// G. Narasimhan, "Driving Cache Replacement with ML-based LeCaR", HotStorage 2018) with
/// libCacheSim's rules and defaults: learning rate 0.45, discount `0.005^(1 / capacity)`, both
/// weights 0.5. LRU's candidate is the least recently used entry; LFU's the oldest of the lowest
/// frequency (1 on insertion, one more per hit; libCacheSim's `min_freq` bookkeeping kept as it
/// is). When they differ, a draw `(random % 100) / 100` below LRU's weight picks LRU's. The
/// victim's key becomes a ghost of the expert that chose it, in a FIFO bounded by half the
/// capacity in cost. A miss on a ghost of one expert multiplies that expert's weight by
/// `exp(-0.45 × discount^age)` (age in requests since the eviction) and normalizes both. Miss
/// counts match libCacheSim's `LeCaR` exactly.
///
/// A victim both experts chose is not remembered. libCacheSim keeps it as a ghost of neither
/// expert until its key comes again, when it is dropped and no weight moves: it changes no
/// decision, only memory, which on a long trace it grows by every object evicted that way and
/// not seen since (and every miss then looks up, and every such eviction inserts into, a table
/// of them).
///
/// The ghosts live in the cache's own index (`keepsGhostsInIndex`), as libCacheSim keeps them in
/// its hash table: a miss finds one in the lookup it makes anyway, and an eviction turns the
/// victim's index entry into its ghost's. The policy keeps each ghost's expert, eviction time,
/// cost and place in its FIFO (`RecordPool`), the engine its key.
///
/// - Complexity: O(1) access and insert, evict O(1) amortized; a hit that empties the lowest
///   frequency scans up to the highest in use, as libCacheSim's does.
/// - Invariant: the recency list and the frequency lists hold exactly the live slots, each in the
///   list of its frequency; the ghost FIFOs cost at most half the capacity each.
public struct LeCaRPolicy: AdmittingPolicy, GhostIndexingPolicy, RandomizedPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "LeCaR"
    public static let drawsRandomly = true
    public static let summary =
        "LRU's or LFU's victim, picked at random by weights learnt from ghost hits (libCacheSim LeCaR)"
    public static let relativeCost = 2.0
    @inlinable public static var victimLookahead: Int { 3 }

    /// Which expert evicted a ghost's entry.
    @usableFromInline package enum Expert: Int8 {
        case lru = 1
        case lfu = 2
    }

    /// What a ghost remembers besides its cost (the engine keeps its key).
    @usableFromInline package struct Ghost {
        @usableFromInline package var expert: Expert
        /// The request (`requests`) that evicted it.
        @usableFromInline package var evictedAt: Int64

        @inlinable package init(expert: Expert, evictedAt: Int64) {
            self.expert = expert
            self.evictedAt = evictedAt
        }
    }

    @usableFromInline package let learningRate = 0.45
    @usableFromInline package let discountRate: Double
    @usableFromInline package let ghostLimit: Int
    @usableFromInline package var weightLRU: Double
    @usableFromInline package var weightLFU = 0.5
    @usableFromInline package let updatesWeights: Bool

    @usableFromInline package var random = LehmerRandom()
    @usableFromInline package let frequency = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let recencyLinks = SlotLinks()
    /// Least recently used first.
    @usableFromInline package var recency = SlotList()
    @usableFromInline package let frequencyLinks = SlotLinks()
    /// The entries of each frequency, oldest arrival first; index 0 unused.
    @usableFromInline package let frequencyLists = SlotArray<SlotList>(count: 16, filling: SlotList())
    @usableFromInline package var minFrequency = 1
    @usableFromInline package var maxFrequency = 1
    @usableFromInline package var count = 0
    @usableFromInline package var ghosts = RecordPool(filler: Ghost(expert: .lru, evictedAt: 0))
    /// Oldest first.
    @usableFromInline package var lruGhosts = CostedList()
    @usableFromInline package var lfuGhosts = CostedList()
    /// The expert whose choice `evict()` last returned (nil: both chose it), for `remember`; then
    /// the FIFO `forgottenGhost` trims.
    @usableFromInline package var evictedBy: Expert?
    @usableFromInline package var trimming: Expert?
    /// libCacheSim's `n_req`: requests seen, counting the one being served.
    @usableFromInline package var requests: Int64 = 0
    /// The other expert's candidate when `prefetchVictim` last ran (a hint).
    @usableFromInline package var hintedCandidate: Int32?

    @inlinable public init(configuration: CacheConfiguration) {
        self.init(configuration: configuration, lruWeight: 0.5, updatesWeights: true)
    }

    /// libcachesim's Python keywords `lru_weight` (LFU's weight stays 0.5 until the first update,
    /// as in libCacheSim) and `update_weight`.
    @inlinable package init(configuration: CacheConfiguration, lruWeight: Double, updatesWeights: Bool) {
        discountRate = pow(0.005, 1.0 / Double(configuration.capacity))
        ghostLimit = configuration.capacity / 2
        weightLRU = lruWeight
        self.updatesWeights = updatesWeights
    }

    @inlinable public mutating func share(_ random: LehmerRandom) { self.random = random }

    @inlinable public mutating func grow(to slotCount: Int) {
        frequency.grow(to: slotCount, filling: 0)
        recencyLinks.grow(to: slotCount)
        frequencyLinks.grow(to: slotCount)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        requests += 1
        return .store
    }

    /// A miss on a ghost: the weight of the expert that evicted it shrinks, and it is forgotten.
    @inline(__always)
    @inlinable public mutating func ghostReturned(_ ghost: Int32) {
        let age = requests - ghosts.extras[ghost].evictedAt
        switch ghosts.extras[ghost].expert {
        case .lru:
            penalize(lru: true, age: age)
            lruGhosts.remove(ghost, cost: ghosts.costs[ghost], in: ghosts.links)
        case .lfu:
            penalize(lru: false, age: age)
            lfuGhosts.remove(ghost, cost: ghosts.costs[ghost], in: ghosts.links)
        }
        ghosts.remove(ghost)
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        frequency[slot] = 1
        recency.append(slot, in: recencyLinks)
        count += 1
        minFrequency = 1
        frequencyLists[1].append(slot, in: frequencyLinks)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        requests += 1
        recency.moveToTail(slot, in: recencyLinks)
        leaveFrequency(slot)
        let raised = frequency[slot] + 1
        frequency[slot] = raised
        maxFrequency = max(maxFrequency, raised)
        joinFrequency(slot)
        if count == 1 { raiseMinFrequency() }
        if raised < minFrequency { minFrequency = raised }
    }

    /// A miss on a ghost reads its expert, age, cost and links.
    @inline(__always)
    @inlinable public mutating func prefetchGhost(_ ghost: Int32) { ghosts.prefetch(ghost) }

    /// The candidate of the expert with the larger weight (the one a draw most likely picks
    /// when the two differ); `prefetchVictim` adds the other's.
    @inline(__always)
    @inlinable public func victimHint() -> Int32? { lfuLeads ? frequencyLists[minFrequency].first : recency.first }

    /// That expert's candidate after `slot`.
    @inline(__always)
    @inlinable public func victimHint(after slot: Int32) -> Int32? {
        lfuLeads ? frequencyLinks.next(slot) : recencyLinks.next(slot)
    }

    /// The other expert's candidate: when the experts differ, a draw may pick it.
    @inline(__always)
    @inlinable public func alternativeVictimHint() -> Int32? {
        lfuLeads ? recency.first : frequencyLists[minFrequency].first
    }

    /// Both candidates' links and frequencies, and the records of the oldest ghosts of both
    /// FIFOs. For a later victim of the leading expert (`victimHint(after:)`), that slot's only.
    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        prefetchCandidate(slot, settled: settled)
        guard slot == victimHint() else { return }
        // The other is settled once it is what it was on the request before.
        let other = alternativeVictimHint()
        if let other, other != slot { prefetchCandidate(other, settled: other == hintedCandidate) }
        hintedCandidate = other
        if let oldest = lruGhosts.first { ghosts.prefetch(oldest) }
        if let oldest = lfuGhosts.first { ghosts.prefetch(oldest) }
    }

    /// The oldest ghost of each FIFO: the next a new ghost pushes out.
    @inline(__always)
    @inlinable public func comingForgottenGhosts() -> (Int32?, Int32?) { (lruGhosts.first, lfuGhosts.first) }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        recencyLinks.prefetchMove(slot, settled: settled)
        frequencyLinks.prefetchMove(slot, settled: settled)
        if !settled { frequency.prefetch(Int(slot)) }
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) {
        recency.remove(slot, in: recencyLinks)
        leaveFrequency(slot)
        count -= 1
    }

    @inlinable public mutating func evict() -> Int32? {
        let lruCandidate = recency.head
        precondition(
            !frequencyLists[minFrequency].isEmpty,
            "LeCaR: min_freq \(minFrequency) names an empty frequency (libCacheSim would read a missing object)")
        let lfuCandidate = frequencyLists[minFrequency].head
        var victim = lruCandidate
        // nil: both experts chose it.
        var expert: Expert?
        if lruCandidate != lfuCandidate {
            // One draw, only when the experts disagree.
            if Double(random.next() % 100) / 100.0 < weightLRU {
                expert = .lru
            } else {
                victim = lfuCandidate
                expert = .lfu
            }
        }
        recency.remove(victim, in: recencyLinks)
        leaveFrequency(victim)
        count -= 1
        evictedBy = expert
        return victim
    }

    /// The victim `evict()` just returned becomes a ghost at the new end of the FIFO of the
    /// expert that chose it, unless both did.
    @inline(__always)
    @inlinable public mutating func remember(_ slot: Int32, cost: Int) -> Int32? {
        guard let expert = evictedBy else { return nil }
        let ghost = ghosts.add(cost: cost, extra: Ghost(expert: expert, evictedAt: requests))
        switch expert {
        case .lru: lruGhosts.append(ghost, cost: cost, in: ghosts.links)
        case .lfu: lfuGhosts.append(ghost, cost: cost, in: ghosts.links)
        }
        evictedBy = nil
        trimming = expert
        return ghost
    }

    /// The oldest ghost of the FIFO `remember` added to, while that FIFO costs more than half
    /// the capacity (the new ghost too, if it alone does).
    @inline(__always)
    @inlinable public mutating func forgottenGhost() -> Int32? {
        switch trimming {
        case .lru?: Self.dropOldest(of: &lruGhosts, in: &ghosts, over: ghostLimit)
        case .lfu?: Self.dropOldest(of: &lfuGhosts, in: &ghosts, over: ghostLimit)
        case nil: nil
        }
    }

    @inlinable public mutating func removeAll() {
        for f in 1...maxFrequency { frequencyLists[f].removeAll() }
        recency.removeAll()
        minFrequency = 1
        maxFrequency = 1
        count = 0
        ghosts.removeAll()
        lruGhosts.removeAll()
        lfuGhosts.removeAll()
        evictedBy = nil
        trimming = nil
    }

    @inlinable public func checkedSlots() -> [Int32] {
        recency.checkInvariants(in: recencyLinks, name: "LeCaR.recency")
        let slots = recency.slots(in: recencyLinks)
        precondition(slots.count == count, "LeCaR: \(slots.count) entries listed, count \(count)")
        var inFrequencies = 0
        for f in 1..<frequencyLists.count {
            frequencyLists[f].checkInvariants(in: frequencyLinks, name: "LeCaR.frequency(\(f))")
            let members = frequencyLists[f].slots(in: frequencyLinks)
            precondition(members.allSatisfy { frequency[$0] == f }, "LeCaR: an entry in another frequency's list")
            precondition(f <= maxFrequency || members.isEmpty, "LeCaR: entries above max_freq \(maxFrequency)")
            inFrequencies += members.count
        }
        precondition(inFrequencies == count, "LeCaR: \(inFrequencies) entries in frequency lists, count \(count)")
        precondition(count == 0 || !frequencyLists[minFrequency].isEmpty, "LeCaR: min_freq names an empty list")
        _ = checkedGhosts()
        return slots
    }

    @inlinable public func checkedGhosts() -> [Int32] {
        var all: [Int32] = []
        for (list, expert, name) in [(lruGhosts, Expert.lru, "LeCaR.lruGhosts"), (lfuGhosts, .lfu, "LeCaR.lfuGhosts")] {
            let members = list.checkedSlots(in: ghosts.links, costs: ghosts.costs, name: name)
            precondition(list.cost <= ghostLimit, "\(name): costs \(list.cost), over \(ghostLimit)")
            precondition(members.allSatisfy { ghosts.extras[$0].expert == expert }, "\(name): another expert's ghost")
            all += members
        }
        ghosts.checkPlaces(live: all.count, name: "LeCaR.ghosts")
        return all
    }

    /// The frequency counted for `slot` (for tests).
    @inlinable package func frequency(of slot: Int32) -> Int { frequency[slot] }

    /// The ghost records of LRU and of LFU, oldest first, and how many ghosts there are in all
    /// (for tests; `Cache.ghostKeys` names their keys).
    @inlinable package var ghostRecords: (lru: [Int32], lfu: [Int32], all: Int) {
        (lruGhosts.slots(in: ghosts.links), lfuGhosts.slots(in: ghosts.links), ghosts.count)
    }

    /// Whether LFU's candidate is the likelier victim when the experts differ: a draw picks
    /// LRU's with probability about `weightLRU`.
    @inline(__always)
    @inlinable package var lfuLeads: Bool { weightLRU < weightLFU }

    // libCacheSim's weight update for a miss on a ghost of the expert `lru` names, evicted `age`
    // requests ago: that expert's weight shrinks, then both are normalized (in this order, so the
    // doubles are libCacheSim's).
    @inlinable package mutating func penalize(lru: Bool, age: Int64) {
        guard updatesWeights else { return }
        let reward = pow(discountRate, Double(age))
        var wrong = lru ? weightLRU : weightLFU
        var other = lru ? weightLFU : weightLRU
        wrong = wrong * exp(-learningRate * reward) + 1e-10
        let sum = wrong + other + 2e-10
        wrong = wrong / sum
        other = (other + 1e-10) / sum
        if lru {
            (weightLRU, weightLFU) = (wrong, other)
        } else {
            (weightLFU, weightLRU) = (wrong, other)
        }
    }

    // Drops the oldest ghost of `list` if it costs more than `limit`, and returns it.
    @inline(__always)
    @inlinable package static func dropOldest(
        of list: inout CostedList, in ghosts: inout RecordPool<Ghost>, over limit: Int
    ) -> Int32? {
        guard list.cost > limit else { return nil }
        let oldest = list.head
        list.remove(oldest, cost: ghosts.costs[oldest], in: ghosts.links)
        ghosts.remove(oldest)
        return oldest
    }

    @inline(__always)
    @inlinable package mutating func prefetchCandidate(_ slot: Int32, settled: Bool) {
        recencyLinks.prefetch(slot, settled: settled)
        frequencyLinks.prefetch(slot, settled: settled)
        if !settled { frequency.prefetch(Int(slot)) }
    }

    @inline(__always)
    @inlinable package mutating func joinFrequency(_ slot: Int32) {
        frequencyLists.append(slot, toList: frequency[slot], in: frequencyLinks)
    }

    // libCacheSim's remove_from_freq_node: unlinks, and moves min_freq up if that emptied it.
    @inline(__always)
    @inlinable package mutating func leaveFrequency(_ slot: Int32) {
        let f = frequency[slot]
        frequencyLists[f].remove(slot, in: frequencyLinks)
        if f == minFrequency && frequencyLists[f].isEmpty { raiseMinFrequency() }
    }

    // libCacheSim's update_min_freq: the first non-empty frequency above min_freq up to
    // max_freq, or min_freq unchanged if there is none.
    @inlinable package mutating func raiseMinFrequency() {
        if let f = frequencyLists.firstNonEmpty(above: minFrequency, through: maxFrequency) { minFrequency = f }
    }
}
