/// `ttl`: entries expire a fixed time after insertion (`--ttl-mode fixed`) or after their last use
/// (`--ttl-mode sliding`, Kingfisher's memory cache: 300 s); capacity overflow evicts LRU.
///
/// An expired entry is a miss when looked up and counts as an expiration; expired entries are also
/// swept before any live entry is evicted. The expiry itself lives in the engine, so `--ttl` works
/// on top of every policy; this preset only chooses LRU and a default lifetime.
///
/// - Complexity: O(1) per request, plus O(1) per entry expired.
public enum TTLPreset: PolicyDescription {
    public typealias Order = LRUPolicy
    /// 300 seconds, Kingfisher's memory-cache default.
    public static let defaultTTL: Int64 = 300_000
    public static let summary = "LRU with entries expiring a fixed time after insertion or last use"
    public static let ordersByRecency = true

    @inlinable public static func configuration(
        capacity: Int, sizeMode: SizeMode, ttl: Int64?, ttlMode: TTLMode, trimRatio: Double?
    ) -> CacheConfiguration {
        CacheConfiguration(
            capacity: capacity, sizeMode: sizeMode, ttl: ttl ?? defaultTTL, ttlMode: ttlMode,
            trimRatio: trimRatio ?? 1)
    }
}
