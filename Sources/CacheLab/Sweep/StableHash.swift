/// FNV-1a, 64 bits (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3): a
/// hash that is the same in every process and on every machine (Swift's `hashValue` is seeded per
/// process), for sizes, seeds, ETags, checksums and the names of a sweep's cell files.
///
/// Not a cryptographic hash: it tells apart what differs by accident, not by design.
///
/// `@inlinable`, so a caller in another module (the fixture server's ETags) runs it specialized
/// for its byte sequence; unspecialized, each byte costs a few witness calls.
public enum StableHash {
    @inlinable
    public static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes, seed: UInt64 = 0) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    @inlinable
    public static func fnv1a(_ string: String, seed: UInt64 = 0) -> UInt64 {
        fnv1a(string.utf8, seed: seed)
    }

    /// `hash` as 16 lower-case hex digits (leading zeros kept), for file names.
    public static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
