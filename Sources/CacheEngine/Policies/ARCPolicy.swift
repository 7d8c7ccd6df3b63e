/// Evicts from T1 (entries used once lately) or T2 (used at least twice), whichever is over its
/// adaptive target: T1's share `p` grows when a key evicted from T1 comes back (it was evicted
/// too soon) and shrinks when one evicted from T2 does. Evicted keys are remembered as ghosts in
/// B1 and B2.
///
/// ARC (Megiddo and Modha, "ARC: A Self-Tuning, Low Overhead Replacement Cache", FAST 2003) with
/// libCacheSim's rules, which measure every list in the entries' costs (bytes, or one each):
/// - A ghost hit moves `p` by max(|B2| / |B1|, 1) towards T1 (B1 hit) or T2 (B2 hit), capped to
///   [0, capacity]; the entry comes back into T2. In byte mode that is about one byte per hit, so
///   byte mode and unit mode adapt differently even on equal sizes.
/// - A hit in T1 moves the entry to T2; a hit in T2 makes it T2's most recent.
/// - REPLACE evicts T1's least recent entry into B1 when T1 is non-empty and over `p` (or at `p`
///   for a B2 hit), or when T2 is empty; otherwise T2's into B2.
/// - A miss on every list: if T1 + B1 + the newcomer exceed the capacity, B1's oldest ghost goes
///   and REPLACE runs, or, with B1 empty, T1's least recent entry goes with no ghost; otherwise,
///   once all four lists reach twice the capacity, B2's oldest ghost goes, and REPLACE runs.
/// - Like libCacheSim, which ghost list the last request found is kept until the next hit or
///   ghost hit, and REPLACE reads it.
///
/// Matches libCacheSim's `ARC` exactly.
///
/// - Complexity: O(1) access, insert and evict (intrusive lists; the ghosts in two `GhostRing`s
///   sharing one index, so a miss looks its key up among the ghosts once).
/// - Invariant: T1 and T2 hold exactly the live slots, each tagged with its list, and their
///   costs are the sums of their entries'; a key is never both cached and a ghost.
public struct ARCPolicy: AdmittingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "ARC"
    public static let summary =
        "recency list T1 and frequency list T2 with an adaptive split and ghosts (libCacheSim ARC)"
    public static let relativeCost = 1.6

    /// Capacity in cost units.
    @usableFromInline package let capacity: Int
    /// T1's target share `p`, in cost units (a double, as libCacheSim's).
    @usableFromInline package var target: Double = 0
    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var t1 = SlotList()
    @usableFromInline package var t2 = SlotList()
    @usableFromInline package var t1Cost = 0
    @usableFromInline package var t2Cost = 0
    @usableFromInline package let list = SlotArray<UInt8>(count: 0, filling: 0)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    // B1 and B2 have no bound of their own: the rules above trim them. One index finds a ghost
    // of either (B2's under its tag).
    @usableFromInline package var b1 = GhostRing(capacity: .max)
    @usableFromInline package var b2 = GhostRing(capacity: .max, tag: GhostRing.secondTag)
    @usableFromInline package var ghosts = SlotIndex<UInt64>(minimumCapacity: 16)
    /// The last key found was a ghost of B1 / of B2 (libCacheSim's `curr_obj_in_L1_ghost` and
    /// `curr_obj_in_L2_ghost`): cleared by a hit or a ghost hit, and by storing that ghost.
    @usableFromInline package var lastFoundInB1 = false
    @usableFromInline package var lastFoundInB2 = false
    /// The request being served was a ghost hit (libCacheSim compares its request counter).
    @usableFromInline package var ghostHitNow = false
    /// The cost of the entry being stored, for the miss rule.
    @usableFromInline package var incoming = 0

    @inlinable public init(configuration: CacheConfiguration) {
        capacity = configuration.capacity
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        list.grow(to: slotCount, filling: 0)
        costs.grow(to: slotCount, filling: 0)
        keys.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) {
        ghosts.prefetch(key)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        ghostHitNow = false
        incoming = cost
        // The sizes of B1 and B2 before the ghost leaves, as libCacheSim computes the step.
        guard let slot = ghosts.slot(for: key) else { return .store }
        if b1.holds(slot) {
            let cost = b1.take(key, at: slot, in: &ghosts)
            (lastFoundInB1, lastFoundInB2, ghostHitNow) = (true, false, true)
            let delta = Swift.max(Double(b2.totalCost) / Double(b1.totalCost + cost), 1)
            target = Swift.min(target + delta, Double(capacity))
        } else {
            let cost = b2.take(key, at: slot, in: &ghosts)
            (lastFoundInB1, lastFoundInB2, ghostHitNow) = (false, true, true)
            let delta = Swift.max(Double(b1.totalCost) / Double(b2.totalCost + cost), 1)
            target = Swift.max(target - delta, 0)
        }
        return .store
    }

    @inlinable public mutating func notStored() {
        ghostHitNow = false
        incoming = 0
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        costs[slot] = cost
        keys[slot] = key
        if ghostHitNow && (lastFoundInB1 || lastFoundInB2) {
            join(slot, 2)
            (lastFoundInB1, lastFoundInB2, ghostHitNow) = (false, false, false)
        } else {
            join(slot, 1)
        }
        incoming = 0
    }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { replacesFromT1 ? t1.first : t2.first }

    /// The next in the victim's list, which REPLACE takes after it unless the split moves.
    @inline(__always)
    @inlinable public func victimHint(after slot: Int32) -> Int32? { links.next(slot) }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
        if settled {
            // The victim's key becomes a ghost of B1 or B2: its bucket there.
            ghosts.prefetch(keys[slot])
        } else {
            list.prefetch(Int(slot))
            keys.prefetch(Int(slot))
            costs.prefetch(Int(slot))
        }
    }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        if !settled {
            list.prefetch(Int(slot))
            costs.prefetch(Int(slot))
        }
        links.prefetchMove(slot, settled: settled)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        (lastFoundInB1, lastFoundInB2, ghostHitNow) = (false, false, false)
        if list[slot] == 1 {
            leave(slot)
            join(slot, 2)
        } else {
            t2.moveToTail(slot, in: links)
        }
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { leave(slot) }

    @inlinable public mutating func evict() -> Int32? {
        if ghostHitNow && (lastFoundInB1 || lastFoundInB2) { return replace() }
        if t1Cost + b1.totalCost + incoming > capacity {
            guard b1.totalCost > 0 else {
                // A trim (no insertion) may find T1 empty: REPLACE then takes T2's oldest.
                guard !t1.isEmpty else { return replace() }
                let slot = t1.head  // no ghost: it would overflow B1 at once
                leave(slot)
                return slot
            }
            b1.removeOldest(in: &ghosts)
        } else if t1Cost + b1.totalCost + t2Cost + b2.totalCost >= capacity * 2, b2.totalCost > 0 {
            b2.removeOldest(in: &ghosts)
        }
        return replace()
    }

    @inlinable public mutating func removeAll() {
        t1.removeAll()
        t2.removeAll()
        t1Cost = 0
        t2Cost = 0
        b1.removeAll()
        b2.removeAll()
        ghosts.removeAll()
        target = 0
        (lastFoundInB1, lastFoundInB2, ghostHitNow) = (false, false, false)
        incoming = 0
    }

    @inlinable public func checkedSlots() -> [Int32] {
        t1.checkInvariants(in: links, name: "ARC.T1")
        t2.checkInvariants(in: links, name: "ARC.T2")
        ghosts.checkInvariants()
        precondition(
            ghosts.count == b1.count + b2.count, "ARC: \(ghosts.count) ghosts indexed, \(b1.count + b2.count) kept")
        b1.checkInvariants(name: "ARC.B1", index: ghosts)
        b2.checkInvariants(name: "ARC.B2", index: ghosts)
        let inT1 = t1.slots(in: links)
        let inT2 = t2.slots(in: links)
        precondition(inT1.allSatisfy { list[$0] == 1 } && inT2.allSatisfy { list[$0] == 2 }, "ARC: a slot mistagged")
        precondition(inT1.reduce(0) { $0 + costs[$1] } == t1Cost, "ARC: T1's cost disagrees with its entries")
        precondition(inT2.reduce(0) { $0 + costs[$1] } == t2Cost, "ARC: T2's cost disagrees with its entries")
        precondition(
            (inT1 + inT2).allSatisfy { !ghosts.contains(keys[$0]) },
            "ARC: a cached key is also a ghost")
        precondition(target >= 0 && target <= Double(capacity), "ARC: p \(target) out of [0, \(capacity)]")
        return inT1 + inT2
    }

    /// The keys in T1, T2, B1 and B2, least recent (or oldest) first (for tests).
    @inlinable package var listKeys: (t1: [UInt64], t2: [UInt64], b1: [UInt64], b2: [UInt64]) {
        (t1.slots(in: links).map { keys[$0] }, t2.slots(in: links).map { keys[$0] }, b1.storedKeys, b2.storedKeys)
    }

    /// Whether REPLACE takes T1's least recent entry (else T2's).
    @inline(__always)
    @inlinable package var replacesFromT1: Bool {
        (t1Cost > 0 && (Double(t1Cost) > target || (Double(t1Cost) == target && lastFoundInB2))) || t2Cost == 0
    }

    // REPLACE: T1's least recent entry into B1, or T2's into B2.
    @inline(__always)
    @inlinable package mutating func replace() -> Int32 {
        let fromT1 = replacesFromT1
        let slot = fromT1 ? t1.head : t2.head
        leave(slot)
        if fromT1 {
            b1.add(keys[slot], cost: costs[slot], in: &ghosts)
        } else {
            b2.add(keys[slot], cost: costs[slot], in: &ghosts)
        }
        return slot
    }

    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ target: UInt8) {
        list[slot] = target
        if target == 1 {
            t1.append(slot, in: links)
            t1Cost += costs[slot]
        } else {
            t2.append(slot, in: links)
            t2Cost += costs[slot]
        }
    }

    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) {
        if list[slot] == 1 {
            t1.remove(slot, in: links)
            t1Cost -= costs[slot]
        } else {
            precondition(list[slot] == 2, "ARC: slot \(slot) is in no list")
            t2.remove(slot, in: links)
            t2Cost -= costs[slot]
        }
        list[slot] = 0
    }
}
