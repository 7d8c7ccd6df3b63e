/// A key a cache can index. `hashBits` must differ between keys that differ, cheaply; the index
/// spreads them itself (Fibonacci hashing: one multiply, then the top bits).
public protocol CacheKey: Hashable, Sendable {
    var hashBits: UInt64 { get }
}

extension UInt64: CacheKey {
    /// The id itself: trace ids are already distinct, and the index's multiply spreads
    /// sequential ids as well as random ones.
    @inlinable
    public var hashBits: UInt64 { self }
}

extension String: CacheKey {
    // Strings key the real client's tiers (full image URLs), where a per-process seeded hash is
    // fine: the table's layout never leaks into results.
    @inlinable
    public var hashBits: UInt64 { UInt64(bitPattern: Int64(hashValue)) }
}
