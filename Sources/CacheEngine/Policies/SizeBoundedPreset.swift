/// `size`: the way image libraries bound their disk caches. LRU order; when an insertion would
/// push the byte total past the limit, least recently used entries are evicted until the total,
/// new entry included, is at most the low-water mark `trimRatio × limit`.
///
/// The default ratio 0.7 is Nuke's `DataCache` sweep; Kingfisher and SDWebImage trim to 0.5.
/// The trimming itself lives in the engine (`Cache.makeRoom`), so `--trim-ratio` works with every
/// policy; this preset only chooses LRU and a ratio.
///
/// - Complexity: O(1) per request, plus O(1) per entry evicted by a trim.
public enum SizeBoundedPreset: PolicyDescription {
    public typealias Order = LRUPolicy
    public static let defaultTrimRatio = 0.7
    public static let summary = "LRU trimming to a low-water mark on overflow (disk caches)"
    public static let ordersByRecency = true

    @inlinable public static func configuration(
        capacity: Int, sizeMode: SizeMode, ttl: Int64?, ttlMode: TTLMode, trimRatio: Double?
    ) -> CacheConfiguration {
        CacheConfiguration(
            capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode,
            trimRatio: trimRatio ?? defaultTrimRatio)
    }
}
