/// An index from keys to slot numbers: open addressing with linear probing and backward-shift
/// deletion, so it needs no tombstones and never rehashes while its size stays put.
///
/// - Complexity: O(1) expected lookup, insert and remove; growth doubles the table.
/// - Invariant: the table holds at most half as many keys as buckets; every key sits in the run
///   of occupied buckets that starts at its home bucket.
@usableFromInline package struct SlotIndex<Key: CacheKey> {
    /// A key and its slot side by side, so a probe touches one cache line. `slot < 0` marks an
    /// empty bucket: an encoding private to the index, whose lookups answer nil instead.
    @usableFromInline package struct Bucket {
        @usableFromInline package var key: Key?
        @usableFromInline package var slot: Int32

        @inlinable package init(key: Key?, slot: Int32) {
            self.key = key
            self.slot = slot
        }
    }

    @usableFromInline package var buckets: SlotArray<Bucket>
    @usableFromInline package var mask: Int
    /// 64 − log2(bucket count): `home` keeps the product's top bits, the well-mixed ones.
    @usableFromInline package var shift: UInt64
    @usableFromInline package var count = 0

    @inlinable package init(minimumCapacity: Int) {
        var size = 16
        while size < minimumCapacity * 2 { size <<= 1 }
        buckets = SlotArray(count: size, filling: Bucket(key: nil, slot: -1))
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    // Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4): multiply by 2^64 / φ, keep the top bits.
    @inline(__always)
    @inlinable package func home(_ key: Key) -> Int {
        Int(truncatingIfNeeded: (key.hashBits &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Starts loading `key`'s home bucket, for a lookup soon.
    @inline(__always)
    @inlinable package mutating func prefetch(_ key: Key) {
        buckets.prefetch(home(key))
    }

    /// The slot stored for `key`, or nil when `key` is absent.
    @inline(__always)
    @inlinable package func slot(for key: Key) -> Int32? {
        var position = home(key)
        while true {
            let slot = buckets[position].slot
            if slot < 0 { return nil }
            if buckets[position].key == key { return slot }
            position = (position + 1) & mask
        }
    }

    /// Whether `key` has a slot.
    @inline(__always)
    @inlinable package func contains(_ key: Key) -> Bool { slot(for: key) != nil }

    /// Records `slot` for `key`, which must not be present.
    @inline(__always)
    @inlinable package mutating func insert(_ key: Key, slot: Int32) {
        if (count + 1) * 2 > buckets.count { grow() }
        var position = home(key)
        while buckets[position].slot >= 0 { position = (position + 1) & mask }
        buckets[position] = Bucket(key: key, slot: slot)
        count += 1
    }

    /// Stores `slot` for `key`, which must be present, in place of the slot it had: one probe,
    /// nothing moved.
    @inline(__always)
    @inlinable package mutating func replace(_ key: Key, slot: Int32) {
        var position = home(key)
        while buckets[position].key != key { position = (position + 1) & mask }
        buckets[position].slot = slot
    }

    /// Forgets `key`, which must be present.
    @inline(__always)
    @inlinable package mutating func remove(_ key: Key) {
        var hole = home(key)
        while buckets[hole].key != key { hole = (hole + 1) & mask }
        // Backward shift: pull later members of the probe run into the hole so lookups that
        // pass over it still find them.
        var next = (hole + 1) & mask
        while buckets[next].slot >= 0 {
            let want = home(buckets[next].key!)
            // The candidate may move into the hole unless its home lies cyclically in (hole, next].
            if (hole - want) & mask < (next - want) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = Bucket(key: nil, slot: -1)
        count -= 1
    }

    @inlinable package mutating func removeAll() {
        buckets.fill(with: Bucket(key: nil, slot: -1))
        count = 0
    }

    @inlinable package mutating func grow() {
        let old = buckets
        buckets = SlotArray(count: old.count * 2, filling: Bucket(key: nil, slot: -1))
        mask = buckets.count - 1
        shift -= 1
        count = 0
        for position in 0..<old.count where old[position].slot >= 0 {
            insert(old[position].key!, slot: old[position].slot)
        }
    }

    /// Every (key, slot) pair, for invariant checks.
    @inlinable package var pairs: [(Key, Int32)] {
        (0..<buckets.count).compactMap { position in
            let bucket = buckets[position]
            return bucket.slot >= 0 ? (bucket.key!, bucket.slot) : nil
        }
    }

    @inlinable package func checkInvariants() {
        var stored = 0
        for position in 0..<buckets.count where buckets[position].slot >= 0 {
            stored += 1
            let key = buckets[position].key!
            precondition(slot(for: key) == buckets[position].slot, "SlotIndex: key unreachable from its home bucket")
        }
        precondition(stored == count, "SlotIndex: count \(count) but \(stored) keys stored")
        precondition(count * 2 <= buckets.count, "SlotIndex: load factor above one half")
    }
}
