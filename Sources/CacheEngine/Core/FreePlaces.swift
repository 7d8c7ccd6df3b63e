/// Which numbered places are free (a cache's slots, a pool's records): those freed since the
/// places were made or emptied, on a stack, and every place from `firstUnused` up, never used
/// since. A place goes out as a stack of every free place would give it, the one freed last
/// first, then the lowest never used, so a caller numbers its entries the same either way; but
/// making room for many places, or emptying them, costs what was used, not what there is room for
/// (a client's memory tier is emptied at each relaunch holding a few of the entries it has room
/// for).
@usableFromInline package struct FreePlaces {
    /// The places freed since the last `removeAll`, the last freed on top.
    @usableFromInline package var freed = SlotStack()
    /// Places from here up have not been handed out since the last `removeAll`.
    @usableFromInline package var firstUnused = 0

    @inlinable package init() {}

    /// How many places below `firstUnused` are in use.
    @inlinable package var inUse: Int { firstUnused - freed.count }

    /// The place freed last, else the lowest never used below `capacity`; nil when every place
    /// below it is in use (the caller grows, then asks again).
    @inline(__always)
    @inlinable package mutating func take(below capacity: Int) -> Int32? {
        if !freed.isEmpty { return freed.pop() }
        guard firstUnused < capacity else { return nil }
        firstUnused += 1
        return Int32(firstUnused - 1)
    }

    /// Frees `place`, which was in use.
    @inline(__always)
    @inlinable package mutating func free(_ place: Int32) { freed.push(place) }

    /// Frees every place: the next goes out from 0.
    @inlinable package mutating func removeAll() {
        freed.removeAll()
        firstUnused = 0
    }
}
