/// The checksum stored beside every blob: 64-bit FNV-1a (Fowler, Noll, Vo), offset basis
/// 0xcbf29ce484222325, prime 0x100000001b3. Stable across runs and builds (no seed), so a row
/// written by one launch verifies in the next.
///
/// Not a cryptographic hash: it detects torn writes and flipped bytes, not tampering.
enum Checksum {
    static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The checksum as SQLite stores it (a signed 64-bit INTEGER).
    static func stored(_ bytes: [UInt8]) -> Int64 {
        Int64(bitPattern: fnv1a64(bytes))
    }
}
