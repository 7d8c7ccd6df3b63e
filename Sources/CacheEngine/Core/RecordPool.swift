/// Numbered records a policy keeps beside its cached entries (LeCaR's ghosts; with a key index
/// around them, `KeyedRecords`): each a cost and fields of the policy's own (`Extra`), linked into
/// the policy's lists through `links` (a `CostedList` per list, over `costs`).
///
/// Places are reused as records go (`FreePlaces`, as a cache's slots) and the storage doubles
/// when full, so nothing allocates once it has grown to the most records held at once.
///
/// - Complexity: O(1) add and remove; `removeAll` O(the places used since the last).
/// - Invariant: every place is either live or free, once; the places never used since the pool
///   was made or emptied hold `filler`.
@usableFromInline package struct RecordPool<Extra> {
    /// Each record's cost, for the `CostedList`s threaded through `links`.
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let extras: SlotArray<Extra>
    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var free = FreePlaces()
    @usableFromInline package let filler: Extra

    /// No records; `filler` fills the extra fields of places not in use.
    @inlinable package init(filler: Extra) {
        self.filler = filler
        extras = SlotArray(count: 0, filling: filler)
    }

    /// How many places there are: records are numbered below it.
    @inlinable package var capacity: Int { costs.count }

    /// How many records are live.
    @inlinable package var count: Int { free.inUse }

    /// A new record, not linked in any list; its place is the one freed last, if any.
    @inline(__always)
    @inlinable package mutating func add(cost: Int, extra: Extra) -> Int32 {
        let record: Int32
        if let place = free.take(below: costs.count) {
            record = place
        } else {
            reserve(Swift.max(16, costs.count * 2))
            record = free.take(below: costs.count)!
        }
        costs[record] = cost
        extras[record] = extra
        return record
    }

    /// Frees `record`, which the caller has unlinked from its lists.
    @inline(__always)
    @inlinable package mutating func remove(_ record: Int32) {
        extras[record] = filler
        free.free(record)
    }

    /// Starts loading `record`'s cost, extra fields and links (a hint).
    @inline(__always)
    @inlinable package func prefetch(_ record: Int32) {
        costs.prefetch(Int(record))
        extras.prefetch(Int(record))
        links.prefetch(record, settled: false)
    }

    /// Frees every record at once (the caller empties its lists).
    @inlinable package mutating func removeAll() {
        for record in 0..<free.firstUnused { extras[record] = filler }
        free.removeAll()
    }

    /// Checks that `live` and the free places together are every place once (stops with a
    /// message naming `name` if not).
    @inlinable package func checkPlaces(live: Int, name: String) {
        precondition(free.inUse == live, "\(name): a record place leaked")
    }

    @inlinable package mutating func reserve(_ count: Int) {
        costs.grow(to: count, filling: 0)
        extras.grow(to: count, filling: filler)
        links.grow(to: count)
    }
}
