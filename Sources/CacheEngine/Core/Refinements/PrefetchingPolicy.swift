/// A policy that tells the replay which of its slots and records the next requests and evictions
/// will touch, so the replay loads them ahead while the current request is served. Every
/// requirement is a hint with a default that hints nothing: a policy implements those it can
/// answer cheaply, and none may change what the policy decides.
public protocol PrefetchingPolicy: EvictionPolicy {
    /// How many coming victims the replay loads ahead: 2 (the next and the one after it, the
    /// default) or 3. A third costs a `victimHint(after:)` more per request; it pays where
    /// evictions come back to back and each reads more than an LRU list's (Random's chains,
    /// LeCaR's ghosts).
    static var victimLookahead: Int { get }

    /// Whether `prefetchHit(_:settled:)` or `prefetchMiss(_:)` hints anything (the default,
    /// true). A policy whose hits touch nothing of its own (FIFO) says false, and the replay no
    /// longer finds a coming request's slot in the index only to hint nothing with it.
    static var prefetchesHits: Bool { get }

    /// Starts loading what a lookup of `key` will touch in the policy's own tables (ghost lists),
    /// a few requests ahead.
    mutating func prefetch(_ key: UInt64)

    /// The slot `evict()` would most likely return next (the head of a FIFO or LRU queue, where a
    /// clock's hand rests), or nil when the policy cannot tell cheaply: the replay starts loading
    /// the victim's entry and index bucket before the eviction comes.
    func victimHint() -> Int32?

    /// The slot `evict()` would most likely return after `slot` (the next in a FIFO or LRU
    /// queue), or nil when the policy cannot tell cheaply. Asked once `slot`'s data has arrived
    /// (it was the victim hint on an earlier request), so it may be read: the replay then loads
    /// the following victim while the first is still waiting, and that one's data is there when
    /// its turn comes.
    func victimHint(after slot: Int32) -> Int32?

    /// More evictions follow the one just made, in the same request (a large newcomer): a policy
    /// that works its coming victims out ahead (Random's samples) extends them now, so that
    /// `victimHint(after:)` reaches further.
    mutating func foreseeVictims()

    /// Another slot `evict()` may return next instead of `victimHint()` (a second expert's
    /// choice, as LeCaR's LFU candidate), or nil: the replay loads its entry and index bucket
    /// too.
    func alternativeVictimHint() -> Int32?

    /// Starts loading what evicting `slot` will read of the policy's own per-slot data (its
    /// links). `settled`: it was asked before for this slot, whose data may be read now to look
    /// one step further (the slot after it).
    mutating func prefetchVictim(_ slot: Int32, settled: Bool)

    /// Starts loading what a hit on `slot` will touch of the policy's own per-slot data, a few
    /// requests before the hit comes (the replay found the slot in the index). `settled`: asked
    /// before for this slot, whose data may be read now to look one step further (its neighbours
    /// in a list).
    mutating func prefetchHit(_ slot: Int32, settled: Bool)

    /// Starts loading what a miss on `key` will read of the policy's own records beyond the
    /// bucket `prefetch(_:)` asked for (a ghost's count and links), a few requests before it
    /// comes (the replay did not find `key` in the index, whose bucket had arrived).
    mutating func prefetchMiss(_ key: UInt64)
}

extension PrefetchingPolicy {
    @inlinable public static var victimLookahead: Int { 2 }

    @inlinable public static var prefetchesHits: Bool { true }

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
}

extension _PolicyHooks where Self: PrefetchingPolicy {
    @inlinable public static var _victimLookahead: Int { victimLookahead }

    @inlinable public static var _prefetchesHits: Bool { prefetchesHits }

    @inline(__always)
    @inlinable public mutating func _prefetch(_ key: UInt64) { prefetch(key) }

    @inline(__always)
    @inlinable public func _victimHint() -> Int32? { victimHint() }

    @inline(__always)
    @inlinable public func _victimHint(after slot: Int32) -> Int32? { victimHint(after: slot) }

    @inline(__always)
    @inlinable public mutating func _foreseeVictims() { foreseeVictims() }

    @inline(__always)
    @inlinable public func _alternativeVictimHint() -> Int32? { alternativeVictimHint() }

    @inline(__always)
    @inlinable public mutating func _prefetchVictim(_ slot: Int32, settled: Bool) {
        prefetchVictim(slot, settled: settled)
    }

    @inline(__always)
    @inlinable public mutating func _prefetchHit(_ slot: Int32, settled: Bool) { prefetchHit(slot, settled: settled) }

    @inline(__always)
    @inlinable public mutating func _prefetchMiss(_ key: UInt64) { prefetchMiss(key) }
}
