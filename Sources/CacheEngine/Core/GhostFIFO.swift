/// The keys of recently evicted entries ("ghosts"), oldest first, bounded by the sum of their
/// costs the way libCacheSim bounds the FIFO caches it uses as ghost lists (2Q's Aout, S3-FIFO's
/// ghost queue): a key is added at the new end after the oldest leave until it fits, unless it is
/// there already (nothing moves) or costs more than the whole queue (nothing is added).
///
/// A `GhostRing` with an index of its own (`SlotIndex` of ring positions).
///
/// - Complexity: O(1) lookup and removal; O(1) amortized add.
/// - Invariant: the index holds exactly the live ghosts, each under its ring position;
///   `totalCost` is the sum of their costs and at most `capacity`.
@usableFromInline package struct GhostFIFO {
    @usableFromInline package var ghosts: GhostRing
    @usableFromInline package var index = SlotIndex<UInt64>(minimumCapacity: 16)

    @inlinable package init(capacity: Int) {
        ghosts = GhostRing(capacity: capacity)
    }

    /// The most the ghosts' costs may add up to.
    @inlinable package var capacity: Int { ghosts.capacity }
    @inlinable package var totalCost: Int { ghosts.totalCost }
    /// Live ghosts.
    @inlinable package var count: Int { ghosts.count }

    @inlinable package func contains(_ key: UInt64) -> Bool { index.contains(key) }

    /// Starts loading `key`'s index bucket, for a lookup soon.
    @inline(__always)
    @inlinable package mutating func prefetch(_ key: UInt64) { index.prefetch(key) }

    /// Forgets `key`; returns whether it was a ghost.
    @inline(__always)
    @inlinable package mutating func remove(_ key: UInt64) -> Bool { take(key) != nil }

    /// Forgets `key`; returns the cost it was remembered with, or nil if it was not a ghost.
    @inline(__always)
    @inlinable package mutating func take(_ key: UInt64) -> Int? {
        guard let slot = index.slot(for: key) else { return nil }
        return ghosts.take(key, at: slot, in: &index)
    }

    /// Remembers `key`, evicted with `cost`, at the new end (see the type's rules).
    @inline(__always)
    @inlinable package mutating func add(_ key: UInt64, cost: Int) { ghosts.add(key, cost: cost, in: &index) }

    /// Forgets the oldest ghost; there must be one.
    @inline(__always)
    @inlinable package mutating func removeOldest() { ghosts.removeOldest(in: &index) }

    @inlinable package mutating func removeAll() {
        index.removeAll()
        ghosts.removeAll()
    }

    /// The ghost keys, oldest first (for tests).
    @inlinable package var storedKeys: [UInt64] { ghosts.storedKeys }

    @inlinable package func checkInvariants(name: String) {
        index.checkInvariants()
        precondition(index.count == count, "\(name): \(index.count) keys indexed, \(count) ghosts")
        ghosts.checkInvariants(name: name, index: index)
    }
}
