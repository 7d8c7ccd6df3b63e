/// What a policy states about itself, written once on its type: `PolicyKind` reads it for the
/// help, the engine's limits, the simulator and the clients' tiers. Every `EvictionPolicy`
/// describes itself; a preset (`size`, `ttl`) describes a policy it runs with other defaults.
public protocol PolicyDescription {
    /// The eviction order that runs: the policy itself, or the one a preset presets.
    associatedtype Order: EvictionPolicy

    /// One line for `--help` and reports: the rule, and libCacheSim's name where it has the policy.
    static var summary: String { get }

    /// The largest entry the policy stores, as a share of the capacity, when that is less than
    /// all of it (libCacheSim's 2Q admits only what fits Ain, S3-FIFO only what is smaller than its
    /// small queue): a tier using it never holds a bigger image. Nil: anything that fits.
    static var storedShare: Double? { get }

    /// Whether the order is the order of last use alone, so that a disk tier rebuilt from each
    /// entry's last use at relaunch has exactly the order it had.
    static var ordersByRecency: Bool { get }

    /// Whether the policy may decline to store a missed entry that fits (GDSF ranks the newcomer
    /// with the stored entries). Belady's MIN stores every miss, so it bounds the hits of every
    /// other policy but not of these.
    static var mayDeclineNewEntries: Bool { get }

    /// libCacheSim 0.3.5's name for the policy when cachelab's equals it miss for miss
    /// (`scripts/conformance` checks every one); nil when libCacheSim has no such policy.
    static var libCacheSimName: String? { get }

    /// Whether the policy draws from a random stream (libCacheSim's generator, from its seed,
    /// draw for draw): the same seed, the same counts.
    static var drawsRandomly: Bool { get }

    /// Work per request relative to an LRU replay, roughly: the executor spreads a plan's cells
    /// over the cores, and a sweep's shards over the tasks, by it.
    static var relativeCost: Double { get }

    /// The engine limits it runs with, from what the user asked for (a preset fills in its
    /// defaults: a trim ratio, a lifetime).
    static func configuration(
        capacity: Int, sizeMode: SizeMode, ttl: Int64?, ttlMode: TTLMode, trimRatio: Double?
    ) -> CacheConfiguration
}

extension PolicyDescription {
    @inlinable public static var storedShare: Double? { nil }
    @inlinable public static var ordersByRecency: Bool { false }
    @inlinable public static var mayDeclineNewEntries: Bool { false }
    @inlinable public static var relativeCost: Double { 1 }
    @inlinable public static var libCacheSimName: String? { nil }
    @inlinable public static var drawsRandomly: Bool { false }

    @inlinable public static func configuration(
        capacity: Int, sizeMode: SizeMode, ttl: Int64?, ttlMode: TTLMode, trimRatio: Double?
    ) -> CacheConfiguration {
        CacheConfiguration(
            capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode, trimRatio: trimRatio ?? 1)
    }
}
