/// The one engine behind every policy: it stores entries, counts their cost against the capacity,
/// refuses oversized entries, expires entries whose lifetime is over, and evicts in the order its
/// `Policy` chooses until a new entry fits. A policy decides order, and may decline to store an
/// entry (`AdmittingPolicy.admit`).
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
    /// policy or the expiry: a peek (a tier's `contains`, a pin's check that the entry is there).
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

    /// Whether `prefetchHit` can load anything for this cache's policy and lifetime: when false,
    /// a replay skips it (and `prefetchHitNeighbours`), since its lookup would only be repeated.
    @inlinable public var prefetchesHits: Bool { core.pointee.prefetchesHits }

    /// Starts loading the neighbours of a slot `prefetchHit` returned. Changes nothing (the slot
    /// may have been reused since: the hint is then only wasted).
    @inline(__always)
    @inlinable public func prefetchHitNeighbours(_ slot: Int32) { core.pointee.prefetchHitNeighbours(slot) }

    /// Tells a policy that needs the future (`EvictionPolicy.needsFuture`) when the request about to be
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
