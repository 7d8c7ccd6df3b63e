/// The keys of recently evicted entries ("ghosts") in a ring, oldest first, bounded by the sum
/// of their costs; the index that finds a key's place is its owner's, passed to each method that
/// changes it (`in index:`), so that two rings may share one (ARC's B1 and B2: a miss then looks a
/// key up once, not once per list).
///
/// A ghost taken from the middle (a ghost hit) leaves a tombstone that the oldest end skips, so
/// the oldest is always at hand without following a link. Each ghost is indexed under its ring
/// position plus the ring's `tag`, which tells sharing rings apart. When a ghost leaves the oldest
/// end, the index bucket of the next oldest starts loading, since it is the next to go. Nothing
/// is allocated once the ring and the index have grown to the most ghosts held at once.
///
/// - Complexity: O(1) removal by place; O(1) amortized add (each key leaves at most once; the
///   ring is compacted, its tombstones dropped, when it fills).
/// - Invariant: the index holds each live ghost under its position plus `tag`; `totalCost` is
///   the sum of their costs and at most `capacity`.
@usableFromInline package struct GhostRing {
    /// One place in the ring: a ghost, or a tombstone (`cost < 0`).
    @usableFromInline package struct Entry {
        @usableFromInline package var key: UInt64
        @usableFromInline package var cost: Int

        @inlinable package init(key: UInt64, cost: Int) {
            self.key = key
            self.cost = cost
        }
    }

    /// The bit a second ring sharing an index sets in the slots it stores.
    @inlinable package static var secondTag: Int32 { 1 << 30 }

    /// The most the ghosts' costs may add up to.
    @usableFromInline package let capacity: Int
    /// Added to every position this ring stores in the index.
    @usableFromInline package let tag: Int32
    @usableFromInline package var totalCost = 0
    /// Live ghosts.
    @usableFromInline package var count = 0
    @usableFromInline package var ring = SlotArray<Entry>(count: 16, filling: Entry(key: 0, cost: -1))
    /// Positions, counted from the start and taken modulo the ring's size: `head` the oldest
    /// entry (perhaps a tombstone), `tail` where the next is added.
    @usableFromInline package var head = 0
    @usableFromInline package var tail = 0

    @inlinable package init(capacity: Int, tag: Int32 = 0) {
        self.capacity = capacity
        self.tag = tag
    }

    /// Whether `slot`, from the shared index, is one of this ring's.
    @inline(__always)
    @inlinable package func holds(_ slot: Int32) -> Bool { slot & Self.secondTag == tag }

    /// Forgets the ghost at `slot` (found in the index under `key`); returns its cost.
    @inline(__always)
    @inlinable package mutating func take(_ key: UInt64, at slot: Int32, in index: inout SlotIndex<UInt64>) -> Int {
        let position = Int(slot & ~Self.secondTag)
        let cost = ring[position].cost
        ring[position].cost = -1
        index.remove(key)
        totalCost -= cost
        count -= 1
        return cost
    }

    /// Remembers `key`, evicted with `cost`, at the new end, after the oldest leave until it
    /// fits; nothing is added if it costs more than `capacity` or the index has it already.
    @inline(__always)
    @inlinable package mutating func add(_ key: UInt64, cost: Int, in index: inout SlotIndex<UInt64>) {
        guard cost <= capacity, !index.contains(key) else { return }
        while totalCost + cost > capacity { removeOldest(in: &index) }
        if tail - head == ring.count { makeRoom(in: &index) }
        let position = tail & (ring.count - 1)
        ring[position] = Entry(key: key, cost: cost)
        index.insert(key, slot: Int32(position) | tag)
        tail += 1
        totalCost += cost
        count += 1
    }

    /// Forgets the oldest ghost; there must be one.
    @inline(__always)
    @inlinable package mutating func removeOldest(in index: inout SlotIndex<UInt64>) {
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

    /// Empties the ring (its keys stay in the index: the owner clears that).
    @inlinable package mutating func removeAll() {
        ring.fill(with: Entry(key: 0, cost: -1))
        head = 0
        tail = 0
        totalCost = 0
        count = 0
    }

    /// The ghost keys, oldest first.
    @inlinable package var storedKeys: [UInt64] {
        (head..<tail).compactMap { position in
            let entry = ring[position & (ring.count - 1)]
            return entry.cost >= 0 ? entry.key : nil
        }
    }

    @inlinable package func checkInvariants(name: String, index: SlotIndex<UInt64>) {
        precondition(tail - head <= ring.count, "\(name): \(tail - head) entries in a ring of \(ring.count)")
        var sum = 0
        var live = 0
        for position in head..<tail {
            let entry = ring[position & (ring.count - 1)]
            guard entry.cost >= 0 else { continue }
            precondition(
                index.slot(for: entry.key) == Int32(position & (ring.count - 1)) | tag,
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
    /// and gives the index their new positions.
    @inlinable package mutating func makeRoom(in index: inout SlotIndex<UInt64>) {
        let size = count * 2 > ring.count ? ring.count * 2 : ring.count
        let old = ring
        let oldMask = old.count - 1
        ring = SlotArray(count: size, filling: Entry(key: 0, cost: -1))
        var position = 0
        for from in head..<tail {
            let entry = old[from & oldMask]
            guard entry.cost >= 0 else { continue }
            ring[position] = entry
            index.replace(entry.key, slot: Int32(position) | tag)
            position += 1
        }
        head = 0
        tail = position
    }
}
