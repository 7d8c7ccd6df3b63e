/// The checksum stored beside every blob: XXH64 (Yann Collet's xxHash, 64 bits, seed 0), read
/// from contiguous bytes eight at a time in four independent lanes, so a disk hit verifies at
/// memory speed. Stable across runs, builds and machines (no per-process seed, little-endian
/// reads on every platform), so a row written by one launch verifies in the next.
///
/// Not a cryptographic hash: it detects torn writes and flipped bytes, not tampering.
///
/// Schema 3 stored 64-bit FNV-1a, a byte at a time; `legacyFNV1a` reads those rows once, when
/// `DiskStore` migrates a file to schema 4.
enum Checksum {
    /// The checksum as SQLite stores it (a signed 64-bit INTEGER).
    static func stored(_ bytes: [UInt8]) -> Int64 {
        Int64(bitPattern: bytes.withUnsafeBytes { xxh64($0) })
    }

    /// The checksum of `bytes` stored under `key`: XXH64 of the bytes seeded with XXH64 of the
    /// key's UTF-8, so a row verifies only for the key it was stored under (schema 6).
    static func stored(_ bytes: [UInt8], key: String) -> Int64 {
        var key = key
        let seed = key.withUTF8 { xxh64(UnsafeRawBufferPointer($0)) }
        return Int64(bitPattern: bytes.withUnsafeBytes { xxh64($0, seed: seed) })
    }

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// XXH64 of `bytes` with `seed` (0 by default).
    static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            // Four lanes of one word each per 32-byte stripe: four multiplies in flight at once.
            var lane1 = seed &+ prime1 &+ prime2
            var lane2 = seed &+ prime2
            var lane3 = seed
            var lane4 = seed &- prime1
            while offset &+ 32 <= count {
                lane1 = round(lane1, word(bytes, offset))
                lane2 = round(lane2, word(bytes, offset &+ 8))
                lane3 = round(lane3, word(bytes, offset &+ 16))
                lane4 = round(lane4, word(bytes, offset &+ 24))
                offset &+= 32
            }
            hash = rotate(lane1, 1) &+ rotate(lane2, 7) &+ rotate(lane3, 12) &+ rotate(lane4, 18)
            hash = merge(hash, lane1)
            hash = merge(hash, lane2)
            hash = merge(hash, lane3)
            hash = merge(hash, lane4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        // The tail: words, then at most one half-word, then single bytes.
        while offset &+ 8 <= count {
            hash ^= round(0, word(bytes, offset))
            hash = rotate(hash, 27) &* prime1 &+ prime4
            offset &+= 8
        }
        if offset &+ 4 <= count {
            let half = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            hash ^= UInt64(half) &* prime1
            hash = rotate(hash, 23) &* prime2 &+ prime3
            offset &+= 4
        }
        while offset < count {
            hash ^= UInt64(bytes[offset]) &* prime5
            hash = rotate(hash, 11) &* prime1
            offset &+= 1
        }
        // The avalanche: every input bit reaches every output bit.
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    /// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3): the checksum of
    /// schema 3, read only to migrate its rows.
    static func legacyFNV1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func round(_ lane: UInt64, _ input: UInt64) -> UInt64 {
        rotate(lane &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
