/// Evicts from a small FIFO while the main queue is within its share: the small queue's oldest
/// entry moves to main if it was hit outside its correlation window, else leaves and its key
/// joins a ghost FIFO; main is a clock, its oldest entry going round again, count cleared, while
/// it was hit since it last went round.
///
/// Clock2Q+ as libCacheSim 0.3.5's `Clock2QPlus` defines it (2Q, Johnson and Shasha, VLDB 1994,
/// with a clock for Am and a correlation window for Ain), with its Python defaults: the small queue
/// gets 10 % of the capacity, main the rest, the ghost FIFO 90 % (truncated, in the entries' costs;
/// no ghost when that rounds to 0), a correlation window of half the small queue's share,
/// move-to-main threshold 1. libCacheSim computes adaptive bounds for the window but never uses
/// them, so the window is fixed. The rules:
/// - A hit in the small queue counts only when at least a window's worth of entries (counted as
///   they enter the small queue) came in after it; a hit in main always counts. Nothing moves.
/// - A miss takes its key out of the ghost FIFO, stored or not; a key that was there goes to main.
///   Any other newcomer goes to the small queue, or to main while the small queue is full and
///   nothing was evicted yet. An entry costing more than the small queue is not stored; one costing
///   exactly as much is not stored either but evicts first (`Admission.evictOnly`), unless it came
///   from the ghost FIFO.
/// - Eviction takes from main while main is over its share or the small queue is empty, else from
///   the small queue. A small-queue entry moving to main, or going round main, starts with no hits.
///
/// Matches libCacheSim's `Clock2QPlus` exactly.
///
/// - Complexity: O(1) access and insert; evict O(1) amortized (every entry moved or sent round
///   was hit since it was last moved).
/// - Invariant: `small` and `main` hold exactly the live slots, each tagged with its queue;
///   `small.cost` and `main.cost` are the sums of their entries' costs.
public struct Clock2QPlusPolicy: AdmittingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "Clock2QPlus"
    public static let summary =
        "small FIFO with a correlation window, main clock, ghost FIFO (libCacheSim Clock2QPlus)"
    public static let storedShare: Double? = 0.1
    public static let relativeCost = 1.6

    /// Entries that must enter the small queue after an entry before a hit on it counts.
    @usableFromInline package let correlationWindow: Double
    /// Hits in the small queue that send an entry to main instead of out.
    @usableFromInline package static let moveToMainThreshold = 1
    /// The queues, keys, hits and ghost FIFO, and the rules Clock2Q+ shares with S3-FIFO.
    @usableFromInline package var queues: SmallAndMainQueues
    /// When each small-queue entry came in, counted in entries admitted to the small queue.
    @usableFromInline package let admittedAt = SlotArray<Int64>(count: 0, filling: 0)
    /// Entries ever admitted to the small queue.
    @usableFromInline package var admittedToSmall: Int64 = 0

    // It hints nothing for a hit or a miss: the replay need not find a coming request's slot.
    @inlinable public static var prefetchesHits: Bool { false }

    @inlinable public init(configuration: CacheConfiguration) {
        queues = SmallAndMainQueues(name: "Clock2QPlus", capacity: configuration.capacity)
        correlationWindow = Double(queues.smallLimit) * 0.5
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        queues.grow(to: slotCount)
        admittedAt.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission { queues.admit(key, cost: cost) }

    @inlinable public mutating func notStored() { queues.cameFromGhost = false }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        if queues.insert(slot, key: key, cost: cost) == .small {
            admittedToSmall += 1
            admittedAt[slot] = admittedToSmall
        }
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        if queues.queue[slot] == .small && Double(admittedToSmall - admittedAt[slot]) < correlationWindow { return }
        queues.hits[slot] += 1
    }

    /// The ghost FIFO's bucket for `key`, which `admit` probes on a miss.
    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) { queues.ghost?.prefetch(key) }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { evictsMain ? queues.main.first : queues.small.first }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { queues.leave(slot) }

    @inlinable public mutating func evict() -> Int32? {
        queues.hasEvicted = true
        while true {
            // Evicting from the small queue may only move its entries to main: then look again.
            let victim = evictsMain ? evictMain() : queues.evictSmall(threshold: Self.moveToMainThreshold)
            if let victim { return victim }
        }
    }

    @inlinable public mutating func removeAll() { queues.removeAll() }

    @inlinable public func checkedSlots() -> [Int32] { queues.checkedSlots() }

    // Main while it is over its share or the small queue is empty, else the small queue.
    @inline(__always)
    @inlinable package var evictsMain: Bool { queues.main.cost > queues.mainLimit || queues.small.isEmpty }

    // Main's oldest entries go round again, hits cleared, while they were hit; the first one that
    // was not is returned. nil if main is empty.
    @inline(__always)
    @inlinable package mutating func evictMain() -> Int32? {
        while let slot = queues.main.first {
            guard queues.hits[slot] > 0 else {
                queues.leave(slot)
                return slot
            }
            queues.hits[slot] = 0
            queues.rotateMain(slot)
        }
        return nil
    }

}
