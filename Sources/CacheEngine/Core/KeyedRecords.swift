/// Records of keys a policy remembers but the cache does not store (Cacheus's history and ghost
/// caches, MQ's and LIRS's): a `RecordPool` (each record a cost and fields of the policy's own,
/// `Extra`, linked into the policy's lists through `links`) whose records are also found by key
/// through a `SlotIndex`.
///
/// - Complexity: O(1) expected find, add and remove.
/// - Invariant: the index holds exactly the live records' keys, each under its place.
@usableFromInline package struct KeyedRecords<Extra> {
    @usableFromInline package var index = SlotIndex<UInt64>(minimumCapacity: 16)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    @usableFromInline package var pool: RecordPool<Extra>
    /// The pool's: each record's cost, its extra fields and its links.
    @usableFromInline package let costs: SlotArray<Int>
    @usableFromInline package let extras: SlotArray<Extra>
    @usableFromInline package let links: SlotLinks

    /// No records; `filler` fills the extra fields of places not in use.
    @inlinable package init(filler: Extra) {
        pool = RecordPool(filler: filler)
        costs = pool.costs
        extras = pool.extras
        links = pool.links
    }

    @inlinable package var count: Int { index.count }

    /// How many places there are: records are numbered below it (for links kept beside).
    @inlinable package var capacity: Int { pool.capacity }

    /// The place of `key`'s record, or nil when `key` has none.
    @inline(__always)
    @inlinable package func find(_ key: UInt64) -> Int32? { index.slot(for: key) }

    @inline(__always)
    @inlinable package func contains(_ key: UInt64) -> Bool { index.contains(key) }

    /// Starts loading the index bucket a `find(key)` will read (a hint).
    @inline(__always)
    @inlinable package mutating func prefetch(_ key: UInt64) { index.prefetch(key) }

    /// Starts loading `record`'s key, cost, extra fields and links, once found (a hint).
    @inline(__always)
    @inlinable package func prefetchRecord(_ record: Int32) {
        keys.prefetch(Int(record))
        pool.prefetch(record)
    }

    /// Starts loading the fields and links of `key`'s record, if it has one (its bucket should
    /// have been loaded by a `prefetch(key)` before). A hint.
    @inline(__always)
    @inlinable package func prefetchRecord(forKey key: UInt64) {
        if let record = find(key) { prefetchRecord(record) }
    }

    /// For a record a policy will soon take out or move (a queue's oldest): its fields while it
    /// is new to the caller (`settled` false), then, once they have arrived (the same record as
    /// on the request before), the bucket its key is indexed in. A hint.
    @inline(__always)
    @inlinable package mutating func prefetchComing(_ record: Int32?, settled: Bool) {
        guard let record else { return }
        if settled { prefetch(keys[record]) } else { prefetchRecord(record) }
    }

    /// For an entry about to leave a policy and be remembered here under its key (a ghost): the
    /// entry's key and cost in the policy's own arrays, then, once they have arrived
    /// (`settled`), the bucket that key goes to. A hint.
    @inline(__always)
    @inlinable package mutating func prefetchRemembering(
        _ slot: Int32, keys slotKeys: SlotArray<UInt64>, costs: SlotArray<Int>, settled: Bool
    ) {
        if settled {
            prefetch(slotKeys[slot])
        } else {
            slotKeys.prefetch(Int(slot))
            costs.prefetch(Int(slot))
        }
    }

    @inline(__always)
    @inlinable package func key(_ record: Int32) -> UInt64 { keys[record] }

    /// Adds a record for `key`, which must have none, and returns its place (not linked in any list).
    @inline(__always)
    @inlinable package mutating func add(_ key: UInt64, cost: Int, extra: Extra) -> Int32 {
        let record = pool.add(cost: cost, extra: extra)
        if Int(record) >= keys.count { keys.grow(to: pool.capacity, filling: 0) }
        keys[record] = key
        index.insert(key, slot: record)
        return record
    }

    /// Forgets `record`, which the caller has unlinked from its lists.
    @inline(__always)
    @inlinable package mutating func remove(_ record: Int32) {
        index.remove(keys[record])
        pool.remove(record)
    }

    @inlinable package mutating func removeAll() {
        for (_, record) in index.pairs { pool.remove(record) }
        index.removeAll()
    }

    /// The places of the live records (for invariant checks).
    @inlinable package var places: [Int32] { index.pairs.map(\.1) }

    /// Checks the index (stops with a message naming `name` if it is broken).
    @inlinable package func checkInvariants(name: String) {
        index.checkInvariants()
        for (key, record) in index.pairs {
            precondition(keys[record] == key, "\(name): record \(record) holds another key than its index entry")
        }
        pool.checkPlaces(live: index.count, name: name)
    }
}
