extension CacheCore {
    @inlinable package func checkInvariants() {
        index.checkInvariants()
        let pairs: [(Key, Int32)]
        if Self.policyIndexes {
            // The policy's table is the index: it must find every entry's key at its slot.
            precondition(index.count == 0, "Cache: the policy indexes the keys, yet the cache's index holds some")
            pairs = policy.checkedSlots().map { (entries[$0].key!, $0) }
            for (key, slot) in pairs {
                precondition(
                    policy._indexedSlot(for: key.hashBits) == slot, "Cache: the policy's table misplaces slot \(slot)")
            }
        } else {
            pairs = index.pairs.filter { !Policy._keepsGhostsInIndex || $0.1 < Self.ghostTag }
        }
        let live = Set(pairs.map(\.1))
        var sum = 0
        for (key, slot) in pairs {
            precondition(entries[slot].key == key, "Cache: index and slot disagree on slot \(slot)")
            sum += entries[slot].cost
        }
        let ghosts = index.pairs.filter { Policy._keepsGhostsInIndex && $0.1 >= Self.ghostTag }.map {
            (key: $0.0, record: $0.1 - Self.ghostTag)
        }
        for ghost in ghosts {
            precondition(ghostKeys[ghost.record] == ghost.key, "Cache: ghost \(ghost.record) holds another key")
        }
        let keptGhostKeys = (0..<ghostKeys.count).count { ghostKeys[$0] != nil }
        precondition(ghosts.count == keptGhostKeys, "Cache: \(ghosts.count) ghosts indexed, \(keptGhostKeys) kept")
        precondition(
            Set(ghosts.map(\.record)) == Set(policy._checkedGhosts()),
            "Cache: the index and the policy disagree on the ghosts")
        precondition(sum == totalCost, "Cache: totalCost \(totalCost) but entries cost \(sum)")
        precondition(
            totalCost <= configuration.capacity || Policy._resizesOnHit || Policy._makesRoomItself,
            "Cache: totalCost \(totalCost) over capacity")
        let policySlots = policy.checkedSlots()
        precondition(
            policySlots.count == live.count && Set(policySlots) == live,
            "Cache: policy holds \(policySlots.count) slots, index \(live.count)")
        if configuration.ttl != nil {
            expiryOrder.checkInvariants(in: expiryLinks, name: "Cache.expiryOrder")
            let ordered = expiryOrder.slots(in: expiryLinks)
            precondition(Set(ordered) == live, "Cache: expiry list and index disagree")
            precondition(
                zip(ordered, ordered.dropFirst()).allSatisfy { entries[$0].expiry <= entries[$1].expiry },
                "Cache: expiry list out of order")
        }
        precondition(freeSlots.inUse == live.count, "Cache: a slot leaked")
        precondition(
            (freeSlots.firstUnused..<entries.count).allSatisfy { entries[$0].key == nil },
            "Cache: an unused slot holds a key")
    }

    @inlinable package var storedKeys: [Key] {
        policy.checkedSlots().compactMap { entries[$0].key }
    }
}
