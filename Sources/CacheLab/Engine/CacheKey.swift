/// A key a cache can index. `mixedHash` must spread keys over all 64 bits, cheaply: the
/// simulator's index is an open-addressing table that takes the low bits of it.
public protocol CacheKey: Hashable, Sendable {
    var mixedHash: UInt64 { get }
}

extension UInt64: CacheKey {
    /// MurmurHash3's 64-bit finalizer: two multiplies, no allocation, good avalanche.
    @inlinable
    public var mixedHash: UInt64 {
        var h = self
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }
}

extension String: CacheKey {
    // Strings key the real client's tiers (full image URLs), where a per-process seeded hash is
    // fine: the table's layout never leaks into results.
    @inlinable
    public var mixedHash: UInt64 { UInt64(bitPattern: Int64(hashValue)) }
}
