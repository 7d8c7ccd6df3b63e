import CacheLab

/// The checksum stored beside every blob: 64-bit FNV-1a (`StableHash`). Stable across runs and
/// builds (no seed), so a row written by one launch verifies in the next.
///
/// Not a cryptographic hash: it detects torn writes and flipped bytes, not tampering.
enum Checksum {
    static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        StableHash.fnv1a(bytes)
    }

    /// The checksum as SQLite stores it (a signed 64-bit INTEGER).
    static func stored(_ bytes: [UInt8]) -> Int64 {
        Int64(bitPattern: fnv1a64(bytes))
    }
}
