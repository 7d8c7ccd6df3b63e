/// What a policy decides: the order in which entries are evicted, and (for the few that need it)
/// whether a missed entry is stored at all.
///
/// The engine (`Cache`) owns keys, sizes, capacity and expiry, and tells the policy about every
/// entry that comes, is used, or goes, by slot number. A policy keeps its own per-slot metadata in
/// arrays indexed by slot and must not allocate on these calls once `grow(to:)` has made room.
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
public protocol EvictionPolicy: PolicyDescription where Order == Self {
    /// Creates an empty policy for a cache with the given limits.
    init(configuration: CacheConfiguration)

    /// Whether the policy must be told each request's next use before it is served (Belady's
    /// optimum). The replay then calls `upcoming(nextUse:)` before every lookup.
    static var needsFuture: Bool { get }

    /// Whether a hit takes the request's size, as libCacheSim's LHD does (every other policy keeps
    /// the size an entry was stored with). A lookup that gives the size
    /// (`Cache.value(forKey:size:at:)`, the simulator's) then sets the entry's cost to it and
    /// tells the policy (`resized`), so the total may pass the capacity until the next miss
    /// makes room, as libCacheSim's occupancy does.
    static var resizesOnHit: Bool { get }

    /// How many coming victims the replay loads ahead: 2 (the next and the one after it) or 3.
    /// A third costs a `victimHint(after:)` more per request; it pays where evictions come back
    /// to back and each reads more than an LRU list's (Random's chains, LeCaR's ghosts).
    static var victimLookahead: Int { get }

    /// Whether the policy's own table finds a live key's slot (`indexedSlot(for:)`), so that a
    /// cache of `UInt64` keys (whose `hashBits` are the key: the simulator's) keeps no index of
    /// its own. The table must then hold exactly the live slots: in from `inserted`, out through
    /// `evict`, `removed` or a pending victim. A cache of other keys keeps its index regardless.
    static var indexesKeys: Bool { get }

    /// The live slot holding `key`, when `indexesKeys`.
    func indexedSlot(for key: UInt64) -> Int32?

    /// Starts loading what `indexedSlot(for: key)` will read: the first stage, then (`settled`,
    /// some requests later) the second.
    func prefetchLookup(_ key: UInt64, settled: Bool)

    /// Starts loading what a lookup of `key` will touch in the policy's own tables (ghost lists),
    /// a few requests ahead. A hint: nothing may change.
    mutating func prefetch(_ key: UInt64)

    /// The slot `evict()` would most likely return next (the head of a FIFO or LRU queue, where a
    /// clock's hand rests), or nil when the policy cannot tell cheaply: the replay starts loading
    /// the victim's entry and index bucket before the eviction comes. A hint: nothing may change.
    func victimHint() -> Int32?

    /// The slot `evict()` would most likely return after `slot` (the next in a FIFO or LRU
    /// queue), or nil when the policy cannot tell cheaply. Asked once `slot`'s data has arrived
    /// (it was the victim hint on an earlier request), so it may be read: the replay then loads
    /// the following victim while the first is still waiting, and that one's data is there when
    /// its turn comes. A hint: nothing may change.
    func victimHint(after slot: Int32) -> Int32?

    /// More evictions follow the one just made, in the same request (a large newcomer): a policy
    /// that works its coming victims out ahead (Random's samples) extends them now, so that
    /// `victimHint(after:)` reaches further. A hint: nothing may change.
    mutating func foreseeVictims()

    /// Another slot `evict()` may return next instead of `victimHint()` (a second expert's
    /// choice, as LeCaR's LFU candidate), or nil: the replay loads its entry and index bucket
    /// too. A hint: nothing may change.
    func alternativeVictimHint() -> Int32?

    /// Starts loading what evicting `slot` will read of the policy's own per-slot data (its
    /// links). `settled`: it was asked before for this slot, whose data may be read now to look
    /// one step further (the slot after it). A hint: nothing may change.
    mutating func prefetchVictim(_ slot: Int32, settled: Bool)

    /// Starts loading what a hit on `slot` will touch of the policy's own per-slot data, a few
    /// requests before the hit comes (the replay found the slot in the index). `settled`: asked
    /// before for this slot, whose data may be read now to look one step further (its neighbours
    /// in a list). A hint: nothing may change.
    mutating func prefetchHit(_ slot: Int32, settled: Bool)

    /// Starts loading what a miss on `key` will read of the policy's own records beyond the
    /// bucket `prefetch(_:)` asked for (a ghost's count and links), a few requests before it
    /// comes (the replay did not find `key` in the index, whose bucket had arrived). A hint:
    /// nothing may change.
    mutating func prefetchMiss(_ key: UInt64)

    /// The cache's random numbers, shared with its admission filter (`LehmerRandom`): called once,
    /// right after `init`, before any other call. A randomized policy keeps it and draws from it
    /// where libCacheSim draws (a policy that draws when it is made draws here).
    mutating func share(_ random: LehmerRandom)

    /// Makes room for slot numbers `0..<slotCount`. Called before any slot in that range is used.
    mutating func grow(to slotCount: Int)

    /// The request about to be served is next requested at trace position `nextUse`
    /// (`Int64.max` if never). Called only when `needsFuture`.
    mutating func upcoming(nextUse: Int64)

    /// A lookup of `key` missed and an entry costing `cost` is about to be stored. Called before
    /// the engine's own capacity check and before any eviction made for it; the answer says
    /// whether to store it.
    mutating func admit(_ key: UInt64, cost: Int) -> Admission

    /// Whether to store the entry after all, now that the engine has made room for it: asked
    /// after `admit` answered `.store` and the evictions it needed. A policy whose own rule is
    /// checked only then (libCacheSim's Cacheus asks whether the key is in its history, which
    /// those evictions may have trimmed) answers false to store nothing.
    mutating func storesAfterEvictions(cost: Int) -> Bool

    /// One more slot to evict before the entry `admit` just stored for goes in, although it
    /// already fits the capacity, or nil. Called after the engine's own evictions, until it
    /// answers nil. Only a policy whose queues keep their own limits needs it: libCacheSim's 2Q
    /// sends an entry found in its ghost list to Am, which evicts down to Am's share first.
    mutating func victimBeforeInsert(cost: Int) -> Int32?

    /// A slot the policy evicted on its own while handling the last call, or nil: W-TinyLFU's
    /// main cache makes room for a window victim it admits, and its probation segment can
    /// overflow on a hit; Cacheus moves its oldest new entries to its history as a new one comes
    /// in. The engine asks after every hit, every round of evictions and every insertion, until
    /// nil, and removes each as evicted.
    mutating func pendingVictim() -> Int32?

    /// The miss `admit` was last asked about will not be stored after all: the cache's admission
    /// filter refused it. A policy holding state for the newcomer (GDSF's rank, where a ghost hit
    /// sends it) lets it go; what `admit` did as libCacheSim's lookup (a ghost taken out) stays.
    mutating func notStored()

    /// What the entry `admit` just let through will cost once stored, given the request's `cost`
    /// (which fits the capacity): asked once the admission filter let it through, before the
    /// engine makes room; the engine makes room for, charges and reports that cost, at most the
    /// capacity. Only a policy that keeps its own size for a key needs it: libCacheSim's LIRS
    /// counts a key coming back while its stack still remembers it at the size it had then.
    mutating func storedCost(_ cost: Int) -> Int

    /// Whether the policy counts what it holds by its own rules and makes room for a miss itself,
    /// handing its victims over through `victimBeforeInsert`: the engine then evicts nothing of
    /// its own accord for a miss, and the total may pass the capacity where the policy's count
    /// allows it. Only libCacheSim's LIRS needs it: it counts by hand, and a hit can leave an
    /// entry it holds out of that count.
    static var makesRoomItself: Bool { get }

    /// A new entry for `key` was stored in `slot`, costing `cost`.
    mutating func inserted(_ slot: Int32, key: UInt64, cost: Int)

    /// The entry in `slot` is hit by a request whose size costs `cost`, not what it was stored
    /// at: it costs that from now on. Called just before `accessed`, only when `resizesOnHit`.
    mutating func resized(_ slot: Int32, cost: Int)

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

    // Ghosts in the cache's index. A policy that remembers the keys it evicted (ghosts) may
    // keep them in the engine's own index, as libCacheSim keeps them in its one hash table: a
    // miss then finds a ghost in the lookup it makes anyway, and an eviction turns the victim's
    // index entry into its ghost's instead of removing one key and adding it to a second table.
    // The policy numbers its ghost records; the engine keeps each one's key.

    /// Whether the policy keeps its ghosts in the cache's index (the calls below). Only LeCaR.
    static var keepsGhostsInIndex: Bool { get }

    /// The miss `admit` was just asked about found ghost `record` under its key (libCacheSim's
    /// `find` of a ghost): the policy learns from it and forgets it, and the engine forgets the
    /// key. Called right after `admit`.
    mutating func ghostReturned(_ record: Int32)

    /// The slot `evict()` just returned, costing `cost`: the ghost record to keep under its key,
    /// or nil to forget the key. Then `forgottenGhost()` until it answers nil.
    mutating func remember(_ slot: Int32, cost: Int) -> Int32?

    /// A ghost record the policy has stopped remembering since the last `remember` (its ghost
    /// list grew past its limit), or nil: the engine forgets its key.
    mutating func forgottenGhost() -> Int32?

    /// The ghost records likeliest to be forgotten next (the oldest of each ghost list): the
    /// engine loads their keys, then those keys' index buckets, as for a coming victim. A hint:
    /// nothing may change.
    func comingForgottenGhosts() -> (Int32?, Int32?)

    /// Starts loading what a return of ghost `record` will read of the policy's own records, a
    /// few requests before the miss comes (the replay found the ghost in the index). A hint:
    /// nothing may change.
    mutating func prefetchGhost(_ record: Int32)

    /// The ghost records the policy remembers, after checking them (for invariant checks).
    func checkedGhosts() -> [Int32]

    /// The live slots the policy holds, next victim first where the policy has a simple order,
    /// after checking its own structure (stops the program with a message if it is broken).
    func checkedSlots() -> [Int32]
}

/// What a policy answers when a missed entry is about to be stored.
public enum Admission: Sendable, Equatable {
    /// Make room and store it (every classic policy, always).
    case store
    /// Store nothing and evict nothing.
    case reject
    /// Make room as for storing it, then store nothing: libCacheSim's S3-FIFO does this for an
    /// object as big as its small queue.
    case evictOnly
}

extension EvictionPolicy {
    @inlinable public static var needsFuture: Bool { false }

    @inlinable public static var resizesOnHit: Bool { false }

    @inlinable public static var victimLookahead: Int { 2 }

    @inlinable public static var indexesKeys: Bool { false }

    @inlinable public func indexedSlot(for key: UInt64) -> Int32? { nil }

    @inlinable public func prefetchLookup(_ key: UInt64, settled: Bool) {}

    @inlinable public mutating func share(_ random: LehmerRandom) {}

    @inline(__always)
    @inlinable public mutating func upcoming(nextUse: Int64) {}

    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) {}

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { nil }

    @inline(__always)
    @inlinable public func victimHint(after slot: Int32) -> Int32? { nil }

    @inline(__always)
    @inlinable public mutating func foreseeVictims() {}

    @inline(__always)
    @inlinable public func alternativeVictimHint() -> Int32? { nil }

    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {}

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {}

    @inline(__always)
    @inlinable public mutating func prefetchMiss(_ key: UInt64) {}

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission { .store }

    @inline(__always)
    @inlinable public mutating func storesAfterEvictions(cost: Int) -> Bool { true }

    @inline(__always)
    @inlinable public mutating func victimBeforeInsert(cost: Int) -> Int32? { nil }

    @inlinable public mutating func notStored() {}

    @inline(__always)
    @inlinable public mutating func resized(_ slot: Int32, cost: Int) {}

    @inline(__always)
    @inlinable public mutating func storedCost(_ cost: Int) -> Int { cost }

    @inlinable public static var makesRoomItself: Bool { false }

    @inline(__always)
    @inlinable public mutating func pendingVictim() -> Int32? { nil }

    @inlinable public static var keepsGhostsInIndex: Bool { false }

    @inline(__always)
    @inlinable public mutating func ghostReturned(_ record: Int32) {}

    @inline(__always)
    @inlinable public mutating func remember(_ slot: Int32, cost: Int) -> Int32? { nil }

    @inline(__always)
    @inlinable public mutating func forgottenGhost() -> Int32? { nil }

    @inline(__always)
    @inlinable public func comingForgottenGhosts() -> (Int32?, Int32?) { (nil, nil) }

    @inline(__always)
    @inlinable public mutating func prefetchGhost(_ record: Int32) {}

    @inlinable public func checkedGhosts() -> [Int32] { [] }
}
