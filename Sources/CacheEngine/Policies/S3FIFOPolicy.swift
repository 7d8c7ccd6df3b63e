/// Evicts from a small FIFO while the main FIFO is within its share: the small queue's oldest
/// entry moves to main if it was hit twice, else leaves and its key joins a ghost FIFO; main's
/// oldest entry is reinserted while it was hit since it entered (its count lowered by one).
///
/// S3-FIFO (Yang, Zhang, Qiu, Yue and Rashmi, "FIFO queues are all you need for cache eviction",
/// SOSP 2023) with libCacheSim's defaults and rules: the small queue gets 10 % of the capacity,
/// main the rest, the ghost FIFO remembers keys worth 90 % (all measured in the entries' costs,
/// bytes or one each), move-to-main threshold 2, counts capped at 3 when main reinserts. A miss
/// found in the ghost FIFO enters main, others the small queue, except that until the first
/// eviction, entries go to main once the small queue is full. An entry costing more than the
/// small queue is not stored; one costing exactly as much is not stored either but evicts first
/// (`Admission.evictOnly`), unless it came from the ghost FIFO. Matches libCacheSim's `S3FIFO`
/// exactly, except below a capacity of 10, where the small queue rounds to nothing: libCacheSim
/// stops there, this policy stores nothing.
///
/// - Complexity: O(1) access and insert; evict O(1) amortized (every entry it moves or reinserts
///   was hit since it was last moved).
/// - Invariant: `small` and `main` hold exactly the live slots, each tagged with its queue;
///   `small.cost` and `main.cost` are the sums of their entries' costs.
public struct S3FIFOPolicy: AdmittingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "S3FIFO"
    public static let summary = "small FIFO, main FIFO and ghost FIFO (libCacheSim S3FIFO)"
    public static let storedShare: Double? = 0.1
    public static let relativeCost = 1.6

    /// The small queue's share of the capacity.
    @usableFromInline package let smallLimit: Int
    /// Main's share of the capacity (the rest).
    @usableFromInline package let mainLimit: Int
    /// Hits in the small queue that send an entry to main instead of out.
    @usableFromInline package static let moveToMainThreshold = 2
    @usableFromInline package var queues = SmallAndMainQueues(name: "S3-FIFO")
    @usableFromInline package let hits = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    /// nil when the ghost's share rounds to nothing (libCacheSim then keeps none).
    @usableFromInline package var ghost: GhostFIFO?
    /// The key `admit` just looked at was a ghost: it goes to main.
    @usableFromInline package var cameFromGhost = false
    /// Whether anything was evicted yet; before that, a full small queue sends entries to main.
    @usableFromInline package var hasEvicted = false

    @usableFromInline package typealias Queue = SmallAndMainQueues.Queue

    @inlinable public init(configuration: CacheConfiguration) {
        // libCacheSim multiplies the capacity by the ratios in double precision and truncates.
        let capacity = configuration.capacity
        smallLimit = Int(Double(capacity) * 0.1)
        mainLimit = capacity - smallLimit
        let ghostLimit = Int(Double(capacity) * 0.9)
        ghost = ghostLimit > 0 ? GhostFIFO(capacity: ghostLimit) : nil
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        queues.grow(to: slotCount)
        hits.grow(to: slotCount, filling: 0)
        keys.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        // libCacheSim takes the key out of the ghost FIFO while looking it up, before asking
        // whether it fits.
        cameFromGhost = ghost?.remove(key) ?? false
        if cost > smallLimit { return .reject }
        return cameFromGhost || cost < smallLimit ? .store : .evictOnly
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        queues.costs[slot] = cost
        keys[slot] = key
        hits[slot] = 0
        if cameFromGhost || (!hasEvicted && queues.small.cost >= smallLimit) {
            cameFromGhost = false
            queues.join(slot, .main)
        } else {
            queues.join(slot, .small)
        }
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) { hits[slot] += 1 }

    /// The ghost FIFO's bucket for `key`, which `admit` probes on a miss.
    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) { ghost?.prefetch(key) }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? {
        queues.main.cost > mainLimit || queues.small.cost == 0 ? queues.main.first : queues.small.first
    }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        queues.links.prefetch(slot, settled: settled)
        if settled {
            // A small-queue victim's key joins the ghost FIFO: its bucket there.
            if queues.queue[slot] == .small { ghost?.prefetch(keys[slot]) }
        } else {
            queues.queue.prefetch(Int(slot))
            hits.prefetch(Int(slot))
            keys.prefetch(Int(slot))
            queues.costs.prefetch(Int(slot))
        }
    }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        if !settled { hits.prefetch(Int(slot)) }
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { queues.leave(slot) }

    @inlinable public mutating func notStored() { cameFromGhost = false }

    @inlinable public mutating func evict() -> Int32? {
        hasEvicted = true
        while true {
            // Evicting from the small queue may only move its entries to main: then look again.
            let victim: Int32? = queues.main.cost > mainLimit || queues.small.cost == 0 ? evictMain() : evictSmall()
            if let victim { return victim }
        }
    }

    @inlinable public mutating func removeAll() {
        queues.removeAll()
        ghost?.removeAll()
        cameFromGhost = false
        hasEvicted = false
    }

    @inlinable public func checkedSlots() -> [Int32] { queues.checkedSlots(ghost: ghost) }

    /// The keys in the small queue and in main, oldest first (for tests).
    @inlinable package var queueKeys: (small: [UInt64], main: [UInt64]) { queues.queueKeys(keys) }

    /// The keys the ghost FIFO remembers, oldest first (for tests).
    @inlinable package var ghostKeys: [UInt64] { ghost?.storedKeys ?? [] }

    /// The hits counted for the entry of `key`, or nil if it is not stored (for tests).
    @inlinable package func hitCount(of key: UInt64) -> Int? { queues.hitCount(of: key, keys: keys, hits: hits) }

    // The small queue's oldest entries move to main while they were hit often enough; the first
    // one that was not leaves (its key becomes a ghost) and is returned. nil if none is left.
    @inline(__always)
    @inlinable package mutating func evictSmall() -> Int32? {
        queues.evictSmall(hits: hits, threshold: Self.moveToMainThreshold, keys: keys, ghost: &ghost)
    }

    // Main's oldest entries go round again while they were hit, one hit fewer (at most 2 left);
    // the first one that was not is returned.
    @inline(__always)
    @inlinable package mutating func evictMain() -> Int32 {
        while hits[queues.main.head] > 0 {
            let slot = queues.main.head
            hits[slot] = min(hits[slot], 3) - 1
            queues.rotateMain(slot)
        }
        let slot = queues.main.head
        queues.leave(slot)
        return slot
    }

}
