/// The one engine behind every policy: it stores entries, counts their cost against the capacity,
/// refuses oversized entries, expires entries whose lifetime is over, and evicts in the order its
/// `Policy` chooses until a new entry fits. A policy decides order, and may decline to store an
/// entry (`EvictionPolicy.admit`).
///
/// The simulator uses `Cache<UInt64, Void, P>`; the client's tiers use `Cache<String, Bytes, P>`.
///
/// - Complexity: O(1) expected per lookup and insert, plus O(1) per eviction or expiration.
/// - Invariant: `totalCost` is the sum of the stored entries' costs and never exceeds the
///   capacity (except, for a policy that `resizesOnHit`, after a hit that grew an entry, until the
///   next miss makes room, and for a policy that `makesRoomItself`, as its own count allows); the
///   index, the policy and (with a TTL) the expiry list hold exactly the live slots, and the index
///   besides them exactly the ghosts of a policy that `keepsGhostsInIndex`.
///
/// A final class with one owner (a replay loop, or the actor of a client tier): its per-entry
/// fields live in `SlotArray`s, so the per-request path does no copy-on-write checks and, once
/// warmed up, no allocation.
public final class Cache<Key: CacheKey, Value, Policy: EvictionPolicy>: ImageCaching {
    // All mutable state lives in one struct this object owns through a pointer, so the
    // per-request path is statically checked for exclusive access (no runtime access tracking,
    // which a class's stored properties would need).
    @usableFromInline package let core: UnsafeMutablePointer<CacheCore<Key, Value, Policy>>

    /// Creates an empty cache. `expectedCount` sizes the storage up front so that a replay does
    /// not grow it while it runs.
    @inlinable public init(configuration: CacheConfiguration, expectedCount: Int = 1024) {
        core = .allocate(capacity: 1)
        core.initialize(to: CacheCore(configuration: configuration, expectedCount: expectedCount))
    }

    deinit {
        core.deinitialize(count: 1)
        core.deallocate()
    }

    @inlinable public var configuration: CacheConfiguration { core.pointee.configuration }
    @inlinable public var count: Int { core.pointee.count }
    @inlinable public var totalCost: Int { core.pointee.totalCost }
    /// Entries evicted to make room.
    @inlinable public var evictions: Int { core.pointee.evictions }
    /// Entries removed because their lifetime was over.
    @inlinable public var expirations: Int { core.pointee.expirations }
    /// Misses the admission filter refused (`CacheConfiguration.admission`).
    @inlinable public var notAdmitted: Int { core.pointee.notAdmitted }

    /// Whether `key` is stored (expired or not), without touching the policy.
    @inlinable public func contains(_ key: Key) -> Bool { core.pointee.contains(key) }

    /// The cost `key` is stored at, without telling the policy (nil when absent).
    @inlinable public func cost(forKey key: Key) -> Int? { core.pointee.cost(forKey: key) }

    /// Whether a lookup of `key` at `now` would hit (stored and unexpired), without touching the
    /// policy or the expiry: a peek, for deciding whether to start a download early.
    @inlinable public func isLive(_ key: Key, at now: Int64) -> Bool { core.pointee.isLive(key, at: now) }

    /// Called for every entry the cache drops on its own — evicted to make room or expired —
    /// before it goes, so a tier that keeps the bytes elsewhere (the SQLite disk tier) can delete
    /// them. Not called for `removeValue`, `removeAll` or a replacing `insert`: the caller knows.
    @inlinable public var onRemoval: ((Key, Value?, RemovalReason) -> Void)? {
        get { core.pointee.onRemoval }
        set { core.pointee.onRemoval = newValue }
    }

    @inline(__always)
    @inlinable public func value(forKey key: Key, at now: Int64) -> Value? {
        core.pointee.value(forKey: key, at: now, requestSize: nil)
    }

    /// `value(forKey:at:)` for a request of `size` bytes, the simulator's lookup. A hit then takes
    /// the request's size wherever libCacheSim does: an admission filter that counts every request
    /// (AdaptSize) counts it at that size rather than the stored one, and a policy that
    /// `resizesOnHit` (libCacheSim's LHD) stores the entry at the cost of `size` from then on.
    /// With neither, it is `value(forKey:at:)`.
    @inline(__always)
    @inlinable public func value(forKey key: Key, size: Int, at now: Int64) -> Value? {
        core.pointee.value(forKey: key, at: now, requestSize: size)
    }

    /// Stores `value` (a download, a miss filled): the admission filter, if any, may refuse it.
    @inline(__always)
    @discardableResult
    @inlinable public func insert(_ value: Value, forKey key: Key, size: Int, at now: Int64) -> Bool {
        core.pointee.insert(value, forKey: key, size: size, at: now, filtered: true)
    }

    /// Stores again an entry the tier held before (rebuilt at a relaunch, a favourite let go): as
    /// `insert`, but past the admission filter, which admitted it once.
    @discardableResult
    @inlinable public func restore(_ value: Value, forKey key: Key, size: Int, at now: Int64) -> Bool {
        core.pointee.insert(value, forKey: key, size: size, at: now, filtered: false)
    }

    /// Inserts an entry whose key the caller knows is absent (a lookup just missed): the same
    /// rules as `insert`, one index probe fewer. The simulator's miss path.
    @inline(__always)
    @discardableResult
    @inlinable public func insertAfterMiss(_ value: Value, forKey key: Key, size: Int, at now: Int64) -> Bool {
        core.pointee.insertAbsent(value, forKey: key, size: size, at: now, filtered: true)
    }

    @discardableResult
    @inlinable public func removeValue(forKey key: Key) -> Value? { core.pointee.removeValue(forKey: key) }

    @inlinable public func removeAll() { core.pointee.removeAll() }

    /// A relaunch of the app: the admission filter forgets what it saw, and the random stream it
    /// shares with the policy starts again, as in a new engine (a filter's memory lives for one
    /// launch). Entries are left as they are.
    @inlinable public func restartAdmission() { core.pointee.restartAdmission() }

    /// A sweep, as image libraries run at launch or in the background: removes the expired
    /// entries, then, if the total cost is over `limit`, evicts in the policy's order down to
    /// `limit × trimRatio`. Returns the cost freed.
    @discardableResult
    @inlinable public func sweep(limit: Int, trimRatio: Double, at now: Int64) -> Int {
        let before = core.pointee.totalCost
        core.pointee.removeExpired(at: now)
        if core.pointee.totalCost > limit {
            core.pointee.evict(downTo: Int((Double(limit) * trimRatio).rounded(.down)))
        }
        return before - core.pointee.totalCost
    }

    /// Evicts in the policy's order until the total cost is at most `target` (a memory tier
    /// trimmed when the app goes to the background).
    @inlinable public func trim(toCost target: Int) { core.pointee.evict(downTo: max(target, 0)) }

    /// Starts loading what a lookup of `key` will read first (its index bucket, and the policy's
    /// ghost tables): the replay calls it a few requests ahead, so that the memory latency of
    /// one request overlaps the work of those before it. Changes nothing.
    @inline(__always)
    @inlinable public func prefetch(_ key: Key) { core.pointee.prefetch(key) }

    /// Starts loading what a hit on `key` will touch, once its index bucket has arrived (a
    /// `prefetch` some requests before), and returns its slot (nil when `key` is absent), for
    /// `prefetchHitNeighbours` a few requests later; for an absent key, what its miss will read
    /// of the policy's own records. Changes nothing.
    @inline(__always)
    @inlinable public func prefetchHit(_ key: Key) -> Int32? { core.pointee.prefetchHit(key) }

    /// Starts loading the neighbours of a slot `prefetchHit` returned. Changes nothing (the slot
    /// may have been reused since: the hint is then only wasted).
    @inline(__always)
    @inlinable public func prefetchHitNeighbours(_ slot: Int32) { core.pointee.prefetchHitNeighbours(slot) }

    /// Tells a policy that needs the future (`Policy.needsFuture`) when the request about to be
    /// served will come again: its trace position, or `Int64.max` for never.
    @inline(__always)
    @inlinable public func upcoming(nextUse: Int64) { core.pointee.upcoming(nextUse: nextUse) }

    /// Checks every invariant of the engine and its policy; stops with a message if one fails.
    @inlinable public func checkInvariants() { core.pointee.checkInvariants() }

    /// The stored keys, next victim first (as far as the policy can tell). For tests and debugging.
    @inlinable public var storedKeys: [Key] { core.pointee.storedKeys }

    /// The policy as it stands, for tests that look into its queues.
    @inlinable package var policy: Policy { core.pointee.policy }

    /// The slot holding `key`, or nil when it is absent: for tests that read a policy's per-slot
    /// fields.
    @inlinable package func slot(forKey key: Key) -> Int32? { core.pointee.liveSlot(for: key) }

    /// The keys of ghost `records` (a policy that keeps its ghosts in the index): for tests that
    /// read a policy's ghost lists.
    @inlinable package func ghostKeys(_ records: [Int32]) -> [Key] { records.map { core.pointee.ghostKey($0) } }

    /// The keys stored in live `slots`: for tests that read a policy's lists of slots.
    @inlinable package func keys(ofSlots slots: [Int32]) -> [Key] { slots.map { core.pointee.key(ofSlot: $0) } }

    /// How many keys the cache's own index holds (none when the policy's table is the index,
    /// `EvictionPolicy.indexesKeys`): for tests.
    @inlinable package var ownIndexCount: Int { core.pointee.index.count }
}

/// Why the cache dropped an entry on its own.
public enum RemovalReason: Sendable, Equatable {
    /// Evicted by the policy to make room.
    case evicted
    /// Its lifetime was over.
    case expired
}

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
    @usableFromInline package var freeSlots = SlotStack()
    /// The victim hint the last prefetch saw (nil before the first), and the victim it said
    /// would follow that one, already loading.
    @usableFromInline package var lastVictimHint: Int32?
    @usableFromInline package var followingVictimHint: Int32?
    /// The alternative victim the last prefetch saw (`EvictionPolicy.alternativeVictimHint`).
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
        policy.share(random)
        // Ghosts are entries of the cache's index, which a policy that indexes the keys leaves empty.
        precondition(
            !(Policy.keepsGhostsInIndex && Policy.indexesKeys),
            "Cache: \(Policy.self) keeps its ghosts in the cache's index and indexes the keys itself")
        // A policy that indexes the keys leaves the cache's index empty: its smallest size.
        self.index = SlotIndex(minimumCapacity: Self.policyIndexes ? 0 : max(expectedCount, 16))
        reserveSlots(max(expectedCount, 16))
    }

    /// Whether the policy's table is the index (`EvictionPolicy.indexesKeys`): then `index` stays
    /// empty.
    @inlinable package static var policyIndexes: Bool { Policy.indexesKeys && Key.self == UInt64.self }

    /// Whether `values` holds anything: a cache of `Void` (the simulator's) keeps none, its
    /// every live entry's value being `()`.
    @inlinable package static var keepsValues: Bool { Value.self != Void.self }

    /// The value in live `slot`.
    @inline(__always)
    @inlinable package func storedValue(_ slot: Int32) -> Value? {
        Self.keepsValues ? values[slot] : unsafeBitCast((), to: Value.self)
    }

    /// Every slot not free holds a live entry (ghosts hold none), whichever table indexes them.
    @inlinable package var count: Int { entries.count - freeSlots.count }

    /// The live slot of `key`, or nil when it is absent or only a ghost.
    @inline(__always)
    @inlinable package func liveSlot(for key: Key) -> Int32? {
        if Self.policyIndexes { return policy.indexedSlot(for: key.hashBits) }
        guard let slot = index.slot(for: key) else { return nil }
        return Policy.keepsGhostsInIndex && slot >= Self.ghostTag ? nil : slot
    }

    @inlinable package func ghostKey(_ record: Int32) -> Key { ghostKeys[record]! }

    @inlinable package func key(ofSlot slot: Int32) -> Key { entries[slot].key! }

    @inline(__always)
    @inlinable package mutating func upcoming(nextUse: Int64) { policy.upcoming(nextUse: nextUse) }

    // Mutating, so the index and the policy are reached in place (not copied, with their
    // storage retained and released) on every request.
    @inline(__always)
    @inlinable package mutating func prefetch(_ key: Key) {
        if Self.policyIndexes {
            policy.prefetchLookup(key.hashBits, settled: false)
        } else {
            index.prefetch(key)
        }
        policy.prefetch(key.hashBits)
        guard let victim = policy.victimHint() else { return }
        if Policy.victimLookahead > 2 {
            prefetchComing(from: victim)
        } else {
            prefetchNextTwo(victim)
        }
        // Another candidate: its entry, then (once that has arrived) its key's bucket.
        if let other = policy.alternativeVictimHint(), other != victim {
            if other == lastAlternativeHint {
                if !Self.policyIndexes, let key = entries[other].key { index.prefetch(key) }
            } else {
                entries.prefetch(Int(other))
                lastAlternativeHint = other
            }
        }
        if Policy.keepsGhostsInIndex { prefetchForgottenGhosts() }
    }

    // The ghosts to be forgotten soonest: each one's key, then (once it has arrived, the same
    // ghost as on the request before) its index bucket.
    @inline(__always)
    @inlinable package mutating func prefetchForgottenGhosts() {
        let hints = policy.comingForgottenGhosts()
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
            if let following = policy.victimHint(after: victim), following != followingVictimHint {
                entries.prefetch(Int(following))
                policy.prefetchVictim(following, settled: false)
                followingVictimHint = following
            }
        } else {
            entries.prefetch(Int(victim))
        }
        lastVictimHint = victim
        policy.prefetchVictim(victim, settled: settled)
    }

    // The next victims (`victimLookahead` of them), each a stage further than on the request
    // before: its entry and the policy's data, then its key's bucket. A slot's successor is
    // asked only once its own data has had a request to arrive. So when evictions come back to
    // back, each victim's bucket was requested a request before its eviction, not in the same
    // one. (On LeCaR 3 measured faster than 2, and 4 slower than 3; on Random too on the host
    // of the earlier measurements, but 2 faster than 3 on the AMD EPYC host: the Speed article.)
    @inline(__always)
    @inlinable package mutating func prefetchComing(from first: Int32) {
        let seen = coming
        var now = ComingVictims()
        var slot = first
        for depth in 0..<min(Policy.victimLookahead, ComingVictims.capacity) {
            let stage = seen.stage(of: slot)
            switch stage {
            case 0:
                entries.prefetch(Int(slot))
                policy.prefetchVictim(slot, settled: false)
            case 1:
                if !Self.policyIndexes, let key = entries[slot].key { index.prefetch(key) }
                policy.prefetchVictim(slot, settled: true)
            default:
                if depth == 0 { policy.prefetchVictim(slot, settled: stage > 0) }
            }
            now.slots[depth] = slot
            now.stages[depth] = min(stage + 1, 2)
            guard stage > 0, let after = policy.victimHint(after: slot) else { break }
            slot = after
        }
        coming = now
    }

    /// Starts loading what a hit on `key` touches (the policy's data for its slot, its entry
    /// with a lifetime), a few requests before it comes, and returns the slot found (nil when
    /// `key` is absent: then what the policy's miss reads, `EvictionPolicy.prefetchMiss`).
    /// `key`'s bucket should have been prefetched earlier: the lookup reads it.
    @inline(__always)
    @inlinable package mutating func prefetchHit(_ key: Key) -> Int32? {
        if Self.policyIndexes {
            policy.prefetchLookup(key.hashBits, settled: true)
            return nil
        }
        guard let slot = index.slot(for: key) else {
            policy.prefetchMiss(key.hashBits)
            return nil
        }
        if Policy.keepsGhostsInIndex, slot >= Self.ghostTag {
            policy.prefetchGhost(slot - Self.ghostTag)
            return nil
        }
        if configuration.ttl != nil { entries.prefetch(Int(slot)) }
        policy.prefetchHit(slot, settled: false)
        return slot
    }

    /// The second step of `prefetchHit`, a few requests later: what the policy's data for `slot`
    /// leads to (a list's neighbours).
    @inline(__always)
    @inlinable package mutating func prefetchHitNeighbours(_ slot: Int32) { policy.prefetchHit(slot, settled: true) }

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
        if Policy.resizesOnHit, let requestSize {
            let cost = configuration.cost(ofSize: requestSize)
            let old = entries[slot].cost
            if cost != old {
                entries[slot].cost = cost
                totalCost += cost - old
                policy.resized(slot, cost: cost)
            }
        }
        policy.accessed(slot)
        let value = storedValue(slot)
        while let victim = policy.pendingVictim() { evict(victim) }
        return value
    }

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
        let admission = policy.admit(key.hashBits, cost: cost)
        if Policy.keepsGhostsInIndex, let ghost = index.slot(for: key) {
            policy.ghostReturned(ghost - Self.ghostTag)
            forgetGhost(ghost - Self.ghostTag)
        }
        if filtered, let gate {
            // As libCacheSim: the request is counted, then the filter asked before any size check.
            if gate.observes { gate.observe(key.hashBits, cost: cost, capacity: configuration.capacity) }
            if !gate.admits(key.hashBits, cost: cost) {
                notAdmitted += 1
                if admission != .reject { policy.notStored() }
                return false
            }
        }
        guard admission != .reject, cost <= configuration.capacity else { return false }
        cost = policy.storedCost(cost)
        if !Policy.makesRoomItself, totalCost + cost > configuration.capacity, !makeRoom(for: cost, at: now) {
            return false
        }
        guard admission == .store, policy.storesAfterEvictions(cost: cost) else { return false }
        while let victim = policy.victimBeforeInsert(cost: cost) { evict(victim) }

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
        while let victim = policy.pendingVictim() { evict(victim) }
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
        index.removeAll()
        ghostKeys.fill(with: nil)
        policy.removeAll()
        expiryOrder.removeAll()
        freeSlots.removeAll()
        for slot in (0..<entries.count).reversed() {
            entries[slot].key = nil
            if Self.keepsValues { values[slot] = nil }
            freeSlots.push(Int32(slot))
        }
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
        while let victim = policy.pendingVictim() { evict(victim) }
        return true
    }

    // More evictions follow this one (a large newcomer): the victim after it (whose entry should
    // have been requested before) gets its key's bucket, and the three after that their entries
    // and the policy's data, so that a burst of evictions does not wait on each victim in turn.
    // (Three rather than two: SLRU 0.936 and 0.946, LFUDA 0.960, the rest within noise.)
    @inline(__always)
    @inlinable package mutating func prefetchBurst() {
        policy.foreseeVictims()
        guard var slot = policy.victimHint() else { return }
        if !Self.policyIndexes, let key = entries[slot].key { index.prefetch(key) }
        policy.prefetchVictim(slot, settled: true)
        for _ in 0..<3 {
            guard let after = policy.victimHint(after: slot) else { return }
            entries.prefetch(Int(after))
            policy.prefetchVictim(after, settled: false)
            slot = after
        }
    }

    /// Removes `victim`, which the policy has already forgotten, as an eviction.
    @inline(__always)
    @inlinable package mutating func evict(_ victim: Int32) {
        evictions += 1
        guard Policy.keepsGhostsInIndex, let ghost = policy.remember(victim, cost: entries[victim].cost) else {
            removeSlot(victim, notifyPolicy: false, reason: .evicted)
            return
        }
        removeSlot(victim, notifyPolicy: false, reason: .evicted, ghost: ghost)
        while let forgotten = policy.forgottenGhost() { forgetGhost(forgotten) }
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
        freeSlots.push(slot)
    }

    // Takes ghost `record`'s key out of the index.
    @inline(__always)
    @inlinable package mutating func forgetGhost(_ record: Int32) {
        index.remove(ghostKeys[record]!)
        ghostKeys[record] = nil
    }

    @inline(__always)
    @inlinable package mutating func takeSlot() -> Int32 {
        if freeSlots.isEmpty { reserveSlots(entries.count * 2) }
        return freeSlots.pop()
    }

    // Grows every per-slot array to `slotCount` and hands the new slots out lowest first.
    @inlinable package mutating func reserveSlots(_ slotCount: Int) {
        let old = entries.count
        guard slotCount > old else { return }
        precondition(
            !Policy.keepsGhostsInIndex || slotCount <= Int(Self.ghostTag),
            "Cache: more than 2^30 entries beside ghosts in the index")
        entries.grow(to: slotCount, filling: Entry(key: nil, cost: 0, expiry: 0))
        if Self.keepsValues { values.grow(to: slotCount, filling: nil) }
        if configuration.ttl != nil { expiryLinks.grow(to: slotCount) }  // untouched without a TTL
        policy.grow(to: slotCount)
        freeSlots.reserve(slotCount)
        for slot in (old..<slotCount).reversed() { freeSlots.push(Int32(slot)) }
    }
}

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
                    policy.indexedSlot(for: key.hashBits) == slot, "Cache: the policy's table misplaces slot \(slot)")
            }
        } else {
            pairs = index.pairs.filter { !Policy.keepsGhostsInIndex || $0.1 < Self.ghostTag }
        }
        let live = Set(pairs.map(\.1))
        var sum = 0
        for (key, slot) in pairs {
            precondition(entries[slot].key == key, "Cache: index and slot disagree on slot \(slot)")
            sum += entries[slot].cost
        }
        let ghosts = index.pairs.filter { Policy.keepsGhostsInIndex && $0.1 >= Self.ghostTag }.map {
            (key: $0.0, record: $0.1 - Self.ghostTag)
        }
        for ghost in ghosts {
            precondition(ghostKeys[ghost.record] == ghost.key, "Cache: ghost \(ghost.record) holds another key")
        }
        let keptGhostKeys = (0..<ghostKeys.count).count { ghostKeys[$0] != nil }
        precondition(ghosts.count == keptGhostKeys, "Cache: \(ghosts.count) ghosts indexed, \(keptGhostKeys) kept")
        precondition(
            Set(ghosts.map(\.record)) == Set(policy.checkedGhosts()),
            "Cache: the index and the policy disagree on the ghosts")
        precondition(sum == totalCost, "Cache: totalCost \(totalCost) but entries cost \(sum)")
        precondition(
            totalCost <= configuration.capacity || Policy.resizesOnHit || Policy.makesRoomItself,
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
        precondition(freeSlots.count + live.count == entries.count, "Cache: a slot leaked")
    }

    @inlinable package var storedKeys: [Key] {
        policy.checkedSlots().compactMap { entries[$0].key }
    }
}
