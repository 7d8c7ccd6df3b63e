/// The keys of recently evicted entries ("ghosts"), oldest first, bounded by the sum of their
/// costs the way libCacheSim bounds the FIFO caches it uses as ghost lists (2Q's Aout, S3-FIFO's
/// ghost queue): a key is added at the new end after the oldest leave until it fits, unless it is
/// there already (nothing moves) or costs more than the whole queue (nothing is added).
///
/// The ghosts sit in a ring, oldest first, so the oldest is always at hand without following a
/// link: a ghost taken from the middle (a ghost hit) leaves a tombstone that the oldest end skips.
/// Keys are found through a `SlotIndex` of ring positions. When a ghost leaves the oldest end, the
/// index bucket of the next oldest starts loading (`prefetch`), since it is the next to go. Nothing
/// is allocated once the ring and the index have grown to the most ghosts held at once.
///
/// - Complexity: O(1) lookup and removal; O(1) amortized add (each key leaves at most once; the
///   ring is compacted, its tombstones dropped, when it fills).
/// - Invariant: the index holds exactly the live ghosts, each under its ring position;
///   `totalCost` is the sum of their costs and at most `capacity`.
@usableFromInline package struct GhostFIFO {
    /// One place in the ring: a ghost, or a tombstone (`cost < 0`).
    @usableFromInline package struct Entry {
        @usableFromInline package var key: UInt64
        @usableFromInline package var cost: Int

        @inlinable package init(key: UInt64, cost: Int) {
            self.key = key
            self.cost = cost
        }
    }

    /// The most the ghosts' costs may add up to.
    @usableFromInline package let capacity: Int
    @usableFromInline package var totalCost = 0
    /// Live ghosts.
    @usableFromInline package var count = 0
    @usableFromInline package var ring = SlotArray<Entry>(count: 16, filling: Entry(key: 0, cost: -1))
    /// Positions, counted from the start and taken modulo the ring's size: `head` the oldest
    /// entry (perhaps a tombstone), `tail` where the next is added.
    @usableFromInline package var head = 0
    @usableFromInline package var tail = 0
    @usableFromInline package var index = SlotIndex<UInt64>(minimumCapacity: 16)

    @inlinable package init(capacity: Int) {
        self.capacity = capacity
    }

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
        guard let position = index.slot(for: key) else { return nil }
        let cost = ring[position].cost
        ring[position].cost = -1
        index.remove(key)
        totalCost -= cost
        count -= 1
        return cost
    }

    /// Remembers `key`, evicted with `cost`, at the new end (see the type's rules).
    @inline(__always)
    @inlinable package mutating func add(_ key: UInt64, cost: Int) {
        guard cost <= capacity, !index.contains(key) else { return }
        while totalCost + cost > capacity { removeOldest() }
        if tail - head == ring.count { makeRoom() }
        let position = tail & (ring.count - 1)
        ring[position] = Entry(key: key, cost: cost)
        index.insert(key, slot: Int32(position))
        tail += 1
        totalCost += cost
        count += 1
    }

    /// Forgets the oldest ghost; there must be one.
    @inline(__always)
    @inlinable package mutating func removeOldest() {
        skipTombstones()
        let entry = ring[head & (ring.count - 1)]
        index.remove(entry.key)
        totalCost -= entry.cost
        count -= 1
        head += 1
        skipTombstones()
        // The next oldest goes next: its bucket starts loading now.
        if head < tail { index.prefetch(ring[head & (ring.count - 1)].key) }
    }

    @inlinable package mutating func removeAll() {
        index.removeAll()
        ring.fill(with: Entry(key: 0, cost: -1))
        head = 0
        tail = 0
        totalCost = 0
        count = 0
    }

    /// The ghost keys, oldest first (for tests).
    @inlinable package var storedKeys: [UInt64] {
        (head..<tail).compactMap { position in
            let entry = ring[position & (ring.count - 1)]
            return entry.cost >= 0 ? entry.key : nil
        }
    }

    @inlinable package func checkInvariants(name: String) {
        index.checkInvariants()
        precondition(index.count == count, "\(name): \(index.count) keys indexed, \(count) ghosts")
        precondition(tail - head <= ring.count, "\(name): \(tail - head) entries in a ring of \(ring.count)")
        var sum = 0
        var live = 0
        for position in head..<tail {
            let entry = ring[position & (ring.count - 1)]
            guard entry.cost >= 0 else { continue }
            precondition(
                index.slot(for: entry.key) == Int32(position & (ring.count - 1)),
                "\(name): ghost at \(position) not indexed under its place")
            sum += entry.cost
            live += 1
        }
        precondition(live == count, "\(name): \(live) live entries, count \(count)")
        precondition(sum == totalCost, "\(name): totalCost \(totalCost) but ghosts cost \(sum)")
        precondition(totalCost <= capacity, "\(name): totalCost \(totalCost) over capacity \(capacity)")
    }

    @inline(__always)
    @inlinable package mutating func skipTombstones() {
        while head < tail && ring[head & (ring.count - 1)].cost < 0 { head += 1 }
    }

    /// The ring is full: lays the live ghosts out again from position 0, in order, in a ring
    /// twice as big when more than half of it is live (else the same size, tombstones dropped),
    /// and indexes their new positions.
    @inlinable package mutating func makeRoom() {
        let size = count * 2 > ring.count ? ring.count * 2 : ring.count
        let old = ring
        let oldMask = old.count - 1
        ring = SlotArray(count: size, filling: Entry(key: 0, cost: -1))
        index.removeAll()
        var position = 0
        for from in head..<tail {
            let entry = old[from & oldMask]
            guard entry.cost >= 0 else { continue }
            ring[position] = entry
            index.insert(entry.key, slot: Int32(position))
            position += 1
        }
        head = 0
        tail = position
    }
}
