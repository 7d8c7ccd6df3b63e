/// A replica of libCacheSim's `chainedHashTableV2`, for BeladySize, which evicts entries sampled
/// from it: which entry a sample lands on depends on the exact layout of that table, so it is
/// rebuilt here move for move.
///
/// Entries (slots) hang in `2^hashPower` buckets, chosen by the low bits of XXH3-64 of the key's
/// eight little-endian bytes (seed 0). A bucket is a singly linked chain; a new entry goes to its
/// head. An insertion first doubles the table when it holds more than two entries per bucket; a
/// sample halves it after its 33rd empty bucket in a row (and again after each further one).
/// Either rehash walks the old buckets in order, each chain from its head, and pushes every entry
/// onto the head of its new bucket. A sample (`sample`) draws a bucket (`draw & mask`) until one
/// is not empty, then an entry of its chain (`draw % length`, counted from the head): at least
/// two draws, uniform over non-empty buckets and then within the chain.
///
/// Buckets and links live in slot arrays and are rehashed in place: after the table has grown to
/// its largest size nothing allocates. The buckets start as lazily zeroed memory
/// (`SlotArray(zeroedCount:)`), each holding its first slot plus one (0: empty) and its chain's
/// length, so 2^24 of them cost nothing until used. The length is the one thing libCacheSim does
/// not keep: with it a sample walks only as far as the entry it picks, not the whole chain first
/// (the walk's entries are cold, and Random's evictions waited on them).
///
/// Each slot's place in its chain is a `Link` of eight bytes (its hash and the next slot), so a
/// sample's or a removal's walk over a chain stays in few cache lines. The table keeps no keys:
/// BeladySize only samples it. Random and Hyperbolic, whose table is the cache's index too, keep
/// the same chains four to a line (`BlockedChainTable`), tested against this one.
///
/// - Complexity: O(1) expected insert and sample, O(chain) remove; a rehash is
///   O(buckets).
/// - Invariant: every slot in the table sits in the chain of bucket `hash & mask`, once; `count`
///   is their number; buckets at `bucketCount` and beyond are empty.
@usableFromInline package struct ChainedHashTable {
    /// A slot's place in a chain: the low 32 bits of its key's hash (all a mask of at most 32
    /// bits reads) and the next slot of the chain (-1 at the end, `absent` when the slot is not
    /// in the table).
    @usableFromInline package struct Link: BitwiseCopyable {
        @usableFromInline package var hash: UInt32
        @usableFromInline package var next: Int32

        @inlinable package init(hash: UInt32, next: Int32) {
            self.hash = hash
            self.next = next
        }
    }

    /// The most buckets: 2^32. Beyond that the bucket array alone would take 16 GiB, and with
    /// slots below 2^31 the table never doubles past 2^30 buckets.
    @inlinable package static var maximumHashPower: Int { 32 }

    @inlinable package static var absent: Int32 { .min }

    /// A bucket: its chain's first slot plus one (0: empty) and the chain's length. All zero is an
    /// empty bucket, so zeroed memory is an empty table. Eight bytes, one load.
    @usableFromInline package struct Bucket: BitwiseCopyable {
        @usableFromInline package var firstPlusOne: Int32
        @usableFromInline package var length: UInt32

        @inlinable package static var empty: Bucket { Bucket(firstPlusOne: 0, length: 0) }

        /// The chain's first slot, or -1 when it is empty (the end of a chain, as in `Link.next`).
        @inlinable package var first: Int32 { firstPlusOne &- 1 }

        /// This chain with `slot` (already linked to the old first) in front.
        @inlinable package func pushing(_ slot: Int32) -> Bucket { Bucket(firstPlusOne: slot &+ 1, length: length + 1) }

        @inlinable package init(firstPlusOne: Int32, length: UInt32) {
            self.firstPlusOne = firstPlusOne
            self.length = length
        }
    }

    /// log2 of the bucket count.
    @usableFromInline package var hashPower: Int
    @usableFromInline package var count = 0
    @usableFromInline package var mask: UInt64
    /// Each bucket's chain: its first slot and length. At least `bucketCount` long.
    @usableFromInline package let heads: SlotArray<Bucket>
    /// Each slot's link (`next` is `absent` when the slot is not in the table; the encoding stays
    /// in this type: no method answers it).
    @usableFromInline package let nodes = SlotArray<Link>(count: 0, filling: Link(hash: 0, next: absent))

    /// An empty table of `2^hashPower` buckets.
    @inlinable package init(hashPower: Int) {
        self.hashPower = hashPower
        mask = Self.mask(hashPower: hashPower, table: "ChainedHashTable")
        heads = SlotArray(zeroedCount: 1 << hashPower)
    }

    /// The mask of a table of `2^hashPower` buckets (this one's or `BlockedChainTable`'s), after
    /// checking the power; `table` names the table in the message.
    @inlinable package static func mask(hashPower: Int, table: String) -> UInt64 {
        precondition(
            (0...maximumHashPower).contains(hashPower),
            "\(table): hash power \(hashPower) out of 0...\(maximumHashPower)")
        return (1 << UInt64(hashPower)) - 1
    }

    @inlinable package var bucketCount: Int { 1 << hashPower }

    /// Makes room for slots `0..<slotCount`.
    @inlinable package func grow(to slotCount: Int) {
        nodes.grow(to: slotCount, filling: Link(hash: 0, next: Self.absent))
    }

    /// XXH3-64 of `key`'s eight little-endian bytes with seed 0: libCacheSim's object hash.
    /// (For an eight-byte input XXH3 reduces to one rrmxmx mix of the two 32-bit halves, swapped,
    /// against its default secret's bytes 8..<24.)
    @inlinable package static func hash(_ key: UInt64) -> UInt64 {
        let bitflip: UInt64 = 0x1cad_21f7_2c81_017c ^ 0xdb97_9083_e96d_d4de
        let swapped = (key >> 32) &+ (key << 32)
        var h = swapped ^ bitflip
        h ^= ((h << 49) | (h >> 15)) ^ ((h << 24) | (h >> 40))
        h &*= 0x9fb2_1c65_1e98_df25
        h ^= (h >> 35) &+ 8
        h &*= 0x9fb2_1c65_1e98_df25
        return h ^ (h >> 28)
    }

    /// Adds `slot`, holding `key`, at the head of its bucket (doubling the table first when it
    /// holds more than two entries per bucket).
    @inline(__always)
    @inlinable package mutating func insert(_ slot: Int32, key: UInt64) {
        assert(nodes[slot].next == Self.absent, "ChainedHashTable: slot \(slot) is already in the table")
        if count > 2 << hashPower { expand() }
        let hash = Self.hash(key)
        let bucket = Int(hash & mask)
        nodes[slot] = Link(hash: UInt32(truncatingIfNeeded: hash), next: head(bucket))
        push(slot, onto: bucket)
        count += 1
    }

    /// Unlinks `slot`, which must be in the table, from its chain.
    @inline(__always)
    @inlinable package mutating func remove(_ slot: Int32) {
        let bucket = self.bucket(of: slot)
        var previous: Int32 = -1
        var current = head(bucket)
        while current != slot {
            precondition(current >= 0, "ChainedHashTable: slot \(slot) is not in its bucket's chain")
            previous = current
            current = nodes[current].next
        }
        if previous < 0 {
            heads[bucket].firstPlusOne = nodes[slot].next &+ 1
        } else {
            nodes[previous].next = nodes[slot].next
        }
        heads[bucket].length -= 1
        nodes[slot].next = Self.absent
        count -= 1
    }

    /// libCacheSim's `rand_obj`: a bucket drawn until one is not empty (the table halved after
    /// the 33rd empty one in a row, and after each further one), then an entry of its chain.
    /// The table must not be empty.
    @inline(__always)
    @inlinable package mutating func sample(_ random: LehmerRandom) -> Int32 {
        precondition(count > 0, "ChainedHashTable: sampling an empty table")
        var bucket = heads[Int(random.next() & mask)]
        var tries = 0
        while bucket.length == 0 {
            tries += 1
            if tries > 32 { shrink() }
            bucket = heads[Int(random.next() & mask)]
        }
        return entry(in: bucket, at: random.next())
    }

    /// The entry a sample picks in `bucket`'s (non-empty) chain: `draw % length`, counted from
    /// the head.
    @inline(__always)
    @inlinable package func entry(in bucket: Bucket, at draw: UInt64) -> Int32 {
        var position = draw % UInt64(bucket.length)
        var slot = bucket.first
        while position > 0 {
            slot = nodes[slot].next
            position -= 1
        }
        return slot
    }

    /// Empties the table, keeping its size.
    @inlinable package mutating func removeAll() {
        for slot in 0..<Int32(nodes.count) where nodes[slot].next != Self.absent {
            heads[bucket(of: slot)] = .empty
            nodes[slot].next = Self.absent
        }
        count = 0
    }

    /// The slots of `bucket`'s chain, head first (for tests).
    @inlinable package func chain(_ bucket: Int) -> [Int32] {
        var result: [Int32] = []
        var slot = head(bucket)
        while slot >= 0 {
            result.append(slot)
            slot = nodes[slot].next
        }
        return result
    }

    /// Whether `slot` is in the table.
    @inlinable package func contains(_ slot: Int32) -> Bool {
        Int(slot) < nodes.count && nodes[slot].next != Self.absent
    }

    /// The slots in the table, after checking that each sits once in its bucket's chain and that
    /// the chains hold no other (stops with a message naming `name` if not). Walks the chains of
    /// the buckets in use only, so a table of 2^24 buckets is checked quickly.
    @inlinable package func checkedSlots(name: String) -> [Int32] {
        var slots: [Int32] = []
        var chained = 0
        var bucketsSeen = Set<Int>()
        for slot in 0..<Int32(nodes.count) where nodes[slot].next != Self.absent {
            slots.append(slot)
            let bucket = self.bucket(of: slot)
            let members = chain(bucket)
            precondition(
                members.count(where: { $0 == slot }) == 1, "\(name): slot \(slot) not once in bucket \(bucket)")
            if bucketsSeen.insert(bucket).inserted {
                chained += members.count
                precondition(
                    Int(heads[bucket].length) == members.count,
                    "\(name): bucket \(bucket) says its chain is \(heads[bucket].length) long, not \(members.count)")
                precondition(
                    members.allSatisfy { nodes[$0].next != Self.absent && self.bucket(of: $0) == bucket },
                    "\(name): bucket \(bucket) chains a slot that belongs elsewhere")
            }
        }
        precondition(slots.count == count, "\(name): \(slots.count) slots in the table, count \(count)")
        precondition(chained == count, "\(name): the chains hold \(chained) slots, count \(count)")
        return slots
    }

    // Doubles the table in place: old bucket b's chain splits between buckets b and b + old
    // size, each part reversed (every entry pushed onto its new bucket's head in chain order).
    @inlinable package mutating func expand() {
        precondition(hashPower < Self.maximumHashPower, "ChainedHashTable: cannot double past 2^32 buckets")
        let old = bucketCount
        heads.grow(to: old * 2, filling: .empty)
        hashPower += 1
        mask = (mask << 1) | 1
        for bucket in 0..<old {
            var low = Bucket.empty
            var high = Bucket.empty
            var slot = head(bucket)
            while slot >= 0 {
                let next = nodes[slot].next
                if UInt64(nodes[slot].hash) & UInt64(old) == 0 {
                    nodes[slot].next = low.first
                    low = low.pushing(slot)
                } else {
                    nodes[slot].next = high.first
                    high = high.pushing(slot)
                }
                slot = next
            }
            heads[bucket] = low
            heads[bucket + old] = high
        }
    }

    // Halves the table in place. libCacheSim walks the old buckets in order, each chain from its
    // head, pushing every entry onto the head of its new bucket (b & new mask): new bucket b gets
    // old bucket b's chain reversed, then old bucket b + half's reversed on top. A sparse table
    // (BeladySize's 2^24 buckets for a few hundred entries) walks only the buckets in use, sorted,
    // which meets them in the same order; that list is the one allocation, on a halving.
    @inlinable package mutating func shrink() {
        precondition(hashPower > 0, "ChainedHashTable: cannot shrink a table of one bucket")
        let old = bucketCount
        let oldMask = mask
        hashPower -= 1
        mask >>= 1
        if count * 16 < old {
            var used: [Int] = []
            used.reserveCapacity(count)
            for slot in 0..<Int32(nodes.count) where nodes[slot].next != Self.absent {
                used.append(Int(UInt64(nodes[slot].hash) & oldMask))
            }
            used.sort()
            var previous = -1
            for bucket in used where bucket != previous {
                previous = bucket
                moveChain(from: bucket)
            }
        } else {
            for bucket in 0..<old where heads[bucket].length != 0 { moveChain(from: bucket) }
        }
    }

    // Empties old bucket `bucket`, pushing its entries, head first, onto the head of their bucket
    // under the (new, halved) mask.
    @inline(__always)
    @inlinable package mutating func moveChain(from bucket: Int) {
        let target = bucket & Int(mask)
        var slot = head(bucket)
        heads[bucket] = .empty
        while slot >= 0 {
            let next = nodes[slot].next
            nodes[slot].next = head(target)
            push(slot, onto: target)
            slot = next
        }
    }

    /// The bucket whose chain `slot` is in (under the current mask).
    @inline(__always)
    @inlinable package func bucket(of slot: Int32) -> Int { Int(UInt64(nodes[slot].hash) & mask) }

    /// The first slot of `bucket`'s chain, or -1 (the end of a chain, as in `Link.next`).
    @inline(__always)
    @inlinable package func head(_ bucket: Int) -> Int32 { heads[bucket].first }

    /// Makes `slot` (already linked to the old head) the first of `bucket`'s chain, one longer.
    @inline(__always)
    @inlinable package func push(_ slot: Int32, onto bucket: Int) { heads[bucket] = heads[bucket].pushing(slot) }
}
