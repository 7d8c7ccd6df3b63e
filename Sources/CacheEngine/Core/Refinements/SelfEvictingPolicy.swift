/// A policy that evicts on its own, beyond the victims the engine asks it for: W-TinyLFU's main
/// cache making room for a window victim it admits, SLRU's probation overflowing on a hit, 2Q's
/// Am evicting down to its share before a newcomer goes in.
public protocol SelfEvictingPolicy: EvictionPolicy {
    /// A slot the policy evicted on its own while handling the last call, or nil: W-TinyLFU's
    /// main cache makes room for a window victim it admits, and its probation segment can
    /// overflow on a hit; Cacheus moves its oldest new entries to its history as a new one comes
    /// in. The engine asks after every hit, every round of evictions and every insertion, until
    /// nil, and removes each as evicted. By default nil.
    mutating func pendingVictim() -> Int32?

    /// One more slot to evict before the entry `admit` just stored for goes in, although it
    /// already fits the capacity, or nil. Called after the engine's own evictions, until it
    /// answers nil. Only a policy whose queues keep their own limits needs it: libCacheSim's 2Q
    /// sends an entry found in its ghost list to Am, which evicts down to Am's share first. By
    /// default nil.
    mutating func victimBeforeInsert(cost: Int) -> Int32?
}

extension SelfEvictingPolicy {
    @inline(__always)
    @inlinable public mutating func pendingVictim() -> Int32? { nil }

    @inline(__always)
    @inlinable public mutating func victimBeforeInsert(cost: Int) -> Int32? { nil }
}

extension _PolicyHooks where Self: SelfEvictingPolicy {
    @inline(__always)
    @inlinable public mutating func _pendingVictim() -> Int32? { pendingVictim() }

    @inline(__always)
    @inlinable public mutating func _victimBeforeInsert(cost: Int) -> Int32? { victimBeforeInsert(cost: cost) }
}
