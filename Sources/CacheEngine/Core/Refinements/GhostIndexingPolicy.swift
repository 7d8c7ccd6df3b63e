/// A policy that keeps the keys it evicted (ghosts) in the engine's own index, as libCacheSim keeps
/// them in its one hash table: a miss then finds a ghost in the lookup it makes anyway, and an
/// eviction turns the victim's index entry into its ghost's instead of removing one key and adding
/// it to a second table (``EvictionPolicy/keepsGhostsInIndex``). The policy numbers its ghost
/// records; the engine keeps each one's key. Only LeCaR; it cannot also be a ``KeyIndexingPolicy``.
public protocol GhostIndexingPolicy: EvictionPolicy {
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
    /// nothing may change. By default none.
    func comingForgottenGhosts() -> (Int32?, Int32?)

    /// Starts loading what a return of ghost `record` will read of the policy's own records, a
    /// few requests before the miss comes (the replay found the ghost in the index). A hint:
    /// nothing may change. By default nothing.
    mutating func prefetchGhost(_ record: Int32)

    /// The ghost records the policy remembers, after checking them (for invariant checks).
    func checkedGhosts() -> [Int32]
}

extension GhostIndexingPolicy {
    @inline(__always)
    @inlinable public func comingForgottenGhosts() -> (Int32?, Int32?) { (nil, nil) }

    @inline(__always)
    @inlinable public mutating func prefetchGhost(_ record: Int32) {}
}

extension _PolicyHooks where Self: GhostIndexingPolicy {
    @inlinable public static var _keepsGhostsInIndex: Bool { true }

    @inline(__always)
    @inlinable public mutating func _ghostReturned(_ record: Int32) { ghostReturned(record) }

    @inline(__always)
    @inlinable public mutating func _remember(_ slot: Int32, cost: Int) -> Int32? { remember(slot, cost: cost) }

    @inline(__always)
    @inlinable public mutating func _forgottenGhost() -> Int32? { forgottenGhost() }

    @inline(__always)
    @inlinable public func _comingForgottenGhosts() -> (Int32?, Int32?) { comingForgottenGhosts() }

    @inline(__always)
    @inlinable public mutating func _prefetchGhost(_ record: Int32) { prefetchGhost(record) }

    @inlinable public func _checkedGhosts() -> [Int32] { checkedGhosts() }
}
