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

    /// Hits in the small queue that send an entry to main instead of out.
    @usableFromInline package static let moveToMainThreshold = 2
    /// The queues, keys, hits and ghost FIFO, and the rules S3-FIFO shares with Clock2Q+.
    @usableFromInline package var queues: SmallAndMainQueues

    @inlinable public init(configuration: CacheConfiguration) {
        queues = SmallAndMainQueues(name: "S3-FIFO", capacity: configuration.capacity)
    }

    @inlinable public mutating func grow(to slotCount: Int) { queues.grow(to: slotCount) }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission { queues.admit(key, cost: cost) }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        _ = queues.insert(slot, key: key, cost: cost)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) { queues.hits[slot] += 1 }

    /// The ghost FIFO's bucket for `key`, which `admit` probes on a miss.
    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) { queues.ghost?.prefetch(key) }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { evictsMain ? queues.main.first : queues.small.first }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        queues.links.prefetch(slot, settled: settled)
        if settled {
            // A small-queue victim's key joins the ghost FIFO: its bucket there.
            if queues.queue[slot] == .small { queues.ghost?.prefetch(queues.keys[slot]) }
        } else {
            queues.queue.prefetch(Int(slot))
            queues.hits.prefetch(Int(slot))
            queues.keys.prefetch(Int(slot))
            queues.costs.prefetch(Int(slot))
        }
    }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        if !settled { queues.hits.prefetch(Int(slot)) }
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { queues.leave(slot) }

    @inlinable public mutating func notStored() { queues.cameFromGhost = false }

    @inlinable public mutating func evict() -> Int32? {
        queues.hasEvicted = true
        while true {
            // Evicting from the small queue may only move its entries to main: then look again.
            if evictsMain { return evictMain() }
            if let victim = queues.evictSmall(threshold: Self.moveToMainThreshold) { return victim }
        }
    }

    @inlinable public mutating func removeAll() { queues.removeAll() }

    @inlinable public func checkedSlots() -> [Int32] { queues.checkedSlots() }

    // Main while it is over its share or the small queue holds nothing, else the small queue.
    @inline(__always)
    @inlinable package var evictsMain: Bool { queues.main.cost > queues.mainLimit || queues.small.cost == 0 }

    // Main's oldest entries go round again while they were hit, one hit fewer (at most 2 left);
    // the first one that was not is returned.
    @inline(__always)
    @inlinable package mutating func evictMain() -> Int32 {
        let hits = queues.hits
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
