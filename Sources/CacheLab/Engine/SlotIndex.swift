/// An index from keys to slot numbers: open addressing with linear probing and backward-shift
/// deletion, so it needs no tombstones and never rehashes while its size stays put.
///
/// - Complexity: O(1) expected lookup, insert and remove; growth doubles the table.
/// - Invariant: the table holds at most half as many keys as buckets; every key sits in the run
///   of occupied buckets that starts at its home bucket.
struct SlotIndex<Key: CacheKey> {
    private var keys: [Key?]
    private var slots: [Int32]
    private var mask: Int
    private(set) var count = 0

    init(minimumCapacity: Int) {
        var buckets = 16
        while buckets < minimumCapacity * 2 { buckets <<= 1 }
        keys = Array(repeating: nil, count: buckets)
        slots = Array(repeating: -1, count: buckets)
        mask = buckets - 1
    }

    @inline(__always)
    private func home(_ key: Key) -> Int {
        Int(truncatingIfNeeded: key.mixedHash) & mask
    }

    /// The slot stored for `key`, or -1.
    @inline(__always)
    func slot(for key: Key) -> Int32 {
        var bucket = home(key)
        while let stored = keys[bucket] {
            if stored == key { return slots[bucket] }
            bucket = (bucket + 1) & mask
        }
        return -1
    }

    /// Records `slot` for `key`, which must not be present.
    @inline(__always)
    mutating func insert(_ key: Key, slot: Int32) {
        if (count + 1) * 2 > keys.count { grow() }
        var bucket = home(key)
        while keys[bucket] != nil { bucket = (bucket + 1) & mask }
        keys[bucket] = key
        slots[bucket] = slot
        count += 1
    }

    /// Forgets `key`, which must be present.
    @inline(__always)
    mutating func remove(_ key: Key) {
        var hole = home(key)
        while keys[hole] != key { hole = (hole + 1) & mask }
        // Backward shift: pull later members of the probe run into the hole so lookups that
        // pass over it still find them.
        var next = (hole + 1) & mask
        while let candidate = keys[next] {
            let want = home(candidate)
            // The candidate may move into the hole unless its home lies cyclically in (hole, next].
            let distanceToHole = (hole - want) & mask
            let distanceToNext = (next - want) & mask
            if distanceToHole < distanceToNext {
                keys[hole] = candidate
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = nil
        slots[hole] = -1
        count -= 1
    }

    mutating func removeAll() {
        for bucket in keys.indices {
            keys[bucket] = nil
            slots[bucket] = -1
        }
        count = 0
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldSlots = slots
        keys = Array(repeating: nil, count: oldKeys.count * 2)
        slots = Array(repeating: -1, count: oldKeys.count * 2)
        mask = keys.count - 1
        count = 0
        for bucket in oldKeys.indices {
            if let key = oldKeys[bucket] { insert(key, slot: oldSlots[bucket]) }
        }
    }

    /// Every (key, slot) pair, for invariant checks.
    var pairs: [(Key, Int32)] {
        keys.indices.compactMap { bucket in keys[bucket].map { ($0, slots[bucket]) } }
    }

    func checkInvariants() {
        var stored = 0
        for bucket in keys.indices {
            guard let key = keys[bucket] else { continue }
            stored += 1
            precondition(slot(for: key) == slots[bucket], "SlotIndex: key unreachable from its home bucket")
        }
        precondition(stored == count, "SlotIndex: count \(count) but \(stored) keys stored")
        precondition(count * 2 <= keys.count, "SlotIndex: load factor above one half")
    }
}
