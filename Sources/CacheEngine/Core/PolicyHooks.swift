/// The engine's calls to a policy beyond the eight of ``EvictionPolicy``, each with a default that
/// does nothing (or answers what a classic policy would).
///
/// A policy does not implement these by name: it adopts the refinement whose calls it needs
/// (``AdmittingPolicy``, ``PrefetchingPolicy``, ...), and that refinement's extension of this
/// protocol forwards each call to the refinement's own requirement. Which one applies is settled
/// when the conformance is compiled (the most specific extension whose constraints hold), so a
/// replay specialized for its policy calls the policy's own code, or nothing, directly.
///
/// Public only because ``EvictionPolicy`` refines it; the underscore keeps it out of the
/// documentation and out of a policy author's way.
public protocol _PolicyHooks {
    static var _needsFuture: Bool { get }
    static var _resizesOnHit: Bool { get }
    static var _victimLookahead: Int { get }
    static var _indexesKeys: Bool { get }
    static var _makesRoomItself: Bool { get }
    static var _keepsGhostsInIndex: Bool { get }

    // AdmittingPolicy
    mutating func _admit(_ key: UInt64, cost: Int) -> Admission
    mutating func _notStored()
    mutating func _storesAfterEvictions(cost: Int) -> Bool
    // SelfEvictingPolicy, SelfCountingPolicy
    mutating func _pendingVictim() -> Int32?
    mutating func _victimBeforeInsert(cost: Int) -> Int32?
    mutating func _storedCost(_ cost: Int) -> Int
    // FutureAwarePolicy, ResizingPolicy, RandomizedPolicy
    mutating func _upcoming(nextUse: Int64)
    mutating func _resized(_ slot: Int32, cost: Int)
    mutating func _share(_ random: LehmerRandom)
    // KeyIndexingPolicy
    func _indexedSlot(for key: UInt64) -> Int32?
    func _prefetchLookup(_ key: UInt64, settled: Bool)
    // GhostIndexingPolicy
    mutating func _ghostReturned(_ record: Int32)
    mutating func _remember(_ slot: Int32, cost: Int) -> Int32?
    mutating func _forgottenGhost() -> Int32?
    func _comingForgottenGhosts() -> (Int32?, Int32?)
    mutating func _prefetchGhost(_ record: Int32)
    func _checkedGhosts() -> [Int32]
    // PrefetchingPolicy
    mutating func _prefetch(_ key: UInt64)
    func _victimHint() -> Int32?
    func _victimHint(after slot: Int32) -> Int32?
    mutating func _foreseeVictims()
    func _alternativeVictimHint() -> Int32?
    mutating func _prefetchVictim(_ slot: Int32, settled: Bool)
    static var _prefetchesHits: Bool { get }
    mutating func _prefetchHit(_ slot: Int32, settled: Bool)
    mutating func _prefetchMiss(_ key: UInt64)
}

extension _PolicyHooks {
    @inlinable public static var _needsFuture: Bool { false }
    @inlinable public static var _resizesOnHit: Bool { false }
    @inlinable public static var _victimLookahead: Int { 2 }
    @inlinable public static var _indexesKeys: Bool { false }
    @inlinable public static var _makesRoomItself: Bool { false }
    @inlinable public static var _keepsGhostsInIndex: Bool { false }

    @inline(__always) @inlinable public mutating func _admit(_ key: UInt64, cost: Int) -> Admission { .store }
    @inline(__always) @inlinable public mutating func _notStored() {}
    @inline(__always) @inlinable public mutating func _storesAfterEvictions(cost: Int) -> Bool { true }

    @inline(__always) @inlinable public mutating func _pendingVictim() -> Int32? { nil }
    @inline(__always) @inlinable public mutating func _victimBeforeInsert(cost: Int) -> Int32? { nil }
    @inline(__always) @inlinable public mutating func _storedCost(_ cost: Int) -> Int { cost }

    @inline(__always) @inlinable public mutating func _upcoming(nextUse: Int64) {}
    @inline(__always) @inlinable public mutating func _resized(_ slot: Int32, cost: Int) {}
    @inlinable public mutating func _share(_ random: LehmerRandom) {}

    @inline(__always) @inlinable public func _indexedSlot(for key: UInt64) -> Int32? { nil }
    @inline(__always) @inlinable public func _prefetchLookup(_ key: UInt64, settled: Bool) {}

    @inline(__always) @inlinable public mutating func _ghostReturned(_ record: Int32) {}
    @inline(__always) @inlinable public mutating func _remember(_ slot: Int32, cost: Int) -> Int32? { nil }
    @inline(__always) @inlinable public mutating func _forgottenGhost() -> Int32? { nil }
    @inline(__always) @inlinable public func _comingForgottenGhosts() -> (Int32?, Int32?) { (nil, nil) }
    @inline(__always) @inlinable public mutating func _prefetchGhost(_ record: Int32) {}
    @inlinable public func _checkedGhosts() -> [Int32] { [] }

    @inline(__always) @inlinable public mutating func _prefetch(_ key: UInt64) {}
    @inline(__always) @inlinable public func _victimHint() -> Int32? { nil }
    @inline(__always) @inlinable public func _victimHint(after slot: Int32) -> Int32? { nil }
    @inline(__always) @inlinable public mutating func _foreseeVictims() {}
    @inline(__always) @inlinable public func _alternativeVictimHint() -> Int32? { nil }
    @inline(__always) @inlinable public mutating func _prefetchVictim(_ slot: Int32, settled: Bool) {}
    @inlinable public static var _prefetchesHits: Bool { false }
    @inline(__always) @inlinable public mutating func _prefetchHit(_ slot: Int32, settled: Bool) {}
    @inline(__always) @inlinable public mutating func _prefetchMiss(_ key: UInt64) {}
}
