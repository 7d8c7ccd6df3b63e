import Synchronization

/// Counts the bytes a cache's bookkeeping holds: every `SlotArray` (the engine's index, per-entry
/// fields and free list, and the policy's lists, counters, ghosts and heaps) made or grown while
/// the ledger is `current` adds its allocation here. A replay reads it to report what a policy's
/// metadata costs per cached entry, measured rather than estimated.
///
/// Only allocations are counted, never reads or writes: the per-request path is untouched.
public final class StorageLedger: Sendable {
    /// The ledger that allocations on this task (or thread, outside any task) are charged to.
    @TaskLocal public static var current: StorageLedger?

    @usableFromInline package let live = Atomic<Int>(0)
    @usableFromInline package let highWater = Atomic<Int>(0)

    @inlinable public init() {}

    /// Bytes allocated and not yet freed.
    @inlinable public var bytes: Int { live.load(ordering: .relaxed) }

    /// The most bytes held at once.
    @inlinable public var peakBytes: Int { highWater.load(ordering: .relaxed) }

    /// Records that `delta` bytes were allocated (or, if negative, freed).
    @inlinable package func record(_ delta: Int) {
        let now = live.add(delta, ordering: .relaxed).newValue
        highWater.max(now, ordering: .relaxed)
    }
}
