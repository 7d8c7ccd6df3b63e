/// FNV-1a, 64 bits: a hash that is the same in every process (Swift's `hashValue` is seeded per
/// process), for sizes, seeds and ETags that must not change between runs.
enum StableHash {
    static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes, seed: UInt64 = 0) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    static func fnv1a(_ string: String, seed: UInt64 = 0) -> UInt64 {
        fnv1a(string.utf8, seed: seed)
    }
}
