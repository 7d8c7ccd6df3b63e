import CacheEngine
import Testing

@testable import CacheLab

/// `BlockedChainTable` against `ChainedHashTable` (whose layouts `ChainedHashTableTests` checks
/// against libCacheSim's): the same operations leave the same chains and sample the same slots,
/// including chains long enough to spill into overflow blocks.
@Suite("BlockedChainTable: libCacheSim's chains, four to a line")
struct BlockedChainTableTests {
    typealias Linked = ChainedHashTable

    /// Keys whose hashes share their low `bits` bits (so they share a bucket in any table of at
    /// most 2^bits buckets), `count` of them.
    static func colliding(_ count: Int, bits: Int) -> [UInt64] {
        var keys: [UInt64] = []
        var key: UInt64 = 1
        while keys.count < count {
            if Linked.hash(key) & ((1 << UInt64(bits)) - 1) == 0 { keys.append(key) }
            key += 1
        }
        return keys
    }

    /// Each non-empty bucket's chain, head first.
    static func chains(_ table: BlockedChainTable) -> [Int: [Int32]] {
        var result: [Int: [Int32]] = [:]
        for bucket in 0..<table.bucketCount where !table.chain(bucket).isEmpty { result[bucket] = table.chain(bucket) }
        return result
    }

    static func chains(_ table: Linked) -> [Int: [Int32]] {
        var result: [Int: [Int32]] = [:]
        for bucket in 0..<table.bucketCount where !table.chain(bucket).isEmpty { result[bucket] = table.chain(bucket) }
        return result
    }

    /// Both tables of `2^hashPower` buckets, holding keys 1 to `last`, key k in slot k - 1.
    static func tables(hashPower: Int, holdingKeysUpTo last: UInt64) -> (BlockedChainTable, Linked) {
        var blocked = BlockedChainTable(hashPower: hashPower)
        var linked = Linked(hashPower: hashPower)
        linked.grow(to: Int(last))
        for key in UInt64(1)...last {
            blocked.insert(Int32(key - 1), key: key)
            linked.insert(Int32(key - 1), key: key)
        }
        return (blocked, linked)
    }

    /// Both tables agree: bucket count and chains; and every key is found in its slot.
    static func expectAlike(_ blocked: BlockedChainTable, _ linked: Linked, keys: [Int32: UInt64]) {
        #expect(blocked.hashPower == linked.hashPower)
        #expect(blocked.count == linked.count)
        #expect(chains(blocked) == chains(linked))
        #expect(blocked.checkedSlots(name: "blocked") == linked.checkedSlots(name: "linked").sorted())
        for (slot, key) in keys { #expect(blocked.slot(forKey: key) == slot) }
    }

    @Test func aLongChainSpillsIntoOverflowBlocksInChainOrder() {
        // Given 13 keys in one bucket of a table of 16 (more than three blocks' worth)
        let keys = Self.colliding(13, bits: 4)
        var blocked = BlockedChainTable(hashPower: 4)
        var linked = Linked(hashPower: 4)
        linked.grow(to: 16)
        for (slot, key) in keys.enumerated() {
            blocked.insert(Int32(slot), key: key)
            linked.insert(Int32(slot), key: key)
        }
        // Then the chain is the linked one, newest first, and each key is found
        #expect(blocked.chain(0) == Array((0..<13).reversed()))
        var byKey = Dictionary(uniqueKeysWithValues: keys.enumerated().map { (Int32($0.offset), $0.element) })
        Self.expectAlike(blocked, linked, keys: byKey)
        #expect(blocked.slot(forKey: Self.colliding(14, bits: 4)[13]) == nil)
        // When entries go from the head, the middle, a block's edge and the tail
        for slot: Int32 in [12, 6, 4, 8, 0, 1] {
            blocked.remove(slot, key: keys[Int(slot)])
            linked.remove(slot)
            byKey[slot] = nil
            #expect(blocked.slot(forKey: keys[Int(slot)]) == nil)
            Self.expectAlike(blocked, linked, keys: byKey)
        }
        // Then the freed blocks are reused as the chain grows again
        for slot: Int32 in [12, 6, 4, 8, 0, 1] {
            blocked.insert(slot, key: keys[Int(slot)])
            linked.insert(slot, key: keys[Int(slot)])
            byKey[slot] = keys[Int(slot)]
        }
        Self.expectAlike(blocked, linked, keys: byKey)
    }

    @Test(arguments: [
        (hashPower: 3, keys: 60, seed: 1), (hashPower: 6, keys: 400, seed: 2), (hashPower: 10, keys: 40, seed: 3),
    ])
    func mixedOperationsLeaveTheLinkedTablesChainsAndSamples(hashPower: Int, keys keyCount: Int, seed: UInt64) {
        // Given both tables, and a stream of insertions (half of them into one crowded bucket),
        // removals, samples that remove and samples that peek
        var blocked = BlockedChainTable(hashPower: hashPower)
        var linked = Linked(hashPower: hashPower)
        linked.grow(to: keyCount)
        let crowded = Self.colliding(keyCount / 2, bits: 12)
        let keys = crowded + (1...UInt64(keyCount - crowded.count)).map { $0 * 7_919 }
        let (randomA, randomB) = (LehmerRandom(seed: seed), LehmerRandom(seed: seed))
        let operations = LehmerRandom(seed: seed + 100)
        var present: [Int32: UInt64] = [:]
        var absent = Array(0..<Int32(keyCount))
        var samples = 0
        for step in 0..<3_000 {
            let choice = operations.next() % 10
            if choice < 5, !absent.isEmpty {
                let slot = absent.remove(at: Int(operations.next() % UInt64(absent.count)))
                blocked.insert(slot, key: keys[Int(slot)])
                linked.insert(slot, key: keys[Int(slot)])
                present[slot] = keys[Int(slot)]
            } else if choice < 7, !present.isEmpty {
                let slot = present.keys.sorted()[Int(operations.next() % UInt64(present.count))]
                blocked.remove(slot, key: keys[Int(slot)])
                linked.remove(slot)
                present[slot] = nil
                absent.append(slot)
            } else if !present.isEmpty {
                // Then a peek names the sample, and both tables sample the same slot
                let peeked = blocked.peekSample(randomA)
                let slot = blocked.takeSample(randomA)
                let expected = linked.sample(randomB)
                linked.remove(expected)
                #expect(slot == expected)
                if let peeked { #expect(peeked.slot == slot) }
                present[slot] = nil
                absent.append(slot)
                samples += 1
            }
            if step % 50 == 0 {
                Self.expectAlike(blocked, linked, keys: present)
                // And no key that is not in the table is found
                for slot in absent { #expect(blocked.slot(forKey: keys[Int(slot)]) == nil) }
            }
        }
        #expect(randomA.next() == randomB.next())
        #expect(samples > 300)
        Self.expectAlike(blocked, linked, keys: present)
        // And emptied, both keep their size and start again alike
        blocked.removeAll()
        linked.removeAll()
        #expect(blocked.count == 0 && blocked.peekSample(randomA) == nil)
        for (slot, key) in keys.prefix(20).enumerated() {
            blocked.insert(Int32(slot), key: key)
            linked.insert(Int32(slot), key: key)
        }
        Self.expectAlike(
            blocked, linked,
            keys: Dictionary(uniqueKeysWithValues: keys.prefix(20).enumerated().map { (Int32($0.offset), $0.element) }))
    }

    @Test func aSparseTableHalvesAsTheLinkedOneDoes() {
        // Given 8 keys in 4,096 buckets and libCacheSim's generator at its seed
        var (blocked, linked) = Self.tables(hashPower: 12, holdingKeysUpTo: 8)
        let (randomA, randomB) = (LehmerRandom(), LehmerRandom())
        // When sampled, then both halve alike and pick key 2 (ChainedHashTableTests' layout)
        #expect(blocked.sample(randomA) == (1, 2))
        #expect(linked.sample(randomB) == 1)
        #expect(blocked.hashPower == 4)
        Self.expectAlike(
            blocked, linked, keys: Dictionary(uniqueKeysWithValues: (1...8).map { (Int32($0 - 1), UInt64($0)) }))
    }

    @Test func halvingWalksTheChainsNotedAndNotesTheNewOnes() {
        // Given 12 keys in 4,096 buckets, one of them taken out and put back (a bucket emptied
        // and begun again is noted twice)
        var (blocked, linked) = Self.tables(hashPower: 12, holdingKeysUpTo: 12)
        blocked.remove(4, key: 5)
        linked.remove(4)
        blocked.insert(4, key: 5)
        linked.insert(4, key: 5)
        // When samples halve both tables, again and again
        let (randomA, randomB) = (LehmerRandom(seed: 3), LehmerRandom(seed: 3))
        for _ in 0..<6 { #expect(blocked.sample(randomA).slot == linked.sample(randomB)) }
        // Then they halved alike, and the blocked table noted each of its chains once
        #expect(blocked.hashPower < 10)
        Self.expectAlike(
            blocked, linked, keys: Dictionary(uniqueKeysWithValues: (1...12).map { (Int32($0 - 1), UInt64($0)) }))
        #expect(blocked.touchedCount == (0..<blocked.bucketCount).filter { blocked.buckets[$0].length != 0 }.count)
        // And emptied through those notes, every bucket is empty
        blocked.removeAll()
        #expect((0..<blocked.bucketCount).allSatisfy { blocked.buckets[$0].length == 0 })
    }

    @Test func aSamplesPlaceInItsChainIsTheRemainderLibCacheSimTakes() {
        // Given draws from libCacheSim's generator and the extremes of a 64-bit draw
        let random = LehmerRandom(seed: 7)
        let draws = (0..<2_000).map { _ in random.next() } + [0, 1, .max, .max - 1, 1 << 63]
        // Then every chain length, powers of two (masked) or not (divided), picks draw % length
        for length in UInt32(1)...40 {
            #expect(draws.allSatisfy { BlockedChainTable.position($0, inChainOf: length) == Int($0 % UInt64(length)) })
        }
    }

    @Test func aPeekNamesWhatTheNextSamplesTakeAndHowManyDraws() {
        // Given 3 keys in 8 buckets (most empty) and a generator
        var table = BlockedChainTable(hashPower: 3)
        for key in UInt64(1)...3 { table.insert(Int32(key - 1), key: key) }
        let random = LehmerRandom(seed: 11)
        var emptyDraws = 0
        for _ in 0..<50 {
            // Then a peek past the next sample names the one after it
            let peeked = table.peekSample(random)
            let after = peeked.flatMap { table.peekSample(random, skipping: $0.draws) }
            // And every peek is the sample that follows it, with the draws it takes
            let before = random.draws
            #expect(table.sample(random).slot == peeked?.slot)
            #expect(random.draws - before == UInt64(peeked?.draws ?? -1))
            emptyDraws += (peeked?.draws ?? 2) - 2
            #expect(table.peekSample(random)?.slot == after?.slot)
        }
        #expect(emptyDraws > 0, "the samples drew empty buckets too")
        // And an empty table has nothing to name
        table.removeAll()
        #expect(table.peekSample(random) == nil)
    }

    @Test(arguments: [20, 200])
    func emptyingLeavesEveryBucketEmptyWhetherItNotedTheChainsOrNot(keyCount: Int) {
        // Given a table of 1,024 buckets (it notes up to 64 chains begun) holding `keyCount` keys,
        // then emptied once more after a doubling (which stops the noting until emptied)
        var table = BlockedChainTable(hashPower: 10)
        for round in 0..<2 {
            let keys = (0..<keyCount).map { UInt64($0 + round * 10_000) &* 0x9E37_79B9_7F4A_7C15 }
            for (slot, key) in keys.enumerated() { table.insert(Int32(slot), key: key) }
            if round == 1 { table.expand() }
            _ = table.checkedSlots(name: "table")
            // When it is emptied
            table.removeAll()
            // Then every bucket is empty and nothing is counted
            #expect(table.count == 0 && table.overflowUsed == 0 && table.freeOverflow == 0)
            #expect((0..<table.bucketCount).allSatisfy { table.buckets[$0].length == 0 })
            #expect(keys.allSatisfy { table.slot(forKey: $0) == nil })
        }
    }

}
