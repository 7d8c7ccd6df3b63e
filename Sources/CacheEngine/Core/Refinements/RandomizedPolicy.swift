/// A policy that draws from the cache's random numbers (Random, LeCaR, LHD, Hyperbolic, ...), so
/// that a run is the same for the same seed, and draws where libCacheSim draws.
public protocol RandomizedPolicy: EvictionPolicy {
    /// The cache's random numbers, shared with its admission filter (`LehmerRandom`): called once,
    /// right after `init`, before any other call. The policy keeps it and draws from it where
    /// libCacheSim draws (a policy that draws when it is made draws here).
    mutating func share(_ random: LehmerRandom)
}

extension _PolicyHooks where Self: RandomizedPolicy {
    @inlinable public mutating func _share(_ random: LehmerRandom) { share(random) }
}
