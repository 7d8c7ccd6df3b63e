/// A policy that counts what it holds by its own rules and makes room for a miss itself, handing
/// its victims over through `victimBeforeInsert`: the engine then evicts nothing of its own accord
/// for a miss, and the total may pass the capacity where the policy's count allows it. Only
/// libCacheSim's LIRS needs it: it counts by hand, and a hit can leave an entry it holds out of
/// that count.
public protocol SelfCountingPolicy: SelfEvictingPolicy {
    /// What the entry `admit` just let through will cost once stored, given the request's `cost`
    /// (which fits the capacity): asked once the admission filter let it through, before the
    /// engine makes room; the engine makes room for, charges and reports that cost, at most the
    /// capacity. LIRS counts a key coming back while its stack still remembers it at the size it
    /// had then.
    mutating func storedCost(_ cost: Int) -> Int
}

extension _PolicyHooks where Self: SelfCountingPolicy {
    @inlinable public static var _makesRoomItself: Bool { true }

    @inline(__always)
    @inlinable public mutating func _storedCost(_ cost: Int) -> Int { storedCost(cost) }
}
