/// What a policy decides: the order in which entries are evicted.
///
/// The engine (`Cache`) owns keys, sizes, capacity and expiry, and tells the policy about every
/// entry that comes, is used, or goes, by slot number. A policy keeps its own per-slot metadata in
/// arrays indexed by slot and must not allocate on these calls once `grow(to:)` has made room.
///
/// These eight requirements are all a policy must implement: LRU, FIFO, LFU and LFUDA implement
/// nothing else. What only some policies need is a refinement of this protocol, adopted beside it:
/// - ``AdmittingPolicy``: decides whether a missed entry is stored (S3-FIFO, GDSF, W-TinyLFU, ...).
/// - ``SelfEvictingPolicy``: evicts on its own, beyond the victims the engine asks for (W-TinyLFU's
///   main cache, 2Q's Am); ``SelfCountingPolicy`` also counts what it holds and makes room itself
///   (LIRS).
/// - ``FutureAwarePolicy``: is told each request's next use (Belady's optimum).
/// - ``ResizingPolicy``: a hit takes the request's size (LHD).
/// - ``RandomizedPolicy``: draws from the cache's random numbers.
/// - ``KeyIndexingPolicy``: its own table finds a key's slot, so the simulator keeps no index.
/// - ``GhostIndexingPolicy``: keeps the keys it evicted in the cache's index (LeCaR).
/// - ``PrefetchingPolicy``: tells the replay which slots the next requests will touch (hints).
///
/// The engine finds a policy's refinements when the conformance is compiled: each refinement fills
/// in the engine's calls it needs (`_PolicyHooks`), and every other call does nothing. So a replay
/// is specialized for its policy, with no existential and no dynamic cast on the way.
///
/// The calls for one missed request come in libCacheSim's order: `admit` (its `find` on a miss
/// and `can_insert`), then `evict()` until the entry fits and `pendingVictim()` until it answers
/// nil, then `storesAfterEvictions` (for a policy that decides only then), then
/// `victimBeforeInsert` until it answers nil (for a policy whose sub-queue evicts on its own), then
/// `inserted` and `pendingVictim()` until it answers nil; when the cache's admission filter
/// refuses the miss, `notStored` follows `admit` instead. Policies with ghost lists (ARC, 2Q,
/// S3-FIFO) look the key up in `admit`, and may use what they found in the `evict()` calls that
/// follow.
///
/// - Slots are dense small integers handed out by the engine; a slot is live from `inserted` until
///   `removed` or until `evict()` or `victimBeforeInsert` returns it.
/// - Keys given to a policy are the cache keys' `hashBits`: the trace id itself in the simulator.
public protocol EvictionPolicy: _PolicyHooks, PolicyDescription where Order == Self {
    /// Creates an empty policy for a cache with the given limits.
    init(configuration: CacheConfiguration)

    /// Makes room for slot numbers `0..<slotCount`. Called before any slot in that range is used.
    mutating func grow(to slotCount: Int)

    /// A new entry for `key` was stored in `slot`, costing `cost`.
    mutating func inserted(_ slot: Int32, key: UInt64, cost: Int)

    /// The entry in `slot` was hit.
    mutating func accessed(_ slot: Int32)

    /// The entry in `slot`, for `key`, is leaving for a reason other than eviction (expiry,
    /// removal). The key is given for a policy whose table finds a slot by its key's hash
    /// (Random's, Hyperbolic's), so that it need not keep each slot's hash.
    mutating func removed(_ slot: Int32, key: UInt64)

    /// Chooses the next entry to evict, forgets it, and returns its slot. Called only when the
    /// policy holds at least one entry. While making room for an entry `admit` answered `.store`
    /// for, a policy that ranks that entry with the others (GDSF, adaptive W-TinyLFU) may answer
    /// nil: the new entry goes first, nothing more is evicted, and it is not stored.
    mutating func evict() -> Int32?

    /// Forgets every entry.
    mutating func removeAll()

    /// The live slots the policy holds, next victim first where the policy has a simple order,
    /// after checking its own structure (stops the program with a message if it is broken).
    func checkedSlots() -> [Int32]
}

extension EvictionPolicy {
    /// Whether the policy must be told each request's next use before it is served: it is a
    /// ``FutureAwarePolicy`` (Belady's optimum). The replay then calls `Cache.upcoming(nextUse:)`
    /// before every lookup.
    @inlinable public static var needsFuture: Bool { _needsFuture }

    /// Whether a hit takes the request's size: it is a ``ResizingPolicy`` (LHD).
    @inlinable public static var resizesOnHit: Bool { _resizesOnHit }

    /// Whether the policy's own table finds a live key's slot: it is a ``KeyIndexingPolicy``.
    @inlinable public static var indexesKeys: Bool { _indexesKeys }

    /// Whether the policy counts what it holds and makes room itself: it is a
    /// ``SelfCountingPolicy`` (LIRS).
    @inlinable public static var makesRoomItself: Bool { _makesRoomItself }

    /// Whether the policy keeps its ghosts in the cache's index: it is a ``GhostIndexingPolicy``
    /// (LeCaR).
    @inlinable public static var keepsGhostsInIndex: Bool { _keepsGhostsInIndex }
}
