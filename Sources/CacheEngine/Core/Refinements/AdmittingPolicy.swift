/// A policy that decides whether a missed entry is stored, or keeps state for the newcomer while
/// the engine makes room (S3-FIFO, GDSF, W-TinyLFU, ARC's and 2Q's ghost lists, ...).
public protocol AdmittingPolicy: EvictionPolicy {
    /// A lookup of `key` missed and an entry costing `cost` is about to be stored. Called before
    /// the engine's own capacity check and before any eviction made for it; the answer says
    /// whether to store it.
    mutating func admit(_ key: UInt64, cost: Int) -> Admission

    /// The miss `admit` was last asked about will not be stored after all: the cache's admission
    /// filter refused it. A policy holding state for the newcomer (GDSF's rank, where a ghost hit
    /// sends it) lets it go; what `admit` did as libCacheSim's lookup (a ghost taken out) stays.
    /// By default nothing.
    mutating func notStored()

    /// Whether to store the entry after all, now that the engine has made room for it: asked
    /// after `admit` answered `.store` and the evictions it needed. A policy whose own rule is
    /// checked only then (libCacheSim's Cacheus asks whether the key is in its history, which
    /// those evictions may have trimmed) answers false to store nothing. By default true.
    mutating func storesAfterEvictions(cost: Int) -> Bool
}

extension AdmittingPolicy {
    @inlinable public mutating func notStored() {}

    @inline(__always)
    @inlinable public mutating func storesAfterEvictions(cost: Int) -> Bool { true }
}

extension _PolicyHooks where Self: AdmittingPolicy {
    @inline(__always)
    @inlinable public mutating func _admit(_ key: UInt64, cost: Int) -> Admission { admit(key, cost: cost) }

    @inline(__always)
    @inlinable public mutating func _notStored() { notStored() }

    @inline(__always)
    @inlinable public mutating func _storesAfterEvictions(cost: Int) -> Bool { storesAfterEvictions(cost: cost) }
}
