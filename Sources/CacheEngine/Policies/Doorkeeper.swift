/// Whether a key was probably seen since the filter was last cleared: a Bloom filter (B. H. Bloom,
/// "Space/Time Trade-offs in Hash Coding with Allowable Errors", CACM 13(7), 1970) of 64-bit
/// words. TinyLFU puts one in front of its frequency sketch (Einziger, Friedman and Manes, ACM
/// Transactions on Storage 13(4), 2017), so that keys seen once, most keys of a long tail, never
/// reach the counters.
///
/// Sized as Caffeine's simulator sizes its doorkeeper (`membership` settings, v3.2.4): for 3 ×
/// the sketch's entries at a nominal 1 % false-positive rate, n · −ln 0.01 / (ln 2)² ≈ 9.59 bits
/// per insertion, rounded up to a power of two of words (at least 2), and probed 4 times per key
/// (not the optimal 7, so the real rate differs from the nominal 1 %). The hashing is cachelab's
/// own: Murmur3's 64-bit finalizer of the key, then the 4 bit positions by double hashing
/// (Kirsch and Mitzenmacher) from its two halves; Caffeine's seeds are not reproduced.
///
/// - Complexity: O(1) `put` and `mightContain` (4 bits each); O(words) `clear`.
/// - Invariant: the word count is a power of two, at least 2; a key put since the last `clear`
///   is always reported (no false negatives).
@usableFromInline package struct Doorkeeper {
    /// Bits set and tested per key.
    @usableFromInline package static let probes = 4
    /// Insertions the filter is sized for, per entry of the sketch it guards.
    @usableFromInline package static let insertionsPerEntry = 3
    /// −ln 0.01 / (ln 2)², written out (the core imports no libm): bits per insertion at 1 %.
    @usableFromInline package static let bitsPerInsertion = 4.605170185988091 / 0.4804530139182014

    /// Words in the table, a power of two.
    @usableFromInline package let wordCount: Int
    @usableFromInline package let words: SlotArray<UInt64>
    /// Bit positions wrap with this mask (wordCount × 64 − 1).
    @usableFromInline package let bitMask: UInt64

    /// A cleared filter for a sketch of `entries` entries.
    @inlinable package init(entries: Int) {
        let insertions = Double(max(entries, 0)) * Double(Self.insertionsPerEntry)
        let bits = (insertions * Self.bitsPerInsertion).rounded(.up)
        let needed = max(Int((bits / 64).rounded(.up)), 2)
        wordCount = needed.nextPowerOfTwo
        words = SlotArray(count: wordCount, filling: 0)
        bitMask = UInt64(wordCount) &* 64 &- 1
    }

    /// Records `key`; returns whether it was (probably) there already: every one of its bits set.
    @inline(__always)
    @inlinable package func put(_ key: UInt64) -> Bool {
        let (start, step) = Self.positions(key)
        var position = start
        var present = true
        for _ in 0..<Self.probes {
            let bit = position & bitMask
            let mask: UInt64 = 1 << (bit & 63)
            let word = Int(bit >> 6)
            if words[word] & mask == 0 {
                present = false
                words[word] |= mask
            }
            position &+= step
        }
        return present
    }

    /// Whether `key` was probably put since the last `clear` (never false for a key that was).
    @inline(__always)
    @inlinable package func mightContain(_ key: UInt64) -> Bool {
        let (start, step) = Self.positions(key)
        var position = start
        for _ in 0..<Self.probes {
            let bit = position & bitMask
            if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
            position &+= step
        }
        return true
    }

    /// Forgets every key.
    @inlinable package func clear() { words.fill(with: 0) }

    /// Bits set (for tests).
    @inlinable package var population: Int {
        (0..<wordCount).reduce(0) { $0 + words[$1].nonzeroBitCount }
    }

    // The first bit position and the odd stride between the key's probes: the two halves of the
    // key mixed by Murmur3's finalizer, so nearby ids (traces number their objects) spread.
    @inline(__always)
    @inlinable package static func positions(_ key: UInt64) -> (UInt64, UInt64) {
        var mixed = key
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        return (mixed & 0xffff_ffff, (mixed >> 32) | 1)
    }
}
