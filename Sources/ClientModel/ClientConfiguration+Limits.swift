import CacheEngine

extension ClientConfiguration {
    /// Prefetches a client runs at once: `ImagePrefetcher`'s default (Nuke's `ImagePrefetcher`
    /// runs 2), and what the simulator models.
    public static let prefetchesAtOnce = 2

    /// The memory tier's engine limits.
    @inlinable public var memoryLimits: CacheConfiguration? {
        memory.map { limits($0, hard: true) }
    }

    /// The disk tier's engine limits. A disk swept at launch or in the background (a soft limit)
    /// takes everything between sweeps: its engine gets no real limit.
    @inlinable public var diskLimits: CacheConfiguration? {
        disk.map { limits($0, hard: diskSweep == .onInsert) }
    }

    @inlinable package func limits(_ tier: TierConfiguration, hard: Bool) -> CacheConfiguration {
        var limits = tier.policy.configuration(
            capacity: hard ? tier.capacity : CacheConfiguration.unlimited, sizeMode: sizeMode, ttl: tier.ttl,
            ttlMode: tier.ttlMode,
            trimRatio: hard ? tier.trimRatio : 1)
        limits.admission = tier.admission
        return limits
    }
}
