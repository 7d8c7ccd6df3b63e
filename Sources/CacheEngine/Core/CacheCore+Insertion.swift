/// Storing, removing, expiring and evicting entries, and the slots they live in.
extension CacheCore {
    @discardableResult
    @inlinable package mutating func insert(
        _ value: Value, forKey key: Key, size: Int, at now: Int64, filtered: Bool
    ) -> Bool {
        if let existing = liveSlot(for: key) { removeSlot(existing, notifyPolicy: true, reason: nil) }
        return insertAbsent(value, forKey: key, size: size, at: now, filtered: filtered)
    }

    /// `insert` for a key known to be absent (the simulator, right after a miss): one probe less.
    /// `filtered`: the admission filter is asked (a miss), not bypassed (a restored entry).
    @inline(__always)
    @inlinable package mutating func insertAbsent(
        _ value: Value, forKey key: Key, size: Int, at now: Int64, filtered: Bool
    ) -> Bool {
        assert(liveSlot(for: key) == nil, "insertAbsent: the key is present")
        var cost = configuration.cost(ofSize: size)
        let admission = policy._admit(key.hashBits, cost: cost)
        if Policy._keepsGhostsInIndex, let ghost = index.slot(for: key) {
            policy._ghostReturned(ghost - Self.ghostTag)
            forgetGhost(ghost - Self.ghostTag)
        }
        if filtered, let gate {
            // As libCacheSim: the request is counted, then the filter asked before any size check.
            if gate.observes { gate.observe(key.hashBits, cost: cost, capacity: configuration.capacity) }
            if !gate.admits(key.hashBits, cost: cost) {
                notAdmitted += 1
                if admission != .reject { policy._notStored() }
                return false
            }
        }
        guard admission != .reject, cost <= configuration.capacity else { return false }
        cost = policy._storedCost(cost)
        if !Policy._makesRoomItself, totalCost + cost > configuration.capacity, !makeRoom(for: cost, at: now) {
            return false
        }
        guard admission == .store, policy._storesAfterEvictions(cost: cost) else { return false }
        while let victim = policy._victimBeforeInsert(cost: cost) { evict(victim) }

        let slot = takeSlot()
        if !Self.policyIndexes { index.insert(key, slot: slot) }
        if Self.keepsValues { values[slot] = value }
        totalCost += cost
        if let ttl = configuration.ttl {
            entries[slot] = Entry(key: key, cost: cost, expiry: Self.expiry(at: now, ttl: ttl))
            expiryOrder.append(slot, in: expiryLinks)
        } else {
            entries[slot] = Entry(key: key, cost: cost, expiry: 0)
        }
        policy.inserted(slot, key: key.hashBits, cost: cost)
        while let victim = policy._pendingVictim() { evict(victim) }
        return true
    }

    @discardableResult
    @inlinable package mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = liveSlot(for: key) else { return nil }
        let value = storedValue(slot)
        removeSlot(slot, notifyPolicy: true, reason: nil)
        return value
    }

    @inlinable package mutating func restartAdmission() {
        random.reseed(configuration.randomSeed)
        gate = configuration.admission.map { AdmissionGate($0, random: random) }
    }

    @inlinable package mutating func removeAll() {
        // Only the slots handed out since the cache was made or emptied can hold an entry. When
        // they are few against the index's buckets, their keys leave the index one by one, which
        // leaves it as empty as clearing every bucket would (a probe run shifts back as each key
        // goes); ghosts kept in the index are not among them, so that index is cleared whole.
        let keyByKey =
            !Self.policyIndexes && !Policy._keepsGhostsInIndex && index.count <= index.buckets.count / 16
        if !keyByKey { index.removeAll() }
        ghostKeys.fill(with: nil)
        policy.removeAll()
        expiryOrder.removeAll()
        for slot in 0..<freeSlots.firstUnused {
            if keyByKey, let key = entries[slot].key { index.remove(key) }
            entries[slot].key = nil
            if Self.keepsValues { values[slot] = nil }
        }
        freeSlots.removeAll()
        totalCost = 0
    }

    // Expired entries go first, then live ones in the policy's order, until the new entry fits
    // (or, when trimming, until the total is down to the low-water mark). False if the policy
    // evicted the new entry itself (GDSF): then it is not stored.
    @inlinable package mutating func makeRoom(for cost: Int, at now: Int64) -> Bool {
        if configuration.ttl != nil {
            removeExpired(at: now)
            if totalCost + cost <= configuration.capacity { return true }
        }
        // An entry too big for the low-water mark still fits under the capacity: trim just enough.
        let lowWater = lowWaterMark
        return evict(downTo: (cost > lowWater ? configuration.capacity : lowWater) - cost)
    }

    /// Removes every entry whose lifetime is over at `now`, counting expirations.
    @inlinable package mutating func removeExpired(at now: Int64) {
        guard configuration.ttl != nil else { return }
        while let oldest = expiryOrder.first, entries[oldest].expiry <= now {
            expirations += 1
            removeSlot(oldest, notifyPolicy: true, reason: .expired)
        }
    }

    /// Evicts in the policy's order until the total cost is at most `target`. Returns false,
    /// stopping there, if the policy chose the entry about to be stored instead (`evict()`
    /// answered nil).
    @discardableResult
    @inlinable package mutating func evict(downTo target: Int) -> Bool {
        while totalCost > target, count > 0 {
            // nil: the policy ranked the newcomer last, so it goes instead (GDSF).
            guard let victim = policy.evict() else { return false }
            if totalCost - entries[victim].cost > target { prefetchBurst() }
            evict(victim)
        }
        while let victim = policy._pendingVictim() { evict(victim) }
        return true
    }

    // More evictions follow this one (a large newcomer): the victim after it (whose entry should
    // have been requested before) gets its key's bucket, and the three after that their entries
    // and the policy's data, so that a burst of evictions does not wait on each victim in turn.
    // (Three rather than two: SLRU 0.936 and 0.946, LFUDA 0.960, the rest within noise.)
    @inline(__always)
    @inlinable package mutating func prefetchBurst() {
        policy._foreseeVictims()
        guard var slot = policy._victimHint() else { return }
        if !Self.policyIndexes, let key = entries[slot].key { index.prefetch(key) }
        policy._prefetchVictim(slot, settled: true)
        for _ in 0..<3 {
            guard let after = policy._victimHint(after: slot) else { return }
            entries.prefetch(Int(after))
            policy._prefetchVictim(after, settled: false)
            slot = after
        }
    }

    /// Removes `victim`, which the policy has already forgotten, as an eviction.
    @inline(__always)
    @inlinable package mutating func evict(_ victim: Int32) {
        evictions += 1
        guard Policy._keepsGhostsInIndex, let ghost = policy._remember(victim, cost: entries[victim].cost) else {
            removeSlot(victim, notifyPolicy: false, reason: .evicted)
            return
        }
        removeSlot(victim, notifyPolicy: false, reason: .evicted, ghost: ghost)
        while let forgotten = policy._forgottenGhost() { forgetGhost(forgotten) }
    }

    // Removes the entry in `slot`; its key stays in the index as `ghost`'s, if given.
    @inline(__always)
    @inlinable package mutating func removeSlot(
        _ slot: Int32, notifyPolicy: Bool, reason: RemovalReason?, ghost: Int32? = nil
    ) {
        if let reason, let onRemoval { onRemoval(entries[slot].key!, storedValue(slot), reason) }
        if notifyPolicy { policy.removed(slot, key: entries[slot].key!.hashBits) }
        if configuration.ttl != nil { expiryOrder.remove(slot, in: expiryLinks) }
        if let ghost {
            let key = entries[slot].key!
            index.replace(key, slot: Self.ghostTag + ghost)
            if Int(ghost) >= ghostKeys.count { ghostKeys.grow(to: max(16, Int(ghost) * 2), filling: nil) }
            ghostKeys[ghost] = key
        } else if !Self.policyIndexes {
            index.remove(entries[slot].key!)
        }
        entries[slot].key = nil
        if Self.keepsValues { values[slot] = nil }
        totalCost -= entries[slot].cost
        freeSlots.free(slot)
    }

    // Takes ghost `record`'s key out of the index.
    @inline(__always)
    @inlinable package mutating func forgetGhost(_ record: Int32) {
        index.remove(ghostKeys[record]!)
        ghostKeys[record] = nil
    }

    // The slot freed last, else the lowest never used (growing when every slot is in use).
    @inline(__always)
    @inlinable package mutating func takeSlot() -> Int32 {
        if let slot = freeSlots.take(below: entries.count) { return slot }
        reserveSlots(entries.count * 2)
        return freeSlots.take(below: entries.count)!
    }

    // Grows every per-slot array to `slotCount`; the new slots are free, never used.
    @inlinable package mutating func reserveSlots(_ slotCount: Int) {
        let old = entries.count
        guard slotCount > old else { return }
        precondition(
            !Policy._keepsGhostsInIndex || slotCount <= Int(Self.ghostTag),
            "Cache: more than 2^30 entries beside ghosts in the index")
        entries.grow(to: slotCount, filling: Entry(key: nil, cost: 0, expiry: 0))
        if Self.keepsValues { values.grow(to: slotCount, filling: nil) }
        if configuration.ttl != nil { expiryLinks.grow(to: slotCount) }  // untouched without a TTL
        policy.grow(to: slotCount)
    }
}
