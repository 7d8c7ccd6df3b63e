/// How often keys were seen lately, approximately, in a fixed table of counters: a counting
/// Bloom filter in which a key's count is the least of its counters (Fan, Cao, Almeida and
/// Broder's counting filter read the way Cohen and Matias's spectral Bloom filter reads it).
/// W-TinyLFU asks it which of two keys was used more.
///
/// Built the way libCacheSim's `minimalIncrementCBF` is, so that the estimates (and therefore
/// W-TinyLFU's admissions) are the same: sized for `entries` keys at a false-positive rate of
/// 0.001 (14.4 counters per key, 10 counters per key touched), 32-bit counters, the two base
/// hashes XXH64 of the key's 8 bytes with libCacheSim's seeds truncated to 32 bits, counter `i`
/// at `(a + i·b) mod width` in 32-bit arithmetic, every one of a key's counters incremented on
/// `add`, all counters halved on `halve()`.
///
/// - Complexity: O(1) `add` and `estimate` (10 counters each); O(width) `halve`; `reset` O(the
///   keys added since the last one) while they are few (at most `width / (8 · hashCount)`),
///   O(width) beyond: a client's memory tier is reset at every relaunch, and a session between
///   two touches a small part of a table of up to 2²⁰ counters (the Speed article's `tune`).
/// - Invariant: `width >= hashCount`; allocates only when created. Every nonzero counter is one
///   of a key in `added`, unless it overflowed (`halve` only lowers counters).
@usableFromInline package struct FrequencySketch {
    /// Counters touched per key.
    @usableFromInline package let hashCount: Int
    /// Counters in the table.
    @usableFromInline package let width: Int
    @usableFromInline package let counters: SlotArray<UInt32>
    /// The keys counted since the last reset, while they are few.
    @usableFromInline package let added: AddedKeys

    /// libCacheSim's seeds for its first two hash functions (`HASH_SEED0`, `HASH_SEED1`).
    @usableFromInline package static let seeds: (UInt64, UInt64) = (0x1234_5678, 0x1234_4321)

    /// A sketch for `entries` keys, with at most `maximumWidth` counters.
    @inlinable package init(entries: Int, maximumWidth: Int = Int(Int32.max)) {
        // libCacheSim's arithmetic, step by step: bits per element, hash count, counters.
        // -log(0.001) / log(2)², with libm's log(0.001) written out (the core imports no libm).
        let bitsPerEntry = 6.907755278982137 / 0.480453013918201
        let hashes = Int((0.693147180559945 * bitsPerEntry).rounded(.up))
        // Its `entries` parameter is a C int: the capacity arrives truncated to 32 bits.
        let asCInt = Double(Int32(truncatingIfNeeded: entries))
        var width = Int(min((bitsPerEntry * asCInt).rounded(.up), Double(Int32.max)))
        if width < hashes { width = hashes * 2 }
        hashCount = hashes
        self.width = min(width, max(maximumWidth, hashes * 2))
        counters = SlotArray(count: self.width, filling: 0)
        added = AddedKeys(limit: max(1, self.width / (8 * hashes)))
    }

    /// Counts one more use of `key`; returns its estimate after counting.
    @inline(__always)
    @discardableResult
    @inlinable package func add(_ key: UInt64) -> UInt32 {
        let (a, b) = Self.baseHashes(key)
        let least = leastCounter(a, b)
        guard least < .max else { return least }
        added.note(key)
        let modulus = UInt32(truncatingIfNeeded: width)
        for i in 0..<UInt32(truncatingIfNeeded: hashCount) {
            counters[Int((a &+ i &* b) % modulus)] &+= 1
        }
        return least + 1
    }

    /// The estimated uses of `key`: the least of its counters, never below the true count
    /// since the last halving.
    @inline(__always)
    @inlinable package func estimate(_ key: UInt64) -> UInt32 {
        let (a, b) = Self.baseHashes(key)
        return leastCounter(a, b)
    }

    // The least of the counters the double hash (a + i·b) mod width picks for i in 0..<hashCount.
    @inline(__always)
    @inlinable package func leastCounter(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let modulus = UInt32(truncatingIfNeeded: width)
        var least = UInt32.max
        for i in 0..<UInt32(truncatingIfNeeded: hashCount) {
            least = min(least, counters[Int((a &+ i &* b) % modulus)])
        }
        return least
    }

    /// Halves every counter, so old uses weigh half as much as new ones.
    @inlinable package func halve() {
        for index in 0..<width { counters[index] >>= 1 }
    }

    /// Sets every counter to zero: those of the keys counted since the last reset, or, when they
    /// were too many to note, the whole table.
    @inlinable package func reset() {
        if added.overflowed {
            for index in 0..<width { counters[index] = 0 }
        } else {
            let modulus = UInt32(truncatingIfNeeded: width)
            for position in 0..<added.count {
                let (a, b) = Self.baseHashes(added.keys[position])
                for i in 0..<UInt32(truncatingIfNeeded: hashCount) {
                    counters[Int((a &+ i &* b) % modulus)] = 0
                }
            }
        }
        added.clear()
    }

    @inline(__always)
    @inlinable package static func baseHashes(_ key: UInt64) -> (UInt32, UInt32) {
        (
            UInt32(truncatingIfNeeded: xxh64(key, seed: seeds.0)),
            UInt32(truncatingIfNeeded: xxh64(key, seed: seeds.1))
        )
    }

    /// XXH64 (Yann Collet's xxHash, 64-bit variant) of the 8 little-endian bytes of `value`.
    @inline(__always)
    @inlinable package static func xxh64(_ value: UInt64, seed: UInt64) -> UInt64 {
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
        let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        let prime3: UInt64 = 0x1656_67B1_9E37_79F9
        let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
        let prime5: UInt64 = 0x27D4_EB2F_1656_67C5
        var hash = seed &+ prime5 &+ 8
        let lane = (value &* prime2).rotatedLeft(by: 31) &* prime1
        hash ^= lane
        hash = hash.rotatedLeft(by: 27) &* prime1 &+ prime4
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}

extension UInt64 {
    @inline(__always)
    @inlinable package func rotatedLeft(by count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}

extension FrequencySketch {
    /// The keys a sketch counted since its last reset, up to `limit` (a key counted twice is
    /// noted twice); past it, only that there were more.
    @usableFromInline package final class AddedKeys {
        @usableFromInline package let keys: SlotArray<UInt64>
        @usableFromInline package let limit: Int
        /// Keys noted; `Int.max` once past the limit.
        @exclusivity(unchecked) @usableFromInline package var count = 0

        @inlinable package init(limit: Int) {
            self.limit = limit
            keys = SlotArray(count: limit, filling: 0)
        }

        @inlinable package var overflowed: Bool { count == .max }

        @inline(__always)
        @inlinable package func note(_ key: UInt64) {
            if count < limit {
                keys[count] = key
                count &+= 1
            } else {
                count = .max
            }
        }

        @inlinable package func clear() { count = 0 }
    }
}
