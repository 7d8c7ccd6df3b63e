/// How often keys were used lately, approximately: a count-min sketch of 4-bit counters (at most
/// 15), four per key, all in one 64-byte block, halved every time it has counted ten uses per
/// entry it is sized for. Optionally behind a `Doorkeeper`, which keeps keys seen once out of
/// the counters.
///
/// Caffeine's `FrequencySketch` (v3.2.4, the block layout since v3.1.2), rule for rule:
/// - **Sizing** (`ensureCapacity(n)`): for m = min(n, 2³⁰ − 1) entries, max(2^⌈log₂ m⌉, 8)
///   words of 16 counters; a table already that long is kept, a longer one starts from zero.
///   It samples `10 · m` counted uses between halvings (10 when n is 0).
/// - **Hashing**: Java's `Long.hashCode` of the key (its two halves xor-ed), spread by two
///   multiply-xorshift rounds to choose the block of 8 words, then mixed once more; byte i of
///   that hash picks, for row i, one of the row's two words (its low bit) and one of 16 counters.
/// - **Counting**: each of the four counters below 15 goes up by one; if any did, the sample
///   grows by one, and when it reaches `sampleSize` every counter is halved and the sample
///   becomes (sample − odd counters / 4) / 2, the odd ones having lost their half.
/// - **Estimate**: the least of the four counters.
///
/// With the doorkeeper (Caffeine's simulator, `count-min-4.periodic.doorkeeper`): a use reaches
/// the counters only if the doorkeeper already held the key, so first sightings neither count
/// nor advance the sample; the estimate is the counters' plus one if the doorkeeper may hold the
/// key, at most 15; the doorkeeper is cleared at every halving and made anew, for 3 × m, when
/// the table is.
///
/// - Complexity: O(1) `increment` and `frequency` (4 counters, one cache line; 4 doorkeeper
///   bits); O(words) halving, once per `sampleSize` counted uses; `ensureCapacity` allocates
///   only when the table grows.
/// - Invariant: the table is empty (not yet sized) or a power of two of words, at least 8;
///   `size < sampleSize`.
@usableFromInline package struct BlockFrequencySketch {
    /// The most entries a table is sized for (Caffeine's `Integer.MAX_VALUE >>> 1`).
    @usableFromInline package static let maximumEntries = (1 << 30) - 1
    /// Uses sampled between halvings, per entry sized for.
    @usableFromInline package static let samplesPerEntry = 10
    /// The largest count a counter (and an estimate) reaches.
    @usableFromInline package static let maximumCount = 15
    /// Every counter's low bit, and the counters of a word with their low bit cleared.
    @usableFromInline package static let lowBits: UInt64 = 0x1111_1111_1111_1111
    @usableFromInline package static let highBits: UInt64 = 0x7777_7777_7777_7777

    /// Whether a doorkeeper stands in front of the counters.
    @usableFromInline package let usesDoorkeeper: Bool
    /// The counters, 16 per word; empty until `ensureCapacity`.
    @usableFromInline package var table = SlotArray<UInt64>(count: 0, filling: 0)
    /// Selects a block of 8 words: (words / 8) − 1.
    @usableFromInline package var blockMask: UInt32 = 0
    /// Counted uses between halvings.
    @usableFromInline package var sampleSize = 0
    /// Counted uses since the last halving.
    @usableFromInline package var size = 0
    /// Halvings so far (for tests and reports).
    @usableFromInline package var halvings = 0
    /// The doorkeeper, when used, once the table is sized.
    @usableFromInline package var doorkeeper: Doorkeeper?

    /// An unsized sketch: it counts nothing and estimates 0 until `ensureCapacity`.
    @inlinable package init(doorkeeper: Bool) {
        usesDoorkeeper = doorkeeper
    }

    /// Whether the table was sized.
    @inlinable package var isInitialized: Bool { table.count > 0 }

    /// Words in the table (0 until sized).
    @inlinable package var tableLength: Int { table.count }

    /// Sizes the table for `entries` keys, unless it is already long enough; a new table (and
    /// doorkeeper) starts with every count at zero.
    @inlinable package mutating func ensureCapacity(_ entries: Int) {
        let wanted = min(max(entries, 0), Self.maximumEntries)
        if isInitialized, table.count >= wanted { return }
        let length = max(wanted.nextPowerOfTwo, 8)
        table = SlotArray(count: length, filling: 0)
        blockMask = UInt32(length >> 3) - 1
        sampleSize = entries <= 0 ? Self.samplesPerEntry : Self.samplesPerEntry * wanted
        size = 0
        if usesDoorkeeper { doorkeeper = Doorkeeper(entries: wanted) }
    }

    /// The estimated uses of `key` since the halvings began to forget them: the least of its
    /// counters, plus one if the doorkeeper may hold it, at most 15. 0 before sizing.
    @inline(__always)
    @inlinable package func frequency(_ key: UInt64) -> Int {
        guard isInitialized else { return 0 }
        var count = counted(key)
        if let doorkeeper, doorkeeper.mightContain(key) { count = min(count + 1, Self.maximumCount) }
        return count
    }

    /// What the counters alone hold for `key`, without the doorkeeper's share.
    @inline(__always)
    @inlinable package func counted(_ key: UInt64) -> Int {
        guard isInitialized else { return 0 }
        let (block, hash) = locate(key)
        var least = Self.maximumCount
        for row in 0..<4 {
            let (word, shift) = Self.counter(row, block: block, hash: hash)
            least = min(least, Int((table[word] >> shift) & 0xf))
        }
        return least
    }

    /// Counts one use of `key` (nothing before sizing). Behind a doorkeeper, only a key it already
    /// held reaches the counters.
    @inline(__always)
    @inlinable package mutating func increment(_ key: UInt64) {
        guard isInitialized else { return }
        if let doorkeeper, !doorkeeper.put(key) { return }
        let (block, hash) = locate(key)
        var added = false
        for row in 0..<4 {
            let (word, shift) = Self.counter(row, block: block, hash: hash)
            if (table[word] >> shift) & 0xf < 15 {
                table[word] &+= 1 << shift
                added = true
            }
        }
        guard added else { return }
        size += 1
        if size == sampleSize { halve() }
    }

    /// Halves every counter (aging), and clears the doorkeeper.
    @inlinable package mutating func halve() {
        var odd = 0
        for index in 0..<table.count {
            odd += (table[index] & Self.lowBits).nonzeroBitCount
            table[index] = (table[index] >> 1) & Self.highBits
        }
        size = (size - (odd >> 2)) >> 1
        doorkeeper?.clear()
        halvings += 1
    }

    // The first word of the key's block, and the hash whose bytes pick its four counters.
    @inline(__always)
    @inlinable package func locate(_ key: UInt64) -> (Int, UInt32) {
        let blockHash = Self.spread(Self.javaHashCode(key))
        return (Int((blockHash & blockMask) << 3), Self.rehash(blockHash))
    }

    // Row `row`'s counter: one of the row's two words (2·row and 2·row + 1 in the block), by the
    // low bit of the hash's byte `row`, and one of its 16 nibbles by the next four bits.
    @inline(__always)
    @inlinable package static func counter(_ row: Int, block: Int, hash: UInt32) -> (word: Int, shift: UInt64) {
        let byte = hash >> UInt32(row << 3)
        return (block + Int(byte & 1) + (row << 1), UInt64((byte >> 1) & 15) << 2)
    }

    /// Java's `Long.hashCode`: the two halves of the key xor-ed, the hash Caffeine's sketch sees
    /// for a `long` key.
    @inline(__always)
    @inlinable package static func javaHashCode(_ key: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: key ^ (key >> 32))
    }

    /// The block hash: two multiply-xorshift rounds (the constants Caffeine's sketch uses).
    @inline(__always)
    @inlinable package static func spread(_ hash: UInt32) -> UInt32 {
        var x = hash
        x ^= x >> 17
        x &*= 0xed5a_d4bb
        x ^= x >> 11
        x &*= 0xac4c_1b51
        x ^= x >> 15
        return x
    }

    /// The counter hash, mixed once more from the block hash.
    @inline(__always)
    @inlinable package static func rehash(_ hash: UInt32) -> UInt32 {
        var x = hash &* 0x3184_8bab
        x ^= x >> 14
        return x
    }
}
