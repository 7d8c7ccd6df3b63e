/// libCacheSim's `chainedHashTableV2` laid out for lookups: the buckets, chains and samples of
/// `ChainedHashTable` (every insertion, removal, doubling and halving leaves each chain in the
/// same order, and a sample with the same draws picks the same entry), but each chain is stored in
/// its bucket, four entries (key and slot) to a 64-byte block, and its entries past the fourth in
/// overflow blocks of four chained behind it. For Random and Hyperbolic, whose table is the
/// cache's index too.
///
/// A linked chain costs a lookup one dependent load per link, each from a line of its own; here
/// a lookup reads its bucket's line, and only a chain of five or more (by a Poisson estimate,
/// about 5 % of chains at the two entries per bucket where the table doubles) reads further. A
/// sample reads the entry it picks from the same line, and removes it there.
///
/// It keeps no hash per slot: a removal is given the key, whose hash names the bucket (a
/// per-slot hash array, written on every insertion, slowed Random: the Speed article has the
/// measurement).
///
/// - Complexity: O(1) expected insert, lookup, sample and remove (each shifts at most the
///   entries of its chain); a rehash is O(buckets).
/// - Invariant: every slot in the table sits once in the chain of bucket `hash & mask`; a
///   bucket's `length` counts its chain, whose entries fill its blocks in order (all but the last
///   full); `count` is their number; buckets at `bucketCount` and beyond are empty.
@usableFromInline package struct BlockedChainTable {
    /// Entries per block.
    @inlinable package static var width: Int { 4 }

    /// Four entries of a chain, in chain order, and (in a bucket) the chain's length. All zero
    /// is an empty bucket, so zeroed memory is an empty table. 64 bytes: one cache line.
    @usableFromInline package struct Block: BitwiseCopyable {
        @usableFromInline package var keys = InlineArray<4, UInt64>(repeating: 0)
        @usableFromInline package var slots = InlineArray<4, Int32>(repeating: 0)
        /// In a bucket, its chain's length; 0 in an overflow block.
        @usableFromInline package var length: UInt32 = 0
        /// The overflow block holding the chain's next four entries, plus one (0: none).
        @usableFromInline package var nextPlusOne: UInt32 = 0
        @usableFromInline package var padding: UInt64 = 0

        @inlinable package static var empty: Block { Block() }

        /// Puts `key` and `slot` first, moving the others one place on; returns the entry moved
        /// out of the last place (meaningless when the block was not full).
        @inline(__always)
        @inlinable package mutating func pushFront(_ key: UInt64, _ slot: Int32) -> (key: UInt64, slot: Int32) {
            let out = (keys[3], slots[3])
            keys[3] = keys[2]
            slots[3] = slots[2]
            keys[2] = keys[1]
            slots[2] = slots[1]
            keys[1] = keys[0]
            slots[1] = slots[0]
            keys[0] = key
            slots[0] = slot
            return out
        }

        /// The slot of `key` if it is among the first `count` entries (all four when `count` is
        /// more). Every place is compared, with no branch on which one holds the key: where it
        /// sits is random, so such a branch is hard to predict (paired runs of Random preferred it
        /// to a loop that returned at the first match: the Speed article).
        @inline(__always)
        @inlinable package func slot(of key: UInt64, among count: Int) -> Int32? {
            var found: Int32 = -1
            for index in 0..<4 {
                let match = keys[index] == key && index < count
                found = match ? slots[index] : found
            }
            return found < 0 ? nil : found
        }

        /// Removes the entry at `index`, moving the ones after it a place back; the last place
        /// then holds a stale entry.
        @inline(__always)
        @inlinable package mutating func remove(at index: Int) {
            var index = index
            while index < 3 {
                keys[index] = keys[index + 1]
                slots[index] = slots[index + 1]
                index += 1
            }
        }

        @inlinable package init(
            keys: InlineArray<4, UInt64> = InlineArray<4, UInt64>(repeating: 0),
            slots: InlineArray<4, Int32> = InlineArray<4, Int32>(repeating: 0), length: UInt32 = 0,
            nextPlusOne: UInt32 = 0, padding: UInt64 = 0
        ) {
            self.keys = keys
            self.slots = slots
            self.length = length
            self.nextPlusOne = nextPlusOne
            self.padding = padding
        }
    }

    @usableFromInline package var hashPower: Int
    @usableFromInline package var count = 0
    @usableFromInline package var mask: UInt64
    /// The buckets: each chain's first block. At least `bucketCount` long.
    @usableFromInline package let buckets: SlotArray<Block>
    /// The overflow blocks, in use or free.
    @usableFromInline package let overflow = SlotArray<Block>(count: 0, filling: .empty)
    /// The first free overflow block plus one (0: none); the free ones chain by `nextPlusOne`.
    @usableFromInline package var freeOverflow: UInt32 = 0
    /// How many overflow blocks have ever been handed out (the others are beyond).
    @usableFromInline package var overflowUsed = 0
    /// The buckets whose chains began (went from empty to one entry) since the table was made or
    /// emptied, while they fit here: emptying the table then empties those, where it would read
    /// every bucket (a client's memory tier is emptied at each relaunch holding a few of the
    /// entries it has room for), and halving walks only those. `touchedCount` keeps counting past
    /// the array, and a doubling sets it past it: emptying and halving then read every bucket, as
    /// before. A halving notes the chains anew as it pushes them.
    @usableFromInline package let touched: SlotArray<UInt32>
    @usableFromInline package var touchedCount = 0

    /// An empty table of `2^hashPower` buckets.
    @inlinable package init(hashPower: Int) {
        self.hashPower = hashPower
        mask = ChainedHashTable.mask(hashPower: hashPower, table: "BlockedChainTable")
        // Filled, not lazily zeroed (`SlotArray(zeroedCount:)`): from 2 MiB up a filled array
        // asks for huge pages, on which Random's buckets, read at random, are faster (the Speed
        // article has the paired runs).
        buckets = SlotArray(count: 1 << hashPower, filling: .empty)
        touched = SlotArray(count: Swift.max(16, (1 << hashPower) >> 4), filling: 0)
    }

    @inlinable package var bucketCount: Int { 1 << hashPower }

    /// libCacheSim's object hash (`ChainedHashTable.hash`).
    @inline(__always)
    @inlinable package static func hash(_ key: UInt64) -> UInt64 { ChainedHashTable.hash(key) }

    /// Adds `slot`, holding `key`, at the head of its bucket's chain (doubling the table first
    /// when it holds more than two entries per bucket).
    @inline(__always)
    @inlinable package mutating func insert(_ slot: Int32, key: UInt64) {
        if count > 2 << hashPower { expand() }
        push(key, slot, onto: bucket(ofKey: key))
        count += 1
    }

    /// Removes `slot`, which must be in the table holding `key`.
    @inlinable package mutating func remove(_ slot: Int32, key: UInt64) {
        let bucket = bucket(ofKey: key)
        guard let position = position(of: slot, in: bucket) else {
            preconditionFailure("BlockedChainTable: slot \(slot) is not in its key's bucket's chain")
        }
        removeEntry(at: position, in: bucket)
        count -= 1
    }

    /// libCacheSim's `rand_obj`, as `ChainedHashTable.sample`: a bucket drawn until one is not
    /// empty (the table halved after the 33rd empty one in a row, and after each further one),
    /// then an entry of its chain: its slot and key. The table must not be empty.
    @inline(__always)
    @inlinable package mutating func sample(_ random: LehmerRandom) -> (slot: Int32, key: UInt64) {
        let (bucket, position) = samplePlace(random)
        let (block, index) = block(at: position, in: bucket)
        return (block.pointee.slots[index], block.pointee.keys[index])
    }

    /// `sample(random)`, and the entry sampled removed from the table.
    @inline(__always)
    @inlinable package mutating func takeSample(_ random: LehmerRandom) -> Int32 {
        let (bucket, position) = samplePlace(random)
        let slot = slot(at: position, in: bucket)
        removeEntry(at: position, in: bucket)
        count -= 1
        return slot
    }

    @inline(__always)
    @inlinable package mutating func samplePlace(_ random: LehmerRandom) -> (bucket: Int, position: Int) {
        precondition(count > 0, "BlockedChainTable: sampling an empty table")
        var bucket = Int(random.next() & mask)
        var tries = 0
        while buckets[bucket].length == 0 {
            tries += 1
            if tries > 32 { shrink() }
            bucket = Int(random.next() & mask)
        }
        return (bucket, Self.position(random.next(), inChainOf: buckets[bucket].length))
    }

    /// The place in a chain of `length` that a sample's second draw picks: `draw % length`, as
    /// libCacheSim computes it. Most chains are one, two or four long (the table halves when
    /// sparse and doubles past two entries per bucket), and for those the remainder is a mask: a
    /// 64-bit division costs tens of cycles, and Hyperbolic takes 64 samples per eviction. (A
    /// `switch` over the lengths up to eight, each a remainder by a constant, was slower: the
    /// Speed article.)
    @inline(__always)
    @inlinable package static func position(_ draw: UInt64, inChainOf length: UInt32) -> Int {
        let length = UInt64(length)
        return Int(length & (length &- 1) == 0 ? draw & (length &- 1) : draw % length)
    }

    /// The entry `sample(random)` will return after `skipping` draws, and how many draws that
    /// sample takes, if nothing changes before it; nil when the table is empty or the sample
    /// would halve it (32 empty buckets in a row). Draws nothing.
    @inline(__always)
    @inlinable package func peekSample(_ random: LehmerRandom, skipping: Int = 0) -> (slot: Int32, draws: Int)? {
        guard count > 0 else { return nil }
        var stream = random.lookahead(skipping: skipping)
        var draws = 1
        var bucket = Int(stream.next() & mask)
        while buckets[bucket].length == 0 {
            guard draws <= 32 else { return nil }
            draws += 1
            bucket = Int(stream.next() & mask)
        }
        let position = Self.position(stream.next(), inChainOf: buckets[bucket].length)
        return (slot(at: position, in: bucket), draws + 1)
    }

    /// Starts loading the buckets of the next two draws after `skipping` (a sample's first, and
    /// its second when the first is empty), for a `peekSample` or samples to come.
    @inline(__always)
    @inlinable package func prefetchBuckets(_ random: LehmerRandom, skipping: Int) {
        var stream = random.lookahead(skipping: skipping)
        buckets.prefetch(Int(stream.next() & mask))
        buckets.prefetch(Int(stream.next() & mask))
    }

    /// The slot holding `key`, or nil: its bucket's line, and the overflow of a chain of five or
    /// more.
    @inline(__always)
    @inlinable package func slot(forKey key: UInt64) -> Int32? {
        var block = buckets.address(bucket(ofKey: key))
        var left = Int(block.pointee.length)
        while true {
            if let slot = block.pointee.slot(of: key, among: left) { return slot }
            left -= Self.width
            guard left > 0 else { return nil }
            block = overflow.address(Int(block.pointee.nextPlusOne) - 1)
        }
    }

    /// Starts loading `key`'s bucket, for a lookup soon. (Once it has arrived there is nothing
    /// more to load but the rare overflow block, so the `settled` stage does nothing.)
    @inline(__always)
    @inlinable package func prefetchLookup(of key: UInt64, settled: Bool) {
        if !settled { buckets.prefetch(bucket(ofKey: key)) }
    }

    /// Empties the table, keeping its size.
    @inlinable package mutating func removeAll() {
        if touchedCount <= touched.count {
            for index in 0..<touchedCount { buckets[Int(touched[index])] = .empty }
        } else {
            for bucket in 0..<bucketCount where buckets[bucket].length != 0 { buckets[bucket] = .empty }
        }
        touchedCount = 0
        freeOverflow = 0
        overflowUsed = 0
        count = 0
    }

    /// The slots of `bucket`'s chain, head first (for tests).
    @inlinable package func chain(_ bucket: Int) -> [Int32] { entries(of: bucket).map(\.slot) }

    /// The entries of `bucket`'s chain, head first.
    @inlinable package func entries(of bucket: Int) -> [(key: UInt64, slot: Int32)] {
        (0..<Int(buckets[bucket].length)).map { position in
            let (block, index) = block(at: position, in: bucket)
            return (block.pointee.keys[index], block.pointee.slots[index])
        }
    }

    /// The slots in the table, after checking that each sits once in the chain of its bucket and
    /// that the chains hold `count` of them (stops with a message naming `name` if not).
    @inlinable package func checkedSlots(name: String) -> [Int32] {
        if touchedCount <= touched.count {
            let began = Set((0..<touchedCount).map { Int(touched[$0]) })
            precondition(
                (0..<bucketCount).allSatisfy { buckets[$0].length == 0 || began.contains($0) },
                "\(name): a chain began without its bucket noted")
        }
        var slots: [Int32] = []
        var blocks = 0
        for bucket in 0..<bucketCount where buckets[bucket].length != 0 {
            let members = entries(of: bucket)
            blocks += (members.count - 1) / Self.width
            for (key, slot) in members {
                precondition(
                    self.bucket(ofKey: key) == bucket,
                    "\(name): bucket \(bucket) chains slot \(slot), whose key belongs elsewhere")
            }
            slots += members.map(\.slot)
        }
        precondition(slots.count == count, "\(name): the chains hold \(slots.count) slots, count \(count)")
        precondition(Set(slots).count == slots.count, "\(name): a slot sits in the table twice")
        var free = 0
        var next = freeOverflow
        while next != 0 {
            free += 1
            next = overflow[Int(next) - 1].nextPlusOne
        }
        precondition(
            blocks + free == overflowUsed,
            "\(name): \(blocks) overflow blocks in chains and \(free) free, of \(overflowUsed) handed out")
        return slots.sorted()
    }

    // MARK: Chains

    /// The bucket whose chain holds `key` (under the current mask).
    @inline(__always)
    @inlinable package func bucket(ofKey key: UInt64) -> Int { Int(Self.hash(key) & mask) }

    /// The block holding position `position` of `bucket`'s chain (it must be that long), and the
    /// position's index in it.
    @inline(__always)
    @inlinable package func block(at position: Int, in bucket: Int) -> (UnsafeMutablePointer<Block>, index: Int) {
        var block = buckets.address(bucket)
        var index = position
        while index >= Self.width {
            block = overflow.address(Int(block.pointee.nextPlusOne) - 1)
            index -= Self.width
        }
        return (block, index)
    }

    @inline(__always)
    @inlinable package func slot(at position: Int, in bucket: Int) -> Int32 {
        let (block, index) = block(at: position, in: bucket)
        return block.pointee.slots[index]
    }

    /// Where `slot` is in `bucket`'s chain, if there.
    @inlinable package func position(of slot: Int32, in bucket: Int) -> Int? {
        let length = Int(buckets[bucket].length)
        var block = buckets.address(bucket)
        var start = 0
        while start < length {
            for index in 0..<Swift.min(length - start, Self.width) where block.pointee.slots[index] == slot {
                return start + index
            }
            start += Self.width
            if start < length { block = overflow.address(Int(block.pointee.nextPlusOne) - 1) }
        }
        return nil
    }

    /// Puts `key` and `slot` at the head of `bucket`'s chain: each block's last entry moves to
    /// the front of the next, and a full last block gets a new one behind it.
    @inline(__always)
    @inlinable package mutating func push(_ key: UInt64, _ slot: Int32, onto bucket: Int) {
        let length = Int(buckets[bucket].length)
        if length == 0 {
            if touchedCount < touched.count { touched[touchedCount] = UInt32(truncatingIfNeeded: bucket) }
            touchedCount &+= 1
        }
        if length >= Self.width && length % Self.width == 0 { appendOverflow(to: bucket, length: length) }
        var block = buckets.address(bucket)
        block.pointee.length = UInt32(length + 1)
        var carry = (key: key, slot: slot)
        var left = length
        while true {
            carry = block.pointee.pushFront(carry.key, carry.slot)
            guard left >= Self.width else { return }
            left -= Self.width
            block = overflow.address(Int(block.pointee.nextPlusOne) - 1)
        }
    }

    /// Removes position `position` of `bucket`'s chain: the entries after it move a place back,
    /// each block's first to the last place of the one before; a last block left empty is freed.
    @inline(__always)
    @inlinable package mutating func removeEntry(at position: Int, in bucket: Int) {
        let length = Int(buckets[bucket].length)
        buckets[bucket].length = UInt32(length - 1)
        var previous: UnsafeMutablePointer<Block>?
        var block = buckets.address(bucket)
        var index = position
        // Entries from `block`'s first on.
        var left = length
        while index >= Self.width {
            previous = block
            block = overflow.address(Int(block.pointee.nextPlusOne) - 1)
            index -= Self.width
            left -= Self.width
        }
        while left > Self.width {
            block.pointee.remove(at: index)
            let next = overflow.address(Int(block.pointee.nextPlusOne) - 1)
            block.pointee.keys[Self.width - 1] = next.pointee.keys[0]
            block.pointee.slots[Self.width - 1] = next.pointee.slots[0]
            previous = block
            block = next
            index = 0
            left -= Self.width
        }
        block.pointee.remove(at: index)
        if left == 1, let previous {
            // An overflow block left empty goes back to the free ones.
            let freed = previous.pointee.nextPlusOne
            previous.pointee.nextPlusOne = 0
            block.pointee.nextPlusOne = freeOverflow
            freeOverflow = freed
        }
    }

    /// Links a free overflow block behind the last, full one of `bucket`'s chain of `length`.
    @inlinable package mutating func appendOverflow(to bucket: Int, length: Int) {
        let new: UInt32
        if freeOverflow != 0 {
            new = freeOverflow
            freeOverflow = overflow[Int(new) - 1].nextPlusOne
        } else {
            if overflowUsed == overflow.count { overflow.grow(to: Swift.max(16, overflowUsed * 2), filling: .empty) }
            overflowUsed += 1
            new = UInt32(overflowUsed)
        }
        overflow[Int(new) - 1] = .empty
        let (last, _) = block(at: length - 1, in: bucket)
        last.pointee.nextPlusOne = new
    }

    /// Takes `bucket`'s chain out, head first, into `keys` and `slots` (emptied first), leaving
    /// the bucket empty and its overflow blocks free.
    @inlinable package mutating func takeChain(of bucket: Int, keys: inout [UInt64], slots: inout [Int32]) {
        keys.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        let length = Int(buckets[bucket].length)
        var block = buckets.address(bucket)
        // `block`'s number among the overflow blocks plus one; 0 for the bucket.
        var current: UInt32 = 0
        var start = 0
        while true {
            for index in 0..<Swift.min(length - start, Self.width) {
                keys.append(block.pointee.keys[index])
                slots.append(block.pointee.slots[index])
            }
            start += Self.width
            let next = block.pointee.nextPlusOne
            if current != 0 {
                block.pointee.nextPlusOne = freeOverflow
                freeOverflow = current
            }
            guard start < length else { break }
            current = next
            block = overflow.address(Int(next) - 1)
        }
        buckets[bucket] = .empty
    }

    // Doubles the table: old bucket b's chain, walked from its head, is pushed entry by entry
    // onto the heads of buckets b and b + old size, so each part is reversed (libCacheSim's
    // order).
    @inlinable package mutating func expand() {
        precondition(
            hashPower < ChainedHashTable.maximumHashPower,
            "BlockedChainTable: cannot double past 2^32 buckets")
        let old = bucketCount
        buckets.grow(to: old * 2, filling: .empty)
        hashPower += 1
        mask = (mask << 1) | 1
        var keys: [UInt64] = []
        var slots: [Int32] = []
        for bucket in 0..<old where buckets[bucket].length != 0 {
            takeChain(of: bucket, keys: &keys, slots: &slots)
            for (key, slot) in zip(keys, slots) {
                push(key, slot, onto: Self.hash(key) & UInt64(old) == 0 ? bucket : bucket + old)
            }
        }
        // Chains moved: the next emptying reads every bucket.
        touchedCount = Int.max / 2
    }

    // Halves the table: libCacheSim walks the old buckets in order, each chain from its head,
    // pushing every entry onto the head of its new bucket (b & new mask), so new bucket b gets
    // old bucket b's chain reversed, then old bucket b + half's reversed on top. A table halves
    // because it is sparse, so when every chain begun was noted, only those buckets are walked,
    // in order (a bucket emptied and begun again is noted twice); else every bucket is.
    @inlinable package mutating func shrink() {
        precondition(hashPower > 0, "BlockedChainTable: cannot shrink a table of one bucket")
        let old = bucketCount
        let begun = touchedCount <= touched.count ? (0..<touchedCount).map { Int(touched[$0]) }.sorted() : nil
        hashPower -= 1
        mask >>= 1
        // Every chain is taken out and pushed again, so `push` notes each new one as it begins.
        touchedCount = 0
        var keys: [UInt64] = []
        var slots: [Int32] = []
        func move(_ bucket: Int) {
            guard buckets[bucket].length != 0 else { return }
            takeChain(of: bucket, keys: &keys, slots: &slots)
            for (key, slot) in zip(keys, slots) { push(key, slot, onto: bucket & Int(mask)) }
        }
        guard let begun else {
            for bucket in 0..<old { move(bucket) }
            return
        }
        var previous = -1
        for bucket in begun where bucket != previous {
            previous = bucket
            move(bucket)
        }
    }
}
