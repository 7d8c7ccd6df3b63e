/// The engine's state and logic; see `Cache`.
@usableFromInline package struct CacheCore<Key: CacheKey, Value, Policy: EvictionPolicy> {
    @usableFromInline package let configuration: CacheConfiguration
    @usableFromInline package var onRemoval: ((Key, Value?, RemovalReason) -> Void)?
    /// `configuration.lowWaterMark`, computed once.
    @usableFromInline package let lowWaterMark: Int
    @usableFromInline package var totalCost = 0
    /// Entries evicted to make room.
    @usableFromInline package var evictions = 0
    /// Entries removed because their lifetime was over.
    @usableFromInline package var expirations = 0
    /// Misses the admission filter refused.
    @usableFromInline package var notAdmitted = 0
    /// The admission filter at work, if the configuration names one.
    @usableFromInline package var gate: AdmissionGate?

    /// What the engine keeps per slot, side by side so one cache line serves a request.
    @usableFromInline package struct Entry {
        @usableFromInline package var key: Key?
        @usableFromInline package var cost: Int
        /// Trace time at which the entry expires (meaningful only with a TTL).
        @usableFromInline package var expiry: Int64

        @inlinable package init(key: Key?, cost: Int, expiry: Int64) {
            self.key = key
            self.cost = cost
            self.expiry = expiry
        }
    }

    /// Each live key's slot and, for a policy that keeps its ghosts here
    /// (`EvictionPolicy.keepsGhostsInIndex`), each ghost's record plus `ghostTag`.
    @usableFromInline package var index: SlotIndex<Key>
    /// Index entries from here up are ghost records (`ghostTag + record`); slots stay below it.
    @inlinable package static var ghostTag: Int32 { 1 << 30 }
    /// Each ghost record's key (nil: no such ghost).
    @usableFromInline package let ghostKeys = SlotArray<Key?>(count: 0, filling: nil)
    /// The ghosts `comingForgottenGhosts` named on the last prefetch.
    @usableFromInline package var lastGhostHints: (Int32?, Int32?) = (nil, nil)
    @usableFromInline package let entries = SlotArray<Entry>(count: 0, filling: Entry(key: nil, cost: 0, expiry: 0))
    @usableFromInline package let values = SlotArray<Value?>(count: 0, filling: nil)
    /// The free slots: the slots from `freeSlots.firstUnused` up are empty, never used since the
    /// cache was made or emptied.
    @usableFromInline package var freeSlots = FreePlaces()
    /// The victim hint the last prefetch saw (nil before the first), and the victim it said
    /// would follow that one, already loading.
    @usableFromInline package var lastVictimHint: Int32?
    @usableFromInline package var followingVictimHint: Int32?
    /// The alternative victim the last prefetch saw (`PrefetchingPolicy.alternativeVictimHint`).
    @usableFromInline package var lastAlternativeHint: Int32?
    /// With a lookahead of 3: the victims the last prefetch saw coming.
    @usableFromInline package var coming = ComingVictims()
    @usableFromInline package var policy: Policy
    /// The random numbers of the policy and the admission filter, one stream as libCacheSim's.
    @usableFromInline package let random: LehmerRandom
    // With a TTL every entry's expiry is `now + ttl` at insertion (fixed) or at its last use
    // (sliding), so insertion or use order is expiry order: one list, oldest first.
    @usableFromInline package let expiryLinks = SlotLinks()
    @usableFromInline package var expiryOrder = SlotList()

    /// When an entry used or inserted at `now` expires: `now + ttl`, or the last representable
    /// time when that is past it (a huge `--ttl`, or a trace with huge times).
    @inline(__always)
    @inlinable package static func expiry(at now: Int64, ttl: Int64) -> Int64 {
        let (sum, overflow) = now.addingReportingOverflow(ttl)
        return overflow ? .max : sum
    }

    @inlinable package init(configuration: CacheConfiguration, expectedCount: Int) {
        self.configuration = configuration
        self.lowWaterMark = configuration.lowWaterMark
        let random = LehmerRandom(seed: configuration.randomSeed)
        self.random = random
        self.policy = Policy(configuration: configuration)
        gate = configuration.admission.map { AdmissionGate($0, random: random) }
        policy._share(random)
        // Ghosts are entries of the cache's index, which a policy that indexes the keys leaves empty.
        precondition(
            !(Policy._keepsGhostsInIndex && Policy._indexesKeys),
            "Cache: \(Policy.self) keeps its ghosts in the cache's index and indexes the keys itself")
        // A policy that indexes the keys leaves the cache's index empty: its smallest size.
        self.index = SlotIndex(minimumCapacity: Self.policyIndexes ? 0 : max(expectedCount, 16))
        reserveSlots(max(expectedCount, 16))
    }

    /// Whether the policy's table is the index (`EvictionPolicy.indexesKeys`): then `index` stays
    /// empty.
    @inlinable package static var policyIndexes: Bool { Policy._indexesKeys && Key.self == UInt64.self }

    /// Whether `values` holds anything: a cache of `Void` (the simulator's) keeps none, its
    /// every live entry's value being `()`.
    @inlinable package static var keepsValues: Bool { Value.self != Void.self }

    /// The value in live `slot`.
    @inline(__always)
    @inlinable package func storedValue(_ slot: Int32) -> Value? {
        Self.keepsValues ? values[slot] : unsafeBitCast((), to: Value.self)
    }

    /// Every slot not free holds a live entry (ghosts hold none), whichever table indexes them.
    @inlinable package var count: Int { freeSlots.inUse }

    /// The live slot of `key`, or nil when it is absent or only a ghost.
    @inline(__always)
    @inlinable package func liveSlot(for key: Key) -> Int32? {
        if Self.policyIndexes { return policy._indexedSlot(for: key.hashBits) }
        guard let slot = index.slot(for: key) else { return nil }
        return Policy._keepsGhostsInIndex && slot >= Self.ghostTag ? nil : slot
    }

    @inlinable package func ghostKey(_ record: Int32) -> Key { ghostKeys[record]! }

    @inlinable package func key(ofSlot slot: Int32) -> Key { entries[slot].key! }

    @inline(__always)
    @inlinable package mutating func upcoming(nextUse: Int64) { policy._upcoming(nextUse: nextUse) }

    @inlinable package func contains(_ key: Key) -> Bool { liveSlot(for: key) != nil }

    @inlinable package func cost(forKey key: Key) -> Int? {
        liveSlot(for: key).map { entries[$0].cost }
    }

    @inlinable package func isLive(_ key: Key, at now: Int64) -> Bool {
        guard let slot = liveSlot(for: key) else { return false }
        return configuration.ttl == nil || entries[slot].expiry > now
    }

    @inlinable package mutating func value(forKey key: Key, at now: Int64, requestSize: Int?) -> Value? {
        guard let slot = liveSlot(for: key) else { return nil }
        if let gate, gate.observes, configuration.ttl == nil || entries[slot].expiry > now {
            let cost = requestSize.map { configuration.cost(ofSize: $0) } ?? entries[slot].cost
            gate.observe(key.hashBits, cost: cost, capacity: configuration.capacity)
        }
        if let ttl = configuration.ttl {
            if entries[slot].expiry <= now {
                expirations += 1
                removeSlot(slot, notifyPolicy: true, reason: .expired)
                return nil
            }
            if configuration.ttlMode == .sliding {
                entries[slot].expiry = Self.expiry(at: now, ttl: ttl)
                expiryOrder.moveToTail(slot, in: expiryLinks)
            }
        }
        if Policy._resizesOnHit, let requestSize {
            let cost = configuration.cost(ofSize: requestSize)
            let old = entries[slot].cost
            if cost != old {
                entries[slot].cost = cost
                totalCost += cost - old
                policy._resized(slot, cost: cost)
            }
        }
        policy.accessed(slot)
        let value = storedValue(slot)
        while let victim = policy._pendingVictim() { evict(victim) }
        return value
    }
}
