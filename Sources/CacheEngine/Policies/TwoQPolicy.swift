/// Evicts from Am (LRU) while the FIFO Ain holds no more than its share, else the oldest entry of
/// Ain, whose key then goes to the ghost FIFO Aout; a miss found in Aout enters Am, others Ain.
///
/// Full 2Q (Johnson and Shasha, "2Q: A Low Overhead High Performance Buffer Management Replacement
/// Algorithm", VLDB 1994) with libCacheSim's defaults and rules: Ain gets 25 % of the capacity,
/// Am the rest, Aout remembers evicted Ain keys worth 50 % of the capacity (all three measured in
/// the entries' costs, bytes or one each). A hit in Ain changes nothing; a hit in Am moves the
/// entry to Am's recent end. An entry costing more than Ain's share is not stored (its ghost is
/// forgotten all the same), and an entry coming back from Aout first evicts Am's least recent
/// entries until Am's own share has room for it (`victimBeforeInsert`). Matches libCacheSim's
/// `TwoQ` exactly.
///
/// - Complexity: O(1) access, insert and evict (intrusive lists; ghosts in a `GhostFIFO`).
/// - Invariant: `ain` and `am` hold exactly the live slots, each tagged with its queue; `ain.cost`
///   and `am.cost` are the sums of their entries' costs.
public struct TwoQPolicy: AdmittingPolicy, SelfEvictingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "TwoQ"
    public static let summary = "FIFO Ain, LRU Am, ghost Aout sending returning keys to Am (libCacheSim TwoQ)"
    public static let storedShare: Double? = 0.25
    public static let relativeCost = 1.6

    /// Ain's share of the capacity: entries costing more are not stored.
    @usableFromInline package let ainLimit: Int
    /// Am's share of the capacity (the rest).
    @usableFromInline package let amLimit: Int
    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var ain = CostedList()
    @usableFromInline package var am = CostedList()
    @usableFromInline package let queue = SlotArray<Queue>(count: 0, filling: .none)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    @usableFromInline package var aout: GhostFIFO
    /// The key `admit` just looked at was in Aout: it goes to Am.
    @usableFromInline package var cameFromAout = false

    @usableFromInline package enum Queue: UInt8 {
        case none, ain, am
    }

    @inlinable public init(configuration: CacheConfiguration) {
        // libCacheSim multiplies the capacity by the ratios in double precision and truncates.
        let capacity = configuration.capacity
        ainLimit = Int(Double(capacity) * 0.25)
        amLimit = capacity - ainLimit
        aout = GhostFIFO(capacity: Int(Double(capacity) * 0.5))
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        queue.grow(to: slotCount, filling: .none)
        costs.grow(to: slotCount, filling: 0)
        keys.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        // libCacheSim takes the key out of Aout while looking it up, before asking whether it fits.
        cameFromAout = aout.remove(key)
        return cost <= ainLimit ? .store : .reject
    }

    @inline(__always)
    @inlinable public mutating func victimBeforeInsert(cost: Int) -> Int32? {
        // Am is a cache of its own in libCacheSim: it makes room within its share first.
        guard cameFromAout, am.cost + cost > amLimit, !am.isEmpty else { return nil }
        return take(am.head)
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        costs[slot] = cost
        keys[slot] = key
        if cameFromAout {
            cameFromAout = false
            queue[slot] = .am
            am.append(slot, cost: cost, in: links)
        } else {
            queue[slot] = .ain
            ain.append(slot, cost: cost, in: links)
        }
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        if queue[slot] == .am { am.moveToTail(slot, in: links) }
    }

    /// Aout's bucket for `key`, which `admit` probes on a miss.
    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) { aout.prefetch(key) }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? {
        ain.isEmpty || (am.cost > 0 && ain.cost <= ainLimit) ? am.first : ain.first
    }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
        if settled {
            // An Ain victim's key joins Aout: its bucket there.
            if queue[slot] == .ain { aout.prefetch(keys[slot]) }
        } else {
            queue.prefetch(Int(slot))
            keys.prefetch(Int(slot))
            costs.prefetch(Int(slot))
        }
    }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        if !settled { queue.prefetch(Int(slot)) }
        links.prefetchMove(slot, settled: settled)
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { _ = take(slot) }

    @inlinable public mutating func notStored() { cameFromAout = false }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        // (An empty Ain happens only with entries of cost 0, where libCacheSim would crash.)
        if ain.isEmpty || (am.cost > 0 && ain.cost <= ainLimit) { return take(am.head) }
        let victim = take(ain.head)
        aout.add(keys[victim], cost: costs[victim])
        return victim
    }

    @inlinable public mutating func removeAll() {
        ain.removeAll()
        am.removeAll()
        aout.removeAll()
        cameFromAout = false
    }

    @inlinable public func checkedSlots() -> [Int32] {
        aout.checkInvariants(name: "2Q.Aout")
        let inAin = ain.checkedSlots(in: links, costs: costs, name: "2Q.Ain")
        let inAm = am.checkedSlots(in: links, costs: costs, name: "2Q.Am")
        precondition(inAin.allSatisfy { queue[$0] == .ain }, "2Q: a slot in Ain is not tagged Ain")
        precondition(inAm.allSatisfy { queue[$0] == .am }, "2Q: a slot in Am is not tagged Am")
        return inAin + inAm
    }

    /// The keys in Ain, oldest first, and in Am, least recent first (for tests).
    @inlinable package var queueKeys: (ain: [UInt64], am: [UInt64]) {
        (ain.slots(in: links).map { keys[$0] }, am.slots(in: links).map { keys[$0] })
    }

    /// The keys Aout remembers, oldest first (for tests).
    @inlinable package var ghostKeys: [UInt64] { aout.storedKeys }

    // Unlinks `slot` from its queue and takes its cost off that queue's total.
    @inline(__always)
    @inlinable package mutating func take(_ slot: Int32) -> Int32 {
        switch queue[slot] {
        case .ain:
            ain.remove(slot, cost: costs[slot], in: links)
        case .am:
            am.remove(slot, cost: costs[slot], in: links)
        case .none:
            preconditionFailure("2Q: slot \(slot) is in no queue")
        }
        queue[slot] = .none
        return slot
    }
}
