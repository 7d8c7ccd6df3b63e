/// The engine's prefetch hints: which cache lines the next requests and evictions will touch,
/// loaded ahead while the current request is served.
extension CacheCore {
    // Mutating, so the index and the policy are reached in place (not copied, with their
    // storage retained and released) on every request.
    @inline(__always)
    @inlinable package mutating func prefetch(_ key: Key) {
        if Self.policyIndexes {
            policy._prefetchLookup(key.hashBits, settled: false)
        } else {
            index.prefetch(key)
        }
        policy._prefetch(key.hashBits)
        guard let victim = policy._victimHint() else { return }
        if Policy._victimLookahead > 2 {
            prefetchComing(from: victim)
        } else {
            prefetchNextTwo(victim)
        }
        // Another candidate: its entry, then (once that has arrived) its key's bucket.
        if let other = policy._alternativeVictimHint(), other != victim {
            if other == lastAlternativeHint {
                if !Self.policyIndexes, let key = entries[other].key { index.prefetch(key) }
            } else {
                entries.prefetch(Int(other))
                lastAlternativeHint = other
            }
        }
        if Policy._keepsGhostsInIndex { prefetchForgottenGhosts() }
    }

    // The ghosts to be forgotten soonest: each one's key, then (once it has arrived, the same
    // ghost as on the request before) its index bucket.
    @inline(__always)
    @inlinable package mutating func prefetchForgottenGhosts() {
        let hints = policy._comingForgottenGhosts()
        prefetchForgotten(hints.0, last: lastGhostHints.0)
        prefetchForgotten(hints.1, last: lastGhostHints.1)
        lastGhostHints = hints
    }

    @inline(__always)
    @inlinable package mutating func prefetchForgotten(_ record: Int32?, last: Int32?) {
        guard let record, Int(record) < ghostKeys.count else { return }
        if record == last {
            if let key = ghostKeys[record] { index.prefetch(key) }
        } else {
            ghostKeys.prefetch(Int(record))
        }
    }

    // The next victim's entry and links; once they have had a request's time to arrive (the
    // same victim as last time, or the one that was to follow it), its key's bucket too.
    @inline(__always)
    @inlinable package mutating func prefetchNextTwo(_ victim: Int32) {
        let settled = victim == lastVictimHint || victim == followingVictimHint
        if settled {
            if !Self.policyIndexes, let key = entries[victim].key { index.prefetch(key) }
            // The victim after it starts loading now, so it is settled when its turn comes.
            if let following = policy._victimHint(after: victim), following != followingVictimHint {
                entries.prefetch(Int(following))
                policy._prefetchVictim(following, settled: false)
                followingVictimHint = following
            }
        } else {
            entries.prefetch(Int(victim))
        }
        lastVictimHint = victim
        policy._prefetchVictim(victim, settled: settled)
    }

    // The next victims (`victimLookahead` of them), each a stage further than on the request
    // before: its entry and the policy's data, then its key's bucket. A slot's successor is
    // asked only once its own data has had a request to arrive. So when evictions come back to
    // back, each victim's bucket was requested a request before its eviction, not in the same
    // one. How far ahead pays differs by policy and by host: each policy's `victimLookahead`
    // is the one its paired runs chose (the Speed article has them).
    @inline(__always)
    @inlinable package mutating func prefetchComing(from first: Int32) {
        let seen = coming
        var now = ComingVictims()
        var slot = first
        for depth in 0..<min(Policy._victimLookahead, ComingVictims.capacity) {
            let stage = seen.stage(of: slot)
            switch stage {
            case 0:
                entries.prefetch(Int(slot))
                policy._prefetchVictim(slot, settled: false)
            case 1:
                if !Self.policyIndexes, let key = entries[slot].key { index.prefetch(key) }
                policy._prefetchVictim(slot, settled: true)
            default:
                if depth == 0 { policy._prefetchVictim(slot, settled: stage > 0) }
            }
            now.slots[depth] = slot
            now.stages[depth] = min(stage + 1, 2)
            guard stage > 0, let after = policy._victimHint(after: slot) else { break }
            slot = after
        }
        coming = now
    }

    /// Whether `prefetchHit` can load anything: false when the policy hints nothing for a hit
    /// or a miss (`PrefetchingPolicy.prefetchesHits`), keeps no keys of its own (an index or
    /// ghosts) and entries have no lifetime to check.
    @inlinable package var prefetchesHits: Bool {
        Policy._prefetchesHits || Self.policyIndexes || Policy._keepsGhostsInIndex || configuration.ttl != nil
    }

    /// Starts loading what a hit on `key` touches (the policy's data for its slot, its entry
    /// with a lifetime), a few requests before it comes, and returns the slot found (nil when
    /// `key` is absent: then what the policy's miss reads, `PrefetchingPolicy.prefetchMiss`).
    /// `key`'s bucket should have been prefetched earlier: the lookup reads it.
    @inline(__always)
    @inlinable package mutating func prefetchHit(_ key: Key) -> Int32? {
        if Self.policyIndexes {
            policy._prefetchLookup(key.hashBits, settled: true)
            return nil
        }
        guard let slot = index.slot(for: key) else {
            policy._prefetchMiss(key.hashBits)
            return nil
        }
        if Policy._keepsGhostsInIndex, slot >= Self.ghostTag {
            policy._prefetchGhost(slot - Self.ghostTag)
            return nil
        }
        if configuration.ttl != nil { entries.prefetch(Int(slot)) }
        policy._prefetchHit(slot, settled: false)
        return slot
    }

    /// The second step of `prefetchHit`, a few requests later: what the policy's data for `slot`
    /// leads to (a list's neighbours).
    @inline(__always)
    @inlinable package mutating func prefetchHitNeighbours(_ slot: Int32) { policy._prefetchHit(slot, settled: true) }
}
